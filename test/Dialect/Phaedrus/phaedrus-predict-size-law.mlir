// A retrieval model's size law scales the run that read a file by the new
// input's size: a 1000-byte standard input (size bucket 9, taken as 2^9.5
// bytes) halves "big"'s 2^10 events to 2^9.5; "small", without a file, keeps
// its 2^8. Total 2^(0.5 * 9.5 + 0.5 * 8) = 430.5 (the blend's geometric mean
// of the scaled totals), shared 1:3 by f0 and f1.
// RUN: head -c 1000 /dev/zero > %t.in
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-size-law-model.mlir input={#phaedrus.input<argv = ["p"], stdin = "%t.in">}' 2>&1 | FileCheck %s
// CHECK: remark: the prediction blends the training runs big 0.50, small 0.50, scaled to 431 events for an input taken as 724 bytes (2^9.5 bytes: each input file counts at the middle of its size's power of two), with totals growing as size^1.00 (the training runs' law){{$}}
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<108, model
// CHECK-LABEL: llvm.func @f1()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<323, model

// A run without an input file blends the runs' totals as they are:
// 2^(0.5 * 10 + 0.5 * 8) = 512.
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-size-law-model.mlir input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: remark: the prediction blends the training runs big 0.50, small 0.50, scaled to 512 events{{$}}
// NOFILE-LABEL: llvm.func @f0()
// NOFILE-SAME: phaedrus.entry_count = #phaedrus.entry_count<128, model

// Without a law of size (size_exponent 0), the blend keeps the runs'
// totals (2^(0.5 * 10 + 0.5 * 8) = 512) whatever the input's size, and a
// blend of runs on inputs far from this one's size (2^9.5 bytes against
// "tiny"'s 2^3; "nofile" read none) gets a warning. An input near the
// blended runs' (8 bytes: 2^3.5) does not.
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-no-size-law-model.mlir input={#phaedrus.input<argv = ["p"], stdin = "%t.in">}' 2>&1 | FileCheck %s --check-prefix=FAR
// FAR: remark: the prediction blends the training runs tiny 0.50, nofile 0.50, scaled to 512 events for an input taken as 724 bytes (2^9.5 bytes: each input file counts at the middle of its size's power of two), at the totals of the runs it blends whatever its size (the training runs' totals did not follow their inputs' sizes){{$}}
// FAR: warning: the runs the prediction blends read inputs about 2^6.5 times smaller than this one (2^9.5 bytes), and the training runs' totals did not follow their inputs' sizes (size_exponent 0): the predicted counts may be far off; a training run on an input of about this size would help
// RUN: head -c 8 /dev/zero > %t.small
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-no-size-law-model.mlir input={#phaedrus.input<argv = ["p"], stdin = "%t.small">}' 2>&1 | FileCheck %s --check-prefix=NEAR --implicit-check-not="warning: the runs"
// NEAR: remark: the prediction blends the training runs tiny 0.50, nofile 0.50, scaled to 512 events for an input taken as 11 bytes (2^3.5 bytes: each input file counts at the middle of its size's power of two), at the totals of the runs it blends whatever its size

// With a law, a blend of runs on inputs far from this one's size is
// extrapolated that far, and says so (the same model, exponent 1).
// RUN: sed 's/size_exponent = 0.0/size_exponent = 1.0/' %S/Inputs/predict-no-size-law-model.mlir > %t.law.mlir
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.law.mlir input={#phaedrus.input<argv = ["p"], stdin = "%t.in">}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXTRAPOLATED
// EXTRAPOLATED: warning: the runs the prediction blends read inputs about 2^6.5 times smaller than this one (2^9.5 bytes), and their totals are extrapolated as size^1.00 that far: the predicted counts may be far off

// The local law fits the exponent over the runs blended (0.889), and
// scales each: 2^(0.5 * (10 + 0.889 * 6.5) + 0.5 * (12 + 0.889 * 4.5)) =
// 60678 (the exponent is 8/9); their inputs are 2^5.5 times smaller.
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-local-size-law-model.mlir input={#phaedrus.input<argv = ["p"], stdin = "%t.in">}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOCAL
// LOCAL: remark: the prediction blends the training runs a 0.50, b 0.50, scaled to 606{{[0-9][0-9]}} events for an input taken as 724 bytes (2^9.5 bytes: each input file counts at the middle of its size's power of two), with totals growing as size^0.89 over the runs it blends
// LOCAL: warning: the runs the prediction blends read inputs about 2^5.5 times smaller than this one (2^9.5 bytes), and their totals are extrapolated as size^0.89 that far
// Runs whose totals are alike (2^10 each) on inputs of other sizes fit an
// exponent of 0, and a far input says so.
// RUN: sed 's/"runs.log2_total" = dense<\[10.0, 12.0\]>/"runs.log2_total" = dense<[10.0, 10.0]>/' %S/Inputs/predict-local-size-law-model.mlir > %t.flat.mlir
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.flat.mlir input={#phaedrus.input<argv = ["p"], stdin = "%t.in">}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLAT
// FLAT: remark: the prediction blends the training runs a 0.50, b 0.50, scaled to 1024 events {{.*}}, with totals growing as size^0.00 over the runs it blends
// FLAT: warning: the runs the prediction blends read inputs about 2^5.5 times smaller than this one (2^9.5 bytes), and the totals of the runs it blends did not follow their inputs' sizes (size exponent 0 over them): the predicted counts may be far off; a training run on an input of about this size would help
// Without the prior, the model file is refused.
// RUN: sed 's/, *size_local_prior = 0.5 : f64//' %S/Inputs/predict-local-size-law-model.mlir > %t.noprior.mlir
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.noprior.mlir input={#phaedrus.input<argv = ["p"]>}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPRIOR
// NOPRIOR: hyper-parameter 'size_local_prior' is missing
// Pair weights are shares of a blend: one outside [0, 1] is refused.
// RUN: sed 's/\[\[0.0, 1.0\], \[1.0, 0.0\]\]/[[0.0, 2.0], [2.0, 0.0]]/' %S/Inputs/predict-local-size-law-model.mlir > %t.badpair.mlir
// RUN: not phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.badpair.mlir input={#phaedrus.input<argv = ["p"]>}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADPAIR
// BADPAIR: weight 'runs.pair_weight' holds 2.000000, expected 0 to 1
