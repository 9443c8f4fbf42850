// RUN: phaedrus-opt %s --phaedrus-trace-profile --verify-diagnostics | FileCheck %s
// At function granularity, a function entered once whose call ran 5000
// times (an interpreter's loop) would have LLVM estimate its loop from a
// count of 1 (about 32 turns) and compile it as cold, unless branch weights
// around the call say how often the loop turns. @loop's call-site count
// fixes its loop's branch: it keeps its entry count. @branchy's loop has a
// branch no call count fixes: it is left without an entry count.
// @guarded's loop has a branch that never ran (an error check): it needs no
// weights, and @guarded keeps its count. @step, entered 15000 times, whose
// call ran 15000 times, keeps its count, and so does @leaf.
phaedrus.vocabulary @v fingerprint(8033141417470433564) {
  phaedrus.entry 0 function @loop
  phaedrus.entry 1 call_site @loop[0] -> @step
  phaedrus.entry 2 call_site @step[0] -> @leaf
  phaedrus.entry 3 function @branchy
  phaedrus.entry 4 call_site @branchy[0] -> @step
  phaedrus.entry 5 function @guarded
  phaedrus.entry 6 call_site @guarded[0] -> @step
  phaedrus.entry 7 call_site @guarded[1] -> @leaf
}
phaedrus.trace @t vocabulary(@v) fingerprint(8033141417470433564) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 5000 {
    phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
  }
  phaedrus.tokens dense<3> : tensor<1xi32>
  phaedrus.repeat 5000 {
    phaedrus.tokens dense<[4, 2]> : tensor<2xi32>
  }
  phaedrus.tokens dense<5> : tensor<1xi32>
  phaedrus.repeat 5000 {
    phaedrus.tokens dense<[6, 2]> : tensor<2xi32>
  }
}
// CHECK-LABEL: llvm.func @leaf()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<15000, measured
llvm.func @leaf() {
  llvm.return
}
// CHECK-LABEL: llvm.func @step()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<15000, measured
llvm.func @step() {
  llvm.call @leaf() : () -> ()
  llvm.return
}
// CHECK-LABEL: llvm.func @loop(
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1, measured
// CHECK: llvm.cond_br %{{.*}}, ^bb2, ^bb3 {phaedrus.branch_weights = #phaedrus.branch_weights<[5000, 1], measured
llvm.func @loop(%n: i64) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^head(%zero : i64)
^head(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^exit
^body:
  llvm.call @step() : () -> ()
  %next = llvm.add %i, %one : i64
  llvm.br ^head(%next : i64)
^exit:
  llvm.return
}
// CHECK-LABEL: llvm.func @branchy(
// CHECK-NOT: phaedrus.entry_count
// CHECK-SAME: {
// CHECK-NOT: phaedrus.branch_weights
// CHECK: llvm.return
// expected-remark @below {{phaedrus-trace-profile: @branchy is left without an entry count: it is entered 1 times, but a call in it ran 5000 times, and without branch weights around that call LLVM would estimate its blocks from the entry count (about 32 turns a loop) and take its loops for cold; a path-granularity trace gives its branch weights}}
llvm.func @branchy(%n: i64, %c: i1) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^head(%zero : i64)
^head(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^exit
^body:
  llvm.cond_br %c, ^left, ^right
^left:
  llvm.br ^latch
^right:
  llvm.br ^latch
^latch:
  llvm.call @step() : () -> ()
  %next = llvm.add %i, %one : i64
  llvm.br ^head(%next : i64)
^exit:
  llvm.return
}
// CHECK-LABEL: llvm.func @guarded(
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1, measured
// CHECK: llvm.cond_br %{{.*}}, ^bb2, ^bb5 {phaedrus.branch_weights = #phaedrus.branch_weights<[5000, 1], measured
// CHECK: llvm.cond_br %{{.*}}, ^bb3, ^bb4 {phaedrus.branch_weights = #phaedrus.branch_weights<[0, 5000], measured
// CHECK: llvm.cond_br %{{.*}}, ^bb4, ^bb6{{$}}
llvm.func @guarded(%n: i64, %c: i1, %d: i1) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^head(%zero : i64)
^head(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^exit
^body:
  llvm.call @step() : () -> ()
  llvm.cond_br %c, ^rare, ^latch
^rare:
  llvm.call @leaf() : () -> ()
  llvm.cond_br %d, ^latch, ^bail
^latch:
  %next = llvm.add %i, %one : i64
  llvm.br ^head(%next : i64)
^exit:
  llvm.return
^bail:
  llvm.return
}
