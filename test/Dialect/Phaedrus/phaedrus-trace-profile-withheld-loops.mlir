// RUN: phaedrus-opt %s --phaedrus-trace-profile --verify-diagnostics | FileCheck %s
// @two is entered once and runs two loops. The first calls @a 100000
// times, and its call-site count fixes that loop's branch. The second
// calls @b 5000 times (above 1,024 times the entry count), and a diamond in
// its body stays open: LLVM would estimate that loop from the entry count
// of 1. Every call that ran that often must sit in a weighed loop, not
// just the busiest (a reviewer's repro): @two is left without a count,
// named by its call of @b.
phaedrus.vocabulary @v fingerprint(4443667949087709320) {
  phaedrus.entry 0 function @two
  phaedrus.entry 1 call_site @two[0] -> @a
  phaedrus.entry 2 call_site @two[1] -> @b
}
phaedrus.trace @t vocabulary(@v) fingerprint(4443667949087709320) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 100000 { phaedrus.tokens dense<1> : tensor<1xi32> }
  phaedrus.repeat 5000 { phaedrus.tokens dense<2> : tensor<1xi32> }
}
llvm.func internal @a() {
  llvm.return
}
llvm.func internal @b() {
  llvm.return
}
// CHECK-LABEL: llvm.func @two(
// CHECK-NOT: phaedrus.entry_count
// CHECK-SAME: {
// expected-remark @below {{phaedrus-trace-profile: @two is left without an entry count: it is entered 1 times, but a call in it ran 5000 times}}
llvm.func @two(%n: i64, %m: i64, %c: i1) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^h1(%zero : i64)
^h1(%i: i64):
  %more1 = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more1, ^b1, ^pre2
^b1:
  llvm.call @a() : () -> ()
  %i2 = llvm.add %i, %one : i64
  llvm.br ^h1(%i2 : i64)
^pre2:
  llvm.br ^h2(%zero : i64)
^h2(%j: i64):
  %more2 = llvm.icmp "slt" %j, %m : i64
  llvm.cond_br %more2, ^b2, ^exit
^b2:
  llvm.cond_br %c, ^l, ^r
^l:
  llvm.br ^latch
^r:
  llvm.br ^latch
^latch:
  llvm.call @b() : () -> ()
  %j2 = llvm.add %j, %one : i64
  llvm.br ^h2(%j2 : i64)
^exit:
  llvm.return
}
