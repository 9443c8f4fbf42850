// A block with two back edges (to two loop headers): a path that ends there
// does not say which it took. Used by phaedrus-trace-profile-break-edges.test.
llvm.func @two_loops(%n: i32) -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %c3 = llvm.mlir.constant(3 : i32) : i32
  llvm.br ^h1(%c0, %c0 : i32, i32)
^h1(%i1: i32, %s1: i32):
  %s1n = llvm.add %s1, %c1 : i32
  llvm.br ^h2(%i1, %s1n : i32, i32)
^h2(%i: i32, %s: i32):
  %done = llvm.icmp "sge" %i, %n : i32
  llvm.cond_br %done, ^exit(%s : i32), ^body(%i, %s : i32, i32)
^body(%ib: i32, %sb: i32):
  %inext = llvm.add %ib, %c1 : i32
  %r = llvm.urem %inext, %c3 : i32
  %z = llvm.icmp "eq" %r, %c0 : i32
  llvm.cond_br %z, ^h1(%inext, %sb : i32, i32), ^h2(%inext, %sb : i32, i32)
^exit(%res: i32):
  llvm.return %res : i32
}
llvm.func @main() -> i32 {
  %n = llvm.mlir.constant(30 : i32) : i32
  %r = llvm.call @two_loops(%n) : (i32) -> i32
  llvm.return %r : i32
}
