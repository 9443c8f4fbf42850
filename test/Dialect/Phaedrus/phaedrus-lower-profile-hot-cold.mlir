// RUN: phaedrus-opt %s --phaedrus-lower-profile | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-lower-profile=mark-hot-cold=false | FileCheck %s --check-prefix=OFF
// RUN: phaedrus-opt %s --phaedrus-lower-profile | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

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

// LLVM-DAG: attributes #[[COLD]] = { cold }
// LLVM-DAG: attributes #[[HOT]] = { inlinehint }
