//===- Passes.td - phaedrus prediction pass ---------------*- tablegen -*-===//
//
// The pass that runs a trained model (lib/Inference, oneDNN). It has a
// library of its own, PhaedrusPredict, so that a tool linking the other
// passes (PhaedrusTransforms) does not link oneDNN.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_PREDICT_PASSES_TD
#define PHAEDRUS_DIALECT_PHAEDRUS_PREDICT_PASSES_TD

include "mlir/Pass/PassBase.td"

def PhaedrusPredictPass : Pass<"phaedrus-predict", "::mlir::ModuleOp"> {
  let summary = "Predict the profile of an unseen input with a trained model (oneDNN)";
  let description = [{
    Evaluates every `phaedrus.predict` op of the module: the input
    featurizer turns the op's `#phaedrus.input` (argv, standard input; files
    resolved against `input-dir`) into descriptor tokens, lib/Inference runs
    the model with oneDNN (an `lstm` generates the run's profile sequence,
    greedily or with `seed`; an `mlp` predicts log counts directly, a
    retrieval model (an `mlp` with `output_counts = 1`) counts), and the
    predicted count of each vocabulary token becomes
    `#phaedrus.entry_count<N, model, confidence = c>` on every function the
    vocabulary names (0 for functions the prediction never enters), but for
    functions whose predicted calls say the entry count would mislead LLVM,
    as `phaedrus-trace-profile` leaves them. The predict op is erased. (A
    blending model's count of 0 for a function that another training run
    entered stays 0, compiled as cold: leaving it without a count, as
    "optimise it as without a profile", was tried on 2026-11-27 and made
    Lua's numeric.lua 0.95-0.97x as fast as no profile, where the zeros
    give 1.01x (21 interleaved rounds by CPU time, twice); on a gawk
    user's unseen AWK program it changed nothing measurable.)

    `model-file` names a model written by `phaedrus train` (a module holding
    a `phaedrus.vocabulary` and a `phaedrus.model`): both are copied into the
    module first. `input` adds a predict op for that descriptor (the text of
    a `#phaedrus.input` attribute) using the file's model. A model whose
    fingerprint is not this program's is refused (it was trained on another
    build), and so is a model whose training runs another featurizer
    version described (docs/Featurizer.md). Descriptor tokens the model
    never saw are left out and reported: those of the command line and of a
    file's shape as a warning, a file's words and trigram buckets (which
    every new input has of its own) as a remark.

    Predicted path counts (a path-granularity model) become branch weights
    as measured ones do, but for the functions whose blended runs disagree
    on their paths (a blending model): the disagreement of a function is
    the mean, over the runs weighted by what each brings to the blend in
    that function, of the total variation distance between the run's
    shares of the function's paths and the blend's. Above
    `max-shape-disagreement` (default 0.5: a run shares less than half of
    its paths with the blend) the blend is a mean that none of its runs
    has, which lays the function out for no input: the function keeps its
    entry count and gets no branch weights, LLVM estimating them, and a
    remark names it. Lua's `numeric.lua` blended three scripts whose
    interpreter loops run other opcodes (`luaV_execute`, 0.56 apart), and
    its predicted build ran 0.92x as fast as no profile; with that
    function's weights left out, 1.08x [1.02, 1.10] (`bench pgo`, CPU time;
    eval's overlap with the oracle falls from 0.46 to 0.24, as the weights
    left out count as none there). In the blends of
    the other held-out inputs of `bench pgo` (objects, bzip2's text-1 and
    repetitive-9) no function passes 0.5 (`luaV_execute` in objects' blend:
    0.007).

    Before:

    ```mlir
    phaedrus.vocabulary @v fingerprint(...) { ... }
    phaedrus.model @m lstm vocabulary(@v) fingerprint(...) ...
    phaedrus.predict @m input(#phaedrus.input<argv = ["bzip2", "-9"], stdin = "big.txt">)
    llvm.func @BZ2_compressBlock(...)
    ```

    After:

    ```mlir
    llvm.func @BZ2_compressBlock(...) attributes {
        phaedrus.entry_count = #phaedrus.entry_count<181, model, confidence = 0.93>}
    ```
  }];
  let options = [
    Option<"modelFile", "model-file", "std::string", "\"\"",
           "Copy the vocabulary and model of this file (from phaedrus train) "
           "into the module">,
    Option<"input", "input", "std::string", "\"\"",
           "Predict for this #phaedrus.input<...> descriptor with the model "
           "of model-file">,
    Option<"inputDir", "input-dir", "std::string", "\"\"",
           "Directory the predicted run starts in: relative input paths "
           "resolve against it (default: the current directory)">,
    Option<"seed", "seed", "int64_t", "-1",
           "Sample the generated profile with this seed (default -1: greedy)">,
    Option<"temperature", "temperature", "double", "1.0",
           "Softmax temperature when sampling (default: 1.0)">,
    Option<"maxShapeDisagreement", "max-shape-disagreement", "double", "0.5",
           "A blending model: leave out the branch weights of a function "
           "whose blended runs disagree on its paths by more than this (the "
           "blend-weighted mean total variation distance of each run's "
           "path shares from the blend's, 0 to 1; 1 keeps every function's) (default: 0.5)">
  ];
  let statistics = [
    Statistic<"numPredictions", "predictions", "Number of predict ops evaluated">,
    Statistic<"numFunctionsUnweighted", "functions-unweighted",
              "Number of functions whose branch weights were left out: their "
              "blended runs disagree on their paths">,
    Statistic<"numFunctionsAnnotated", "functions-annotated",
              "Number of functions given an entry count">,
    Statistic<"numBranchesAnnotated", "branches-annotated",
              "Number of branches given weights from predicted path or call-site counts">
  ];
  let dependentDialects = ["::mlir::phaedrus::PhaedrusDialect"];
}

#endif // PHAEDRUS_DIALECT_PHAEDRUS_PREDICT_PASSES_TD
