llvm.func @f() attributes {phaedrus.entry_count = 12} {
  llvm.return
}
