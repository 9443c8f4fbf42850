// A blend of runs that disagree on a function's paths is a mean that none of
// them has: the function gets its entry count but no branch weights, LLVM
// estimating them (Lua's numeric.lua blended three scripts whose interpreter
// loops run other opcodes, 0.56 apart, and its predicted build ran 0.92x as
// fast as no profile). Here the two runs disagree by 0.5: kept at the
// default (at most 0.5), left out below it.
// RUN: phaedrus-opt %S/Inputs/predict-paths-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-paths-model.mlir input={#phaedrus.input<argv = ["p"]>}' --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=KEPT --implicit-check-not="disagree on"
// KEPT: remark: the prediction blends the training runs left 0.50, right 0.50
// KEPT: llvm.func @pick
// KEPT-SAME: phaedrus.entry_count = #phaedrus.entry_count<10, model
// KEPT: llvm.cond_br
// KEPT-SAME: phaedrus.branch_weights = #phaedrus.branch_weights<[5, 5], model

// RUN: phaedrus-opt %S/Inputs/predict-paths-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-paths-model.mlir input={#phaedrus.input<argv = ["p"]>} max-shape-disagreement=0.4' --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=LEFT
// LEFT: remark: the runs the prediction blends disagree on the paths of 1 function (1.00 of the blend's paths), which get no branch weights (LLVM estimates them; max-shape-disagreement=0.40): @pick (0.50)
// LEFT: llvm.func @pick
// LEFT-SAME: phaedrus.entry_count = #phaedrus.entry_count<10, model
// LEFT-NOT: phaedrus.branch_weights

// A negative distance would leave out every function's weights.
// RUN: not phaedrus-opt %S/Inputs/predict-paths-program.mlir '--phaedrus-predict=model-file=%S/Inputs/predict-paths-model.mlir input={#phaedrus.input<argv = ["p"]>} max-shape-disagreement=-0.1' 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: phaedrus-predict: max-shape-disagreement must be 0 or more (a distance from 0 to 1; 1 keeps every function's branch weights), got -0.10
