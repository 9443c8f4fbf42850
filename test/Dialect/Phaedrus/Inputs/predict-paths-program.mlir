// A function with two paths, for phaedrus-predict tests of path counts
llvm.func @pick(%c: i1) -> i32 {
  llvm.cond_br %c, ^a, ^b
^a:
  %1 = llvm.mlir.constant(1 : i32) : i32
  llvm.return %1 : i32
^b:
  %2 = llvm.mlir.constant(2 : i32) : i32
  llvm.return %2 : i32
}
