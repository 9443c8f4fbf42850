// RUN: phaedrus-opt %s --phaedrus-static-estimate=entry-count=1000 | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-static-estimate=entry-count=1000 --phaedrus-lower-profile --phaedrus-strip | phaedrus-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// RUN: not phaedrus-opt %s --phaedrus-static-estimate=entry-count=0 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: echo 'module {}' | not phaedrus-opt --phaedrus-static-estimate 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not phaedrus-opt %S/Inputs/static-estimate-func.mlir --phaedrus-static-estimate 2>&1 | FileCheck %s --check-prefix=UNTRANSLATED

// LLVM's static estimate, as a profile: BranchProbabilityInfo's heuristics
// and BlockFrequencyInfo's frequencies, propagated over the call graph.

// Phaedrus IR in the module is left alone (the analyses see a copy
// without it).
// CHECK: phaedrus.vocabulary @v
phaedrus.vocabulary @v fingerprint(5) {
  phaedrus.entry 0 function @main
}

// Called from main's loop: entered as often as the loop body is estimated
// to run (31 times per entry of main, LLVM's loop heuristic).
// CHECK-LABEL: llvm.func @work
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<31000, static, confidence = 0.0>
llvm.func @work(%x: i32) -> i32 {
  llvm.return %x : i32
}

// main is a root: entered entry-count times.
// CHECK-LABEL: llvm.func @main
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1000, static, confidence = 0.0>
llvm.func @main(%n: i32) -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^head(%c0 : i32)
^head(%i: i32):
  %done = llvm.icmp "sge" %i, %n : i32
  // The loop's exit against its back edge: 1 to 31.
  // CHECK: llvm.cond_br {{.*}}phaedrus.branch_weights = #phaedrus.branch_weights<[1000, 31000], static, confidence = 0.0>
  llvm.cond_br %done, ^exit, ^body
^body:
  %r = llvm.call @work(%i) : (i32) -> i32
  %next = llvm.add %i, %c1 : i32
  llvm.br ^head(%next : i32)
^exit:
  %bad = llvm.icmp "slt" %n, %c0 : i32
  // A branch to unreachable code: never taken.
  // CHECK: llvm.cond_br {{.*}}phaedrus.branch_weights = #phaedrus.branch_weights<[0, 1000], static, confidence = 0.0>
  llvm.cond_br %bad, ^trap, ^ok
^trap:
  llvm.unreachable
^ok:
  %f = llvm.mlir.addressof @callback : !llvm.ptr
  llvm.call @register(%f) : (!llvm.ptr) -> ()
  llvm.return %n : i32
}

// Address-taken: its callers are unknown, so it is a root.
// CHECK-LABEL: llvm.func internal @callback
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1000, static, confidence = 0.0>
llvm.func internal @callback() {
  %c3 = llvm.mlir.constant(3 : i32) : i32
  llvm.call @rec(%c3) : (i32) -> ()
  llvm.call @ping(%c3) : (i32) -> ()
  llvm.return
}

// Recursive: entered by its caller; its call to itself is not counted
// again (LLVM's synthetic entry counts do the same).
// CHECK-LABEL: llvm.func internal @rec
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1000, static, confidence = 0.0>
// CHECK: llvm.cond_br {{.*}}phaedrus.branch_weights = #phaedrus.branch_weights<[375, 625], static, confidence = 0.0>
llvm.func internal @rec(%d: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %stop = llvm.icmp "eq" %d, %c0 : i32
  llvm.cond_br %stop, ^done, ^again
^again:
  llvm.call @rec(%d) : (i32) -> ()
  llvm.br ^done
^done:
  llvm.return
}

// Mutual recursion (@ping <-> @pong, called by @callback): the component
// gets its entries from outside first (@ping: 1000 from @callback), then
// its calls within it once (@pong: 1000 x 0.625), then its calls out
// (@leaf: @pong's 625, and not 0 as when @pong was visited before @ping had
// any entries).
// CHECK-LABEL: llvm.func internal @ping
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1000, static
// CHECK-LABEL: llvm.func internal @pong
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<625, static
// CHECK-LABEL: llvm.func internal @leaf
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<625, static
llvm.func internal @ping(%d: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %stop = llvm.icmp "eq" %d, %c0 : i32
  llvm.cond_br %stop, ^done, ^again
^again:
  llvm.call @pong(%d) : (i32) -> ()
  llvm.br ^done
^done:
  llvm.return
}
llvm.func internal @pong(%d: i32) {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %stop = llvm.icmp "eq" %d, %c0 : i32
  llvm.call @leaf() : () -> ()
  llvm.cond_br %stop, ^done, ^again
^again:
  llvm.call @ping(%d) : (i32) -> ()
  llvm.br ^done
^done:
  llvm.return
}
llvm.func internal @leaf() {
  llvm.return
}

