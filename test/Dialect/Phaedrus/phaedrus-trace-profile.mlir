// RUN: phaedrus-opt %s --split-input-file --phaedrus-trace-profile --verify-diagnostics | FileCheck %s
// RUN: phaedrus-opt %s --split-input-file --phaedrus-trace-profile=trace=t1 --verify-diagnostics | FileCheck %s --check-prefix=ONE
// RUN: phaedrus-opt %s --split-input-file --phaedrus-measured-profile --verify-diagnostics | FileCheck %s --check-prefix=PIPE

phaedrus.vocabulary @v fingerprint(1495988591382249315) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 call_site @main[0] -> @work
  phaedrus.entry 2 function @work
  phaedrus.entry 3 function @never
  phaedrus.entry 4 path @work[1]
}
phaedrus.grammar @g vocabulary(@v) {
  phaedrus.rule @r {
    phaedrus.tokens dense<[1, 4]> : tensor<2xi32>
  }
}
// Counts come from the compressed form: 1 + 1000 * (1 + 2) entries of @work
// in @t0 (call-site and function tokens both enter it), 7 in @t1.
phaedrus.trace @t0 vocabulary(@v) fingerprint(1495988591382249315) input(#phaedrus.input<argv = ["p", "big"]>) grammar(@g) {
  phaedrus.tokens dense<[0, 2]> : tensor<2xi32>
  phaedrus.repeat 1000 {
    phaedrus.apply @r
    phaedrus.repeat 2 {
      phaedrus.tokens dense<2> : tensor<1xi32>
    }
  }
}
phaedrus.trace @t1 vocabulary(@v) fingerprint(1495988591382249315) input(#phaedrus.input<argv = ["p", "small"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 7 {
    phaedrus.tokens dense<1> : tensor<1xi32>
  }
}

// CHECK-LABEL: llvm.func @main()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<2, measured, confidence = 1.0>
// ONE-LABEL: llvm.func @main()
// ONE-SAME: phaedrus.entry_count = #phaedrus.entry_count<1, measured, confidence = 1.0>
// PIPE-LABEL: llvm.func @main()
// PIPE-SAME: function_entry_count = 2 : i64
llvm.func @main() {
  llvm.return
}
// Ball-Larus path 1 of @work is the false edge (path 0 the true one): the
// 1000 uses of @r took it 1000 times.
// CHECK-LABEL: llvm.func @work(
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<3008, measured, confidence = 1.0>
// CHECK: llvm.cond_br %{{.*}}, ^bb1, ^bb2 {phaedrus.branch_weights = #phaedrus.branch_weights<[0, 1000], measured, confidence = 1.0>}
// ONE-LABEL: llvm.func @work(
// ONE-SAME: phaedrus.entry_count = #phaedrus.entry_count<7, measured, confidence = 1.0>
// ONE-NOT: branch_weights
// This trace is not a flow: @work is entered 3008 times but left by a
// recorded path only 1000 times (as when a longjmp cuts paths). Measured
// counts are lowered as recorded: no repair knows where the other 2008
// went (until 2026-11-28 the weights grew to [0, 3008]; LLVM reads the
// same probabilities from both).
// PIPE-LABEL: llvm.func @work(
// PIPE-SAME: function_entry_count = 3008 : i64
// PIPE: llvm.cond_br %{{.*}} weights([0, 1000])
llvm.func @work(%c: i1) {
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  llvm.return
^bb2:
  llvm.return
}
// Known to the vocabulary but never entered: measured cold.
// CHECK-LABEL: llvm.func @never()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<0, measured, confidence = 1.0>
llvm.func @never() {
  llvm.return
}
// Not in the vocabulary: left alone.
// CHECK-LABEL: llvm.func @other()
// CHECK-NOT: phaedrus.entry_count
// CHECK: llvm.return
llvm.func @other() {
  llvm.return
}

// -----

// Path counts of another program: @f has two paths, not five.
phaedrus.vocabulary @v fingerprint(3443235740115402880) {
  phaedrus.entry 0 function @f
  phaedrus.entry 1 path @f[4]
}
// expected-error @below {{'phaedrus.trace' op counts path 4 of @f, which has no such Ball-Larus path in this module}}
phaedrus.trace @t1 vocabulary(@v) fingerprint(3443235740115402880) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<[0, 1]> : tensor<2xi32>
}
llvm.func @f(%c: i1) {
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  llvm.return
^bb2:
  llvm.return
}

// -----

// Path counts of a function the module does not define.
phaedrus.vocabulary @v fingerprint(17734213882470113104) {
  phaedrus.entry 0 function @gone
  phaedrus.entry 1 path @gone[1]
}
// expected-error @below {{'phaedrus.trace' op counts paths of @gone, which this module does not define}}
phaedrus.trace @t1 vocabulary(@v) fingerprint(17734213882470113104) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<[0, 1]> : tensor<2xi32>
}
llvm.func @f() {
  llvm.return
}

// -----

// A trace in the module is of this program's build, as a trace file must be:
// one of another build (fingerprint 5) would attach its counts wherever its
// ids happen to exist here.
phaedrus.vocabulary @v fingerprint(5) {
  phaedrus.entry 0 function @f
}
// expected-error @below {{phaedrus-trace-profile: trace @t1 was recorded from a different build of the program (its fingerprint is 5, this module's is}}
phaedrus.trace @t1 vocabulary(@v) fingerprint(5) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
}
llvm.func @f() {
  llvm.return
}
