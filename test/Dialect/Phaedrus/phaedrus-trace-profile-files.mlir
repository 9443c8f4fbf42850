// Traces in separate files (as --import-wpp writes them) annotate the program.
// RUN: phaedrus-opt %s --phaedrus-trace-profile=trace-files=%S/Inputs/work-trace.mlir | FileCheck %s
// Two files are summed.
// RUN: phaedrus-opt %s --phaedrus-trace-profile=trace-files=%S/Inputs/work-trace.mlir,%S/Inputs/work-trace.mlir \
// RUN:   | FileCheck %s --check-prefix=TWICE
// A trace recorded from another build is refused, in one line: not with
// the whole trace after it (phaedrus-opt prints the op of a diagnostic only
// when asked).
// RUN: not phaedrus-opt %s --phaedrus-trace-profile=trace-files=%S/Inputs/stale-trace.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STALE --implicit-check-not="see current operation"
// RUN: not phaedrus-opt %s --phaedrus-trace-profile=trace-files=%S/Inputs/stale-trace.mlir \
// RUN:   --mlir-print-op-on-diagnostic=true 2>&1 | FileCheck %s --check-prefix=ASKED
// ASKED: note: see current operation
// RUN: not phaedrus-opt %s --phaedrus-trace-profile=trace-files=%t.missing.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSING
// The instrumented module where the plain one belongs (a user gave
// prog.inst.mlir, and was told the trace came from another build).
// RUN: phaedrus-opt %s --phaedrus-instrument -o %t.inst.mlir
// RUN: not phaedrus-opt %t.inst.mlir --phaedrus-trace-profile=trace-files=%S/Inputs/work-trace.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=INSTRUMENTED
// INSTRUMENTED: error: phaedrus-trace-profile: the program is an instrumented module (it has @__phaedrus_register, which --phaedrus-instrument adds): give the plain module the traces were recorded from (what 'phaedrus ir' wrote, prog.mlir, not prog.inst.mlir)
// INSTRUMENTED-NOT: different build

// CHECK-LABEL: llvm.func @work()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<10, measured, confidence = 1.0>
// CHECK-LABEL: llvm.func @main()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<5, measured, confidence = 1.0>
// TWICE: phaedrus.entry_count<20, measured
// TWICE: phaedrus.entry_count<10, measured
// STALE: stale-trace.mlir:6:1: error: phaedrus-trace-profile: trace @old in '{{.*}}stale-trace.mlir' was recorded from a different build of the program (its fingerprint is 42, this module's is 7063083390043834817)
// MISSING: missing.mlir:0:0: error: phaedrus-trace-profile: cannot read traces from '{{.*}}.missing.mlir': No such file or directory
// MISSING-NOT: error
llvm.func @work() {
  llvm.return
}
llvm.func @main() {
  llvm.call @work() : () -> ()
  llvm.call @work() : () -> ()
  llvm.return
}