// A branch whose two edges enter one block with different arguments: the
// translation adds a block for one of them (LLVM's phis need distinct
// predecessors); the module's blocks still line up, and the callee of the
// joined block gets its count.
// CHECK-LABEL: llvm.func @twice
// CHECK: llvm.cond_br {{.*}}phaedrus.branch_weights = #phaedrus.branch_weights<[375, 625], static
// CHECK-LABEL: llvm.func internal @after_twice
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1000, static
llvm.func @twice(%n: i32) -> i32 {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %b = llvm.icmp "eq" %n, %c0 : i32
  llvm.cond_br %b, ^j(%c0 : i32), ^j(%c1 : i32)
^j(%x: i32):
  llvm.call @after_twice() : () -> ()
  llvm.return %x : i32
}
llvm.func internal @after_twice() {
  llvm.return
}

// A switch without cases (gawk has one) has one successor and nothing to
// weigh: it gets no weights (the dialect refuses them there), and the
// block after it its count.
// CHECK-LABEL: llvm.func @caseless
// CHECK: llvm.switch
// CHECK-NOT: phaedrus.branch_weights
// CHECK-SAME: ^bb1 [
// CHECK-LABEL: llvm.func internal @after_caseless
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1000, static
llvm.func @caseless(%n: i32) {
  llvm.switch %n : i32, ^next [
  ]
^next:
  llvm.call @after_caseless() : () -> ()
  llvm.return
}
llvm.func internal @after_caseless() {
  llvm.return
}

// __builtin_expect(x, 0): lowered to weights before LLVM estimates, as
// clang lowers it (the estimate otherwise says 5 to 3 the other way).
// CHECK-LABEL: llvm.func @expected
// CHECK: llvm.cond_br {{.*}}phaedrus.branch_weights = #phaedrus.branch_weights<[1, 1000], static
llvm.func @expected(%n: i64) -> i64 {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %b = llvm.icmp "sgt" %n, %c1 : i64
  %z = llvm.zext %b : i1 to i64
  %e = llvm.intr.expect %z, %c0 : i64
  %t = llvm.icmp "ne" %e, %c0 : i64
  llvm.cond_br %t, ^a, ^b
^a:
  llvm.return %c1 : i64
^b:
  llvm.return %c0 : i64
}

// An available_externally copy (a header's inline definition, which the
// link drops) is no root and gets no count.
// CHECK-LABEL: llvm.func available_externally @inline_copy
// CHECK-NOT: phaedrus.entry_count
// CHECK: llvm.return
llvm.func available_externally @inline_copy() {
  llvm.return
}

// Internal and never called: 0.
// CHECK-LABEL: llvm.func internal @dead
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<0, static, confidence = 0.0>
llvm.func internal @dead() {
  llvm.return
}

// Declarations get nothing.
// CHECK: llvm.func @register(!llvm.ptr)
// CHECK-NOT: phaedrus.entry_count
llvm.func @register(!llvm.ptr)

// The estimate lowers like any profile: LLVM's entry counts, weights and a
// ProfileSummary.
// LLVM: define i32 @main(i32 %0) {{.*}}!prof ![[MAIN:[0-9]+]]
// LLVM: br i1 %{{.*}}, label %{{.*}}, label %{{.*}}, !prof ![[LOOP:[0-9]+]]
// LLVM: !{i32 1, !"ProfileSummary"
// LLVM: ![[MAIN]] = !{!"function_entry_count", i64 1000}
// LLVM: ![[LOOP]] = !{!"branch_weights", i32 1000, i32 31000}

// ZERO: error: phaedrus-static-estimate: entry-count must be at least 1
// EMPTY: error: phaedrus-static-estimate: the module defines no llvm.func: give it the program (phaedrus ir)
// UNTRANSLATED: error: cannot be converted to LLVM IR: {{.*}}func.func
// UNTRANSLATED: error: phaedrus-static-estimate: the module does not translate to LLVM IR (see the errors above)
