// @pick calls @leaf on one side of its branch.
llvm.func @leaf() {
  llvm.return
}
llvm.func @pick(%c: i1) {
  llvm.cond_br %c, ^a, ^b
^a:
  llvm.call @leaf() : () -> ()
  llvm.return
^b:
  llvm.return
}
