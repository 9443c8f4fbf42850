// RUN: phaedrus-opt %s --phaedrus-lower-profile=emit-summary=false | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-lower-profile="emit-summary=false loop-header-weights=false" | FileCheck %s --check-prefix=OFF
// RUN: phaedrus-opt %s --phaedrus-lower-profile=emit-summary=false --phaedrus-strip \
// RUN:   | phaedrus-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// The headers of irreducible loops get their counts, as LLVM's PGO gives
// them (!irr_loop): here a loop entered at ^p and at ^q, nested in a
// reducible loop (^outer, one header: no weight). ^p runs 4 + 4 = 8 times,
// ^q 6 + 3 = 9.
// CHECK-LABEL: llvm.func @nested(
// CHECK: ^bb1:
// CHECK-NEXT: llvm.cond_br %arg0 weights([10, 1]), ^bb2, ^bb6{{$}}
// CHECK: ^bb3:
// CHECK-NEXT: llvm.cond_br %arg2 weights([3, 5]), ^bb4, ^bb5 {phaedrus.irr_loop_weight = 8 : i64}
// CHECK: ^bb4:
// CHECK-NEXT: llvm.cond_br %arg3 weights([4, 5]), ^bb3, ^bb5 {phaedrus.irr_loop_weight = 9 : i64}
// CHECK: ^bb5:
// CHECK-NEXT: llvm.br ^bb1{{$}}
// OFF-NOT: irr_loop_weight
// LLVM-LABEL: define void @nested(
// LLVM: br i1 %2, {{.*}}, !irr_loop ![[P:[0-9]+]]
// LLVM: br i1 %3, {{.*}}, !irr_loop ![[Q:[0-9]+]]
// LLVM-DAG: ![[P]] = !{!"loop_header_weight", i64 8}
// LLVM-DAG: ![[Q]] = !{!"loop_header_weight", i64 9}
llvm.func @nested(%c: i1, %d: i1, %e: i1, %f: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<1, measured, confidence = 1.0>} {
  llvm.br ^outer
^outer:
  llvm.cond_br %c, ^pre, ^exit {phaedrus.branch_weights = #phaedrus.branch_weights<[10, 1], measured, confidence = 1.0>}
^pre:
  llvm.cond_br %d, ^p, ^q {phaedrus.branch_weights = #phaedrus.branch_weights<[4, 6], measured, confidence = 1.0>}
^p:
  llvm.cond_br %e, ^q, ^latch {phaedrus.branch_weights = #phaedrus.branch_weights<[3, 5], measured, confidence = 1.0>}
^q:
  llvm.cond_br %f, ^p, ^latch {phaedrus.branch_weights = #phaedrus.branch_weights<[4, 5], measured, confidence = 1.0>}
^latch:
  llvm.br ^outer
^exit:
  llvm.return
}

// Reducible loops (one header each, even two nested ones sharing a latch's
// way back) get none.
// CHECK-LABEL: llvm.func @reducible(
// CHECK-NOT: irr_loop_weight
// CHECK-LABEL: llvm.func @entries_only(
llvm.func @reducible(%c: i1, %d: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<2, measured, confidence = 1.0>} {
  llvm.br ^outer
^outer:
  llvm.cond_br %c, ^inner, ^exit {phaedrus.branch_weights = #phaedrus.branch_weights<[5, 2], measured, confidence = 1.0>}
^inner:
  llvm.cond_br %d, ^inner, ^outer {phaedrus.branch_weights = #phaedrus.branch_weights<[20, 5], measured, confidence = 1.0>}
^exit:
  llvm.return
}

// A profile that says only how often the function ran (function
// granularity) does not say how often the headers ran: no weights.
// CHECK-NOT: irr_loop_weight
// CHECK: llvm.return
llvm.func @entries_only(%c: i1, %d: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<3, measured, confidence = 1.0>} {
  llvm.cond_br %c, ^p, ^q
^p:
  llvm.cond_br %d, ^q, ^exit
^q:
  llvm.cond_br %d, ^p, ^exit
^exit:
  llvm.return
}

// A function that never ran gets none, as LLVM's PGO gives no weights to a
// function whose counters are all zero.
// CHECK-LABEL: llvm.func @never_ran(
// CHECK-NOT: irr_loop_weight
// CHECK: llvm.return
llvm.func @never_ran(%c: i1, %d: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<0, measured, confidence = 1.0>} {
  llvm.cond_br %c, ^p, ^q {phaedrus.branch_weights = #phaedrus.branch_weights<[0, 0], measured, confidence = 1.0>}
^p:
  llvm.cond_br %d, ^q, ^exit {phaedrus.branch_weights = #phaedrus.branch_weights<[0, 0], measured, confidence = 1.0>}
^q:
  llvm.cond_br %d, ^p, ^exit {phaedrus.branch_weights = #phaedrus.branch_weights<[0, 0], measured, confidence = 1.0>}
^exit:
  llvm.return
}
