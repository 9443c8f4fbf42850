llvm.func @f() attributes {phaedrus.entry_count = #phaedrus.entry_count<18446744073709551615, measured, confidence = 1.0>} {
  llvm.return
}
