// A module with an op that has no LLVM IR form (func.func: not yet
// converted to the LLVM dialect): phaedrus-static-estimate cannot run
// LLVM's analyses on it.
func.func @f() {
  return
}
llvm.func @main() {
  llvm.return
}
