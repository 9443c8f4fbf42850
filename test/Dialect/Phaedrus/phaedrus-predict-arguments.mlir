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

// Numbers given as operands are sizes (a script's count of rounds), not what
// the program does: a run whose number falls in the input's bucket is not
// "given the same arguments" (a Tcl user's held-out script was warned about
// an unrelated training script given a count in its bucket).
// RUN: sed 's/run_arguments(.*)$/run_arguments([["argc=2", "operand1=file", "operand2=num16"], ["argc=2", "operand1=file", "operand2=num15"]])/' %S/Inputs/predict-arguments-model.mlir > %t.numbers.mlir
// RUN: touch %t.script
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.numbers.mlir input={#phaedrus.input<argv = ["p", "%t.script", "40000"]>}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NUMBERS --implicit-check-not="other arguments"
// NUMBERS: remark: the prediction blends the training runs
// ... but an option still counts. (\x6f: lit would take "opt" for its tool.)
// RUN: sed 's/run_arguments(.*)$/run_arguments([["argc=2", "\x6fpt=-x", "operand1=num16"], ["argc=1", "operand1=num15"]])/' %S/Inputs/predict-arguments-model.mlir > %t.options.mlir
// RUN: phaedrus-opt %S/Inputs/predict-program.mlir '--phaedrus-predict=model-file=%t.options.mlir input={#phaedrus.input<argv = ["p", "40000"]>}' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTIONS
// OPTIONS: warning: the prediction weighs runs given other arguments than this input (huff 0.88: argc=2 opt=-x operand1=num16), while the training run plain, given the same ones (argc=1)
