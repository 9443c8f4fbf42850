// A blend that weighs runs given other arguments than the input, while a
// training run was given the same ones, gets a warning (two sessions testing
// zlib's minigzip as users got the `-h` run blended for `-9`): the blend
// follows what the inputs hold, not the options.
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-arguments-model.mlir input={#phaedrus.input<argv = ["p"]>}' -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: the prediction blends the training runs huff 0.88, plain 0.12
// CHECK: warning: the prediction weighs runs given other arguments than this input (huff 0.88: argc=1 opt=-h), while the training run plain, given the same ones (argc=0), weighs 0.12 (runs given the same arguments weigh 0.12 together): the blend follows what the inputs hold; where the options decide what the program does, train on runs that vary the options and the data independently (docs/Corpus.md)

// The heaviest run was given the input's arguments: no warning.
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-arguments-model.mlir input={#phaedrus.input<argv = ["p", "-h"]>}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SAME --implicit-check-not="other arguments"
// SAME: remark: the prediction blends the training runs huff 0.88, plain 0.12

// A model without run_arguments (written before 2026-11-26): no warning.
// RUN: sed '/run_arguments/d' %S/Inputs/predict-arguments-model.mlir > %t.old.mlir
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.old.mlir input={#phaedrus.input<argv = ["p"]>}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OLD --implicit-check-not="other arguments"
// OLD: remark: the prediction blends the training runs huff 0.88, plain 0.12
