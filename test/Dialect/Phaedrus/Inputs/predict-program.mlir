// A two-function program for phaedrus-predict tests with model files.
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.call @f0() : () -> ()
  llvm.return
}
