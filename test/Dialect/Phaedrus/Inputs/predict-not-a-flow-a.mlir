// @f: entry -> P (calls @p) | Q (calls @q); P, Q -> X; X -> R (calls @r) | S; S -> T (calls @t).
// The prediction: @f entered 10 times, @p 6, @q 6, @r 3, @t 1 (not one flow: 6 + 6 > 10).
llvm.func @p() {
  llvm.return
}
llvm.func @q() {
  llvm.return
}
llvm.func @r() {
  llvm.return
}
llvm.func @t() {
  llvm.return
}
llvm.func @f(%c: i1, %d: i1) {
  llvm.cond_br %c, ^P, ^Q
^P:
  llvm.call @p() : () -> ()
  llvm.br ^X
^Q:
  llvm.call @q() : () -> ()
  llvm.br ^X
^X:
  llvm.cond_br %d, ^R, ^S
^R:
  llvm.call @r() : () -> ()
  llvm.return
^S:
  llvm.br ^T
^T:
  llvm.call @t() : () -> ()
  llvm.return
}
