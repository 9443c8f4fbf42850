// A retrieval model's size law scales the run that read a file by the new
// input's size: a 1000-byte standard input (size bucket 9, taken as 2^9.5
// bytes) halves "big"'s 2^10 events to 2^9.5; "small", without a file, keeps
// its 2^8. Total 0.5 * 724.08 + 0.5 * 256 = 490.04, shared 1:3 by f0 and f1.
// RUN: head -c 1000 /dev/zero > %t.in
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-size-law-model.mlir input={#phaedrus.input<argv = ["p"], stdin = "%t.in">}' 2>&1 | FileCheck %s
// CHECK: remark: the prediction blends the training runs big 0.50, small 0.50, scaled to 490 events for an input of 2^9.5 bytes
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<123, model
// CHECK-LABEL: llvm.func @f1()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<368, model

// A run without an input file blends the runs' totals as they are:
// 0.5 * 1024 + 0.5 * 256 = 640.
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-size-law-model.mlir input={#phaedrus.input<argv = ["p"]>}' 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: remark: the prediction blends the training runs big 0.50, small 0.50, scaled to 640 events{{$}}
// NOFILE-LABEL: llvm.func @f0()
// NOFILE-SAME: phaedrus.entry_count = #phaedrus.entry_count<160, model
