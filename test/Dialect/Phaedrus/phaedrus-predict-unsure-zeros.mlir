// A blend that gives a function 0 entries where another training run entered
// it says what the blend's runs do, not what every input does: the function
// is left without an entry count (LLVM optimises it as without a profile),
// not compiled as cold. The blend here is all "a" (softmax of 20 against 0):
// @f2, which only "b" entered, is left without a count; @f3, which no run
// entered, keeps its 0.
// RUN: phaedrus-opt %s --phaedrus-predict --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s
// CHECK: remark: phaedrus-predict: 1 function that the prediction never enters, but training runs did, is left without an entry count (LLVM optimises them as without a profile, not as cold): @f2
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<50, model
// CHECK-LABEL: llvm.func @f1()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<50, model
// CHECK-LABEL: llvm.func @f2()
// CHECK-NOT: phaedrus.entry_count
// CHECK-SAME: {
// CHECK-LABEL: llvm.func @f3()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<0, model
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.return
}
llvm.func @f2() {
  llvm.return
}
llvm.func @f3() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(2636324621186140891) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
  phaedrus.entry 2 function @f2
  phaedrus.entry 3 function @f3
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(2636324621186140891) vocab_size(4)
    descriptors(["argc=0"]) runs(["a", "b"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64})
    weights({"hidden.weight" = dense<[[20.0], [0.0]]> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<[[50.0, 50.0], [50.0, 0.0], [0.0, 50.0], [0.0, 0.0]]> : tensor<4x2xf32>,
             "output.bias" = dense<0.0> : tensor<4xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)
