// RUN: phaedrus-opt %s --phaedrus-strip | FileCheck %s
// The stripped module is plain LLVM dialect that mlir-translate accepts.
// RUN: phaedrus-opt %s --phaedrus-strip | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// CHECK-NOT: phaedrus
// CHECK: llvm.func @f() attributes {function_entry_count = 3 : i64}
// CHECK-NOT: phaedrus
// LLVM: define void @f() !prof ![[P:[0-9]+]]
// LLVM: ![[P]] = !{!"function_entry_count", i64 3}
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @f
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(1) vocab_size(1) hyperparameters({}) weights({})
phaedrus.predict @m input(#phaedrus.input<argv = []>)
llvm.func @f() attributes {function_entry_count = 3 : i64,
    phaedrus.entry_count = #phaedrus.entry_count<3, measured, confidence = 1.0>} {
  llvm.return
}
