// RUN: phaedrus-opt %s --phaedrus-lower-profile | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-lower-profile=mark-hot-cold=false | FileCheck %s --check-prefix=OFF
// RUN: phaedrus-opt %s --phaedrus-lower-profile | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM
// RUN: phaedrus-opt %s --phaedrus-lower-profile 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN

// As LLVM's PGO instrumentation marks functions when it applies a profile
// (its test func_entry.ll has the same counts): of 9060 calls, @hot's 9000
// are within the 99% cutoff, so it is hot and gets an inline hint; @cold's 10
// are at most the count of the 99.9999% cutoff, so it is cold; @med is
// neither.

// CHECK-LABEL: llvm.func @cold()
// CHECK-SAME: passthrough = ["cold"]
// CHECK-NOT: inline_hint
// OFF-LABEL: llvm.func @cold()
// OFF-NOT: passthrough
// LLVM: define void @cold() #[[COLD:[0-9]+]]
llvm.func @cold() attributes {phaedrus.entry_count = #phaedrus.entry_count<10, measured, confidence = 1.0>} {
  llvm.return
}

// CHECK-LABEL: llvm.func @hot()
// CHECK-SAME: inline_hint
// OFF-LABEL: llvm.func @hot()
// OFF-NOT: inline_hint
// LLVM: define void @hot() #[[HOT:[0-9]+]]
llvm.func @hot() attributes {phaedrus.entry_count = #phaedrus.entry_count<9000, measured, confidence = 1.0>} {
  llvm.return
}

// CHECK-LABEL: llvm.func @med()
// CHECK-NOT: inline_hint
// CHECK-NOT: passthrough
// LLVM: define void @med() !prof
llvm.func @med() attributes {phaedrus.entry_count = #phaedrus.entry_count<50, measured, confidence = 1.0>} {
  llvm.return
}

// A function without a profile is not marked.
// CHECK-LABEL: llvm.func @unknown()
// CHECK-NOT: passthrough
llvm.func @unknown() {
  llvm.return
}

// A function-granularity profile: the entry count, cold, and a loop that
// calls nothing, which the profile does not count. LLVM's PGO would count
// its blocks; this profile cannot say the function is cold (bzip2's
// generateMTFValues, entered once, its loop 1.4M times, was marked cold
// until 2026-11-28).
// CHECK-LABEL: llvm.func @loop_uncounted(
// CHECK-NOT: passthrough
// CHECK: llvm.return
llvm.func @loop_uncounted(%c: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<10, measured, confidence = 1.0>} {
  llvm.br ^header
^header:
  llvm.cond_br %c, ^header, ^exit
^exit:
  llvm.return
}

// The same loop counted (a path-granularity profile): every block's count
// is known and none is above the cold count.
// CHECK-LABEL: llvm.func @loop_counted(
// CHECK-SAME: passthrough = ["cold"]
llvm.func @loop_counted(%c: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<10, measured, confidence = 1.0>} {
  llvm.br ^header
^header:
  llvm.cond_br %c, ^header, ^exit {phaedrus.branch_weights = #phaedrus.branch_weights<[0, 10], measured, confidence = 1.0>}
^exit:
  llvm.return
}

// Never entered, but `hot` in the source: the user's word is kept, and a
// warning says so, as LLVM's PGO does.
// CHECK-LABEL: llvm.func @annotated_hot()
// CHECK-SAME: passthrough = ["hot"]
// WARN: warning: phaedrus-lower-profile: function @annotated_hot is annotated hot, but the profile says it is cold: the annotation is kept, and the function is not marked cold
llvm.func @annotated_hot() attributes {passthrough = ["hot"], phaedrus.entry_count = #phaedrus.entry_count<0, measured, confidence = 1.0>} {
  llvm.return
}

// LLVM-DAG: attributes #[[COLD]] = { cold }
// LLVM-DAG: attributes #[[HOT]] = { inlinehint }
