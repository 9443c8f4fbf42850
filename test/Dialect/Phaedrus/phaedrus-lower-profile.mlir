// RUN: phaedrus-opt %s --phaedrus-lower-profile=repair-flow=false | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-lower-profile="keep-annotations repair-flow=false" | FileCheck %s --check-prefix=KEEP
// RUN: phaedrus-opt %s --phaedrus-lower-profile=emit-summary=false | FileCheck %s --check-prefix=NOSUM
// LLVM must accept the summary: after translation, LLVM's own
// ProfileSummaryInfo classifies the functions by their counts.
// RUN: phaedrus-opt %s --phaedrus-lower-profile | mlir-translate --mlir-to-llvmir \
// RUN:   | opt -passes=print-profile-summary -disable-output 2>&1 | FileCheck %s --check-prefix=PSI

// Existing module flags are kept; the summary is added to them.
// CHECK: llvm.module_flags [#llvm.mlir.module_flag<max, "PIC Level", 2 : i32>, #llvm.mlir.module_flag<error, "ProfileSummary", #llvm.profile_summary<format = InstrProf, total_count = 10000001001, max_count = 5000000000, max_internal_count = 4999999940, max_function_count = 5000000000, num_counts = 7, num_functions = 3, detailed_summary = <cut_off = 10000, min_count = 5000000000, num_counts = 1>
// CHECK-SAME: <cut_off = 990000, min_count = 4999999940, num_counts = 2>
// CHECK-SAME: <cut_off = 999999, min_count = 4999999940, num_counts = 2>>>]
// NOSUM-NOT: ProfileSummary
llvm.module_flags [#llvm.mlir.module_flag<max, "PIC Level", 2 : i32>]

// CHECK-LABEL: llvm.func @hot
// CHECK-SAME: function_entry_count = 5000000000 : i64
// CHECK-NOT: phaedrus.entry_count
// KEEP-LABEL: llvm.func @hot
// KEEP-SAME: phaedrus.entry_count = #phaedrus.entry_count<5000000000, measured, confidence = 1.0>
// PSI: hot :hot entry
llvm.func @hot(%c: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<5000000000, measured, confidence = 1.0>} {
  // Weights beyond 32 bits are scaled proportionally: 4999999940 / 2 and 60 / 2.
  // CHECK: llvm.cond_br %{{.*}} weights([-1794967326, 30]), ^bb1, ^bb2
  // CHECK-NOT: phaedrus.branch_weights
  // KEEP: phaedrus.branch_weights
  llvm.cond_br %c, ^bb1, ^bb2 {phaedrus.branch_weights = #phaedrus.branch_weights<[4999999940, 60], measured, confidence = 1.0>}
^bb1:
  llvm.return
^bb2:
  llvm.return
}

// CHECK-LABEL: llvm.func @cold
// CHECK-SAME: function_entry_count = 0 : i64
// PSI: cold :cold entry
llvm.func @cold() attributes {phaedrus.entry_count = #phaedrus.entry_count<0, model, confidence = 0.7>} {
  llvm.return
}

// CHECK-LABEL: llvm.func @warm
// CHECK-SAME: function_entry_count = 1000 : i64
llvm.func @warm(%v: i32) attributes {phaedrus.entry_count = #phaedrus.entry_count<1000, model, confidence = 0.7>} {
  // CHECK: llvm.switch %{{.*}} : i32, ^bb1 [
  // CHECK: ] {branch_weights = array<i32: 1, 0>}
  llvm.switch %v : i32, ^bb1 [
    1: ^bb2
  ] {phaedrus.branch_weights = #phaedrus.branch_weights<[1, 0], static, confidence = 0.5>}
^bb1:
  llvm.return
^bb2:
  llvm.return
}

// A function without a profile is left alone.
// CHECK-LABEL: llvm.func @unknown()
// CHECK-NOT: function_entry_count
llvm.func @unknown() {
  llvm.return
}
