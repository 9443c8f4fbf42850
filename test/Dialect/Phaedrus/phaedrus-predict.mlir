// RUN: phaedrus-opt %s --split-input-file --phaedrus-predict --verify-diagnostics | FileCheck %s

// A model in the module: counts from the model for every function its
// vocabulary names, with provenance model; the predict op is consumed.
// confidence = exp(-validation_loss) for a direct-count model.
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<10, model, confidence = 0.7788007830714049>
// CHECK-LABEL: llvm.func @f1()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<2, model, confidence = 0.7788007830714049>
// CHECK-NOT: phaedrus.predict
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.call @f0() : () -> ()
  llvm.return
}
phaedrus.vocabulary @v fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0", "stdin=none"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, validation_loss = 0.25 : f64})
    weights({"hidden.weight" = dense<[[1.0, 0.0]]> : tensor<1x2xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<[[2.397895], [0.0]]> : tensor<2x1xf32>,
             "output.bias" = dense<[0.0, 1.098612]> : tensor<2xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// Descriptor tokens the model never saw are named in a warning and left
// out: without argc=0 the model predicts no entry of f0.
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<0, model
// CHECK-LABEL: llvm.func @f1()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<2, model
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.call @f0() : () -> ()
  llvm.return
}
phaedrus.vocabulary @v fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0", "stdin=none"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64})
    weights({"hidden.weight" = dense<[[1.0, 0.0]]> : tensor<1x2xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<[[2.397895], [0.0]]> : tensor<2x1xf32>,
             "output.bias" = dense<[0.0, 1.098612]> : tensor<2xf32>})
// expected-warning @below {{4 of 5 descriptor tokens (of the command line, and of input files' size, kind, entropy and lines) were never seen in training and are left out: argc=2, opt=-9, opt=num3, operand1=#caca3794}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p", "-9", "x y"]>)

// -----

// A model trained on runs that another featurizer version described is
// refused: its descriptor tokens mean other things (here version 2, whose
// descriptors numbered every argument, arg1=-9, where version 3 sorts the
// options apart from the operands, opt=-9).
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 2 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
                     buckets_per_octave = 4 : i64, hidden_size = 1 : i64})
    weights({"hidden.weight" = dense<[[1.0]]> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<[[1.0]]> : tensor<1x1xf32>, "output.bias" = dense<[0.0]> : tensor<1xf32>})
// expected-error @below {{'phaedrus.predict' op uses model @m, trained on runs described by featurizer version 2; this build describes inputs as version 6 (docs/Featurizer.md): record the training runs again ('phaedrus run'; the traces are not what is stale, the descriptions next to them are), then 'phaedrus corpus' and 'phaedrus train'}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// The version may be written as a float (hyper-parameters are integers or
// floats); 3.0 is this build's.
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<{{[0-9]+}}, model
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6.0 : f64, num_specials = 5 : i64, num_buckets = 161 : i64,
                     buckets_per_octave = 4 : i64, hidden_size = 1 : i64})
    weights({"hidden.weight" = dense<[[1.0]]> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<[[1.0]]> : tensor<1x1xf32>, "output.bias" = dense<[0.0]> : tensor<1xf32>})
// expected-warning @below {{1 of 2 descriptor tokens (of the command line, and of input files' size, kind, entropy and lines) were never seen in training and are left out: stdin=none}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A model without the version (written before models recorded it) is of
// version 1.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({num_specials = 5 : i64, num_buckets = 161 : i64,
                     buckets_per_octave = 4 : i64, hidden_size = 1 : i64})
    weights({"hidden.weight" = dense<[[1.0]]> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<[[1.0]]> : tensor<1x1xf32>, "output.bias" = dense<[0.0]> : tensor<1xf32>})
// expected-error @below {{trained on runs described by featurizer version 1; this build describes inputs as version 6}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A model of another build of the program is refused.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(7) {
  phaedrus.entry 0 function @f0
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(7) vocab_size(1)
    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 1 : i64}) weights({})
// expected-error @below {{uses model @m, trained on another build of the program (its fingerprint is 7, this module's is}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A model whose weights do not fit its hyper-parameters cannot be run.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: weight 'hidden.weight' has shape [1x1], expected [4x1]}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 4 : i64})
    weights({"hidden.weight" = dense<1.0> : tensor<1x1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// The input of the run must exist as described.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 1 : i64}) weights({})
// expected-error @below {{cannot describe its input: standard input 'no/such/file' is not a regular file}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"], stdin = "no/such/file">)

// -----

// Weights must be f32, as lib/Inference computes in f32.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{weight 'hidden.bias' must hold f32 values, got 'f64'}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 1 : i64})
    weights({"hidden.bias" = dense<0.0> : tensor<1xf64>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A hand-edited model whose weight is a sparse literal: the verifier takes
// any floating-point elements, the model only dense ones.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{weight 'hidden.bias' is neither a dense_resource blob nor a dense literal}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 1 : i64})
    weights({"hidden.bias" = sparse<[[0]], [1.0]> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// Hyper-parameters the kind needs must be there.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: the model has no hyper-parameter 'embedding_dim'}}
phaedrus.model @m lstm vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 1 : i64}) weights({})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A retrieval model (hidden_softmax = 1, output_counts = 1) that names its
// training runs: the prediction says which runs it blends, heaviest first,
// the runs below 5% summed. Scores 2, 0, -2 weigh the runs 0.87, 0.12 and
// 0.02; the counts are the blend of their profiles (f0: 10 * 0.87).
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<9, model
// CHECK-LABEL: llvm.func @f1()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<2, model
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.call @f0() : () -> ()
  llvm.return
}
phaedrus.vocabulary @v fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0", "stdin=none"]) runs(["text-9", "small-9", "random-1"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 3 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64})
    weights({"hidden.weight" = dense<[[2.0, 0.0], [0.0, 0.0], [-2.0, 0.0]]> : tensor<3x2xf32>,
             "hidden.bias" = dense<0.0> : tensor<3xf32>,
             "output.weight" = dense<[[10.0, 0.0, 0.0], [0.0, 20.0, 0.0]]> : tensor<2x3xf32>,
             "output.bias" = dense<0.0> : tensor<2xf32>})
// expected-remark @below {{the prediction blends the training runs text-9 0.87, small-9 0.12 and 1 more below 0.05 each (0.02 together)}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// The blend floor (hyper-parameter blend_floor): runs weighing less than
// that share of the heaviest run's weight (0.05 * 0.87) are left out and
// the rest scaled to sum to 1 (0.87 / 0.98 = 0.88). f1 ran only
// in random-1 (weight 0.02): without the floor it would get 100 * 0.02 = 2
// calls and not be cold; with it, none.
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<9, model
// CHECK-LABEL: llvm.func @f1()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<0, model
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.call @f0() : () -> ()
  llvm.return
}
phaedrus.vocabulary @v fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0", "stdin=none"]) runs(["text-9", "small-9", "random-1"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 3 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, blend_floor = 0.05 : f64})
    weights({"hidden.weight" = dense<[[2.0, 0.0], [0.0, 0.0], [-2.0, 0.0]]> : tensor<3x2xf32>,
             "hidden.bias" = dense<0.0> : tensor<3xf32>,
             "output.weight" = dense<[[10.0, 0.0, 0.0], [0.0, 0.0, 100.0]]> : tensor<2x3xf32>,
             "output.bias" = dense<0.0> : tensor<2xf32>})
// expected-remark @below {{the prediction blends the training runs text-9 0.88, small-9 0.12, leaving out 1 run below the blend floor (0.05 of the heaviest run's weight)}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A high floor keeps the heaviest run alone.
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<10, model
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.call @f0() : () -> ()
  llvm.return
}
phaedrus.vocabulary @v fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0", "stdin=none"]) runs(["text-9", "small-9", "random-1"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 3 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, blend_floor = 0.9 : f64})
    weights({"hidden.weight" = dense<[[2.0, 0.0], [0.0, 0.0], [-2.0, 0.0]]> : tensor<3x2xf32>,
             "hidden.bias" = dense<0.0> : tensor<3xf32>,
             "output.weight" = dense<[[10.0, 0.0, 0.0], [0.0, 0.0, 100.0]]> : tensor<2x3xf32>,
             "output.bias" = dense<0.0> : tensor<2xf32>})
// expected-remark @below {{the prediction blends the training runs text-9 1.00, leaving out 2 runs below the blend floor (0.9 of the heaviest run's weight)}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// An lstm blends no runs: a floor is refused, not ignored.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: hyper-parameter 'blend_floor' is 0.01, but the model does not blend runs (hidden_softmax is not 1)}}
phaedrus.model @m lstm vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 1 : i64, blend_floor = 0.01 : f64}) weights({})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A floor is a share below 1.
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.call @f0() : () -> ()
  llvm.return
}
phaedrus.vocabulary @v fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
// expected-error @below {{cannot be run: hyper-parameter 'blend_floor' is 1, expected a share in [0, 1)}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0", "stdin=none"]) runs(["text-9", "small-9", "random-1"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 3 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, blend_floor = 1.0 : f64})
    weights({"hidden.weight" = dense<[[2.0, 0.0], [0.0, 0.0], [-2.0, 0.0]]> : tensor<3x2xf32>,
             "hidden.bias" = dense<0.0> : tensor<3xf32>,
             "output.weight" = dense<[[10.0, 0.0, 0.0], [0.0, 0.0, 100.0]]> : tensor<2x3xf32>,
             "output.bias" = dense<0.0> : tensor<2xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// Only a model that blends runs has a floor.
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.call @f0() : () -> ()
  llvm.return
}
phaedrus.vocabulary @v fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
// expected-error @below {{cannot be run: hyper-parameter 'blend_floor' is 0.01, but the model does not blend runs (hidden_softmax is not 1)}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0", "stdin=none"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 3 : i64, hidden_softmax = 0 : i64, output_counts = 1 : i64, blend_floor = 0.01 : f64})
    weights({"hidden.weight" = dense<[[2.0, 0.0], [0.0, 0.0], [-2.0, 0.0]]> : tensor<3x2xf32>,
             "hidden.bias" = dense<0.0> : tensor<3xf32>,
             "output.weight" = dense<[[10.0, 0.0, 0.0], [0.0, 0.0, 100.0]]> : tensor<2x3xf32>,
             "output.bias" = dense<0.0> : tensor<2xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// Hand-edited hyper-parameters out of their range: a hidden layer of no
// units, a flag that is neither 0 nor 1.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: hyper-parameter 'hidden_size' is 0.000000, expected an integer >= 1}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 0 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<1.0> : tensor<1x2xf32>, "output.bias" = dense<0.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: hyper-parameter 'hidden_softmax' is 2.000000, expected 0 or 1}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 2 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<1.0> : tensor<1x2xf32>, "output.bias" = dense<0.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// Training runs named by a model whose hidden units are not a blend of
// runs (no softmax): the names would mean nothing.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: the model names 2 training runs, but it does not blend runs (hidden_softmax is not 1)}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) runs(["a", "b"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 0 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<1.0> : tensor<1x2xf32>, "output.bias" = dense<0.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A model that names more or fewer runs than it has hidden units cannot be
// run: the names would be those of other units.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: the model names 1 training runs for its 2 hidden units (one run each)}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) runs(["text-9"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<1.0> : tensor<1x2xf32>, "output.bias" = dense<0.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A retrieval model with a size law (runs.log2_total, runs.log2_size,
// size_exponent): the mixture keeps its shape, its total is the blend's
// geometric mean of the runs' totals, 2^(0.5 * 10 + 0.5 * 8) = 512 (the
// arithmetic mean would be 640), scaled by no size here (the run reads no
// file): f0 gets 0.5 / 2 of it, f1 1.5 / 2.
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<128, model
// CHECK-LABEL: llvm.func @f1()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<384, model
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.call @f0() : () -> ()
  llvm.return
}
phaedrus.vocabulary @v fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0"]) runs(["big", "small"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, size_exponent = 1.0 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<[[1.0, 0.0], [0.0, 3.0]]> : tensor<2x2xf32>,
             "output.bias" = dense<0.0> : tensor<2xf32>,
             "runs.log2_total" = dense<[10.0, 8.0]> : tensor<2xf32>,
             "runs.log2_size" = dense<[20.5, -1.0]> : tensor<2xf32>})
// expected-remark @below {{the prediction blends the training runs big 0.50, small 0.50, scaled to 512 events}}
// expected-warning @below {{1 of 2 descriptor tokens (of the command line, and of input files' size, kind, entropy and lines) were never seen in training and are left out: stdin=none}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// The size law's parts must all be there, and only in a model that blends
// runs' counts.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: the model has no hyper-parameter 'size_exponent' (its weights 'runs.log2_*' need it)}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<0.0> : tensor<1xf32>,
             "runs.log2_total" = dense<10.0> : tensor<1xf32>, "runs.log2_size" = dense<-1.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: the model has no weight 'runs.log2_size'}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, size_exponent = 1.0 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<0.0> : tensor<1xf32>,
             "runs.log2_total" = dense<10.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: the model scales the totals of training runs (weights 'runs.log2_*'), but it does not blend runs' counts (hidden_softmax and output_counts are not both 1)}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, size_exponent = 1.0 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<0.0> : tensor<1xf32>,
             "runs.log2_total" = dense<10.0> : tensor<1xf32>, "runs.log2_size" = dense<-1.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: hyper-parameter 'size_exponent' is 5.000000, expected 0 to 4}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, size_exponent = 5.0 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<0.0> : tensor<1xf32>,
             "runs.log2_total" = dense<10.0> : tensor<1xf32>, "runs.log2_size" = dense<-1.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: weight 'runs.log2_total' holds 100.000000, expected a log2 of at most 64}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, size_exponent = 1.0 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<0.0> : tensor<1xf32>,
             "runs.log2_total" = dense<100.0> : tensor<1xf32>, "runs.log2_size" = dense<-1.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A token whose count was the same in every training run (tokens.fixed_count,
// -1 for the others) keeps it: f0 gets its 1, f1 the rest of the law's 512.
// CHECK-LABEL: llvm.func @f0()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1, model
// CHECK-LABEL: llvm.func @f1()
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<511, model
llvm.func @f0() {
  llvm.return
}
llvm.func @f1() {
  llvm.call @f0() : () -> ()
  llvm.return
}
phaedrus.vocabulary @v fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0", "stdin=none"]) runs(["big", "small"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, size_exponent = 1.0 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x2xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<[[1.0, 0.0], [0.0, 3.0]]> : tensor<2x2xf32>,
             "output.bias" = dense<0.0> : tensor<2xf32>,
             "runs.log2_total" = dense<[10.0, 8.0]> : tensor<2xf32>,
             "runs.log2_size" = dense<[20.5, -1.0]> : tensor<2xf32>,
             "tokens.fixed_count" = dense<[1.0, -1.0]> : tensor<2xf32>})
// expected-remark @below {{the prediction blends the training runs big 0.50, small 0.50, scaled to 512 events}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: the model fixes token counts (weight 'tokens.fixed_count') but has no size law (weights 'runs.log2_*')}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<0.0> : tensor<1xf32>,
             "tokens.fixed_count" = dense<1.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: weight 'tokens.fixed_count' holds -2.000000, expected a count or -1}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, size_exponent = 1.0 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<0.0> : tensor<1xf32>,
             "runs.log2_total" = dense<10.0> : tensor<1xf32>, "runs.log2_size" = dense<-1.0> : tensor<1xf32>,
             "tokens.fixed_count" = dense<-2.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: weight 'tokens.fixed_count' has shape [2], expected [1]}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, size_exponent = 1.0 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<0.0> : tensor<1xf32>,
             "runs.log2_total" = dense<10.0> : tensor<1xf32>, "runs.log2_size" = dense<-1.0> : tensor<1xf32>,
             "tokens.fixed_count" = dense<1.0> : tensor<2xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// An mlp predicts from the run's descriptor: one without descriptor tokens
// is refused before oneDNN sees a zero-sized layer.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: the model has no descriptor tokens: an mlp predicts from the run's descriptor, and needs at least one}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors([]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 1 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x0xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<1.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A NaN weight would predict a count of 0 (never entered, a cold mark).
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: weight 'output.bias' holds nan at element 0: a model's weights must be finite}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 1 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<0x7FC00000> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// Finite weights whose output overflows: no count of 2^64 - 1 in silence.
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 1 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<1.0e3> : tensor<1xf32>})
// expected-warning @below {{never seen in training}}
// expected-error @below {{prediction failed: the model predicts inf events for token 0, more than a 64-bit count holds: its weights overflow}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

// A hyper-parameter of NaN (the confidence comes from validation_loss).
llvm.func @f0() {
  llvm.return
}
phaedrus.vocabulary @v fingerprint(229832147292157202) {
  phaedrus.entry 0 function @f0
}
// expected-error @below {{cannot be run: hyper-parameter 'validation_loss' is nan, expected a finite number}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(229832147292157202) vocab_size(1)
    descriptors(["argc=0"]) hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64,
    buckets_per_octave = 4 : i64, hidden_size = 1 : i64, validation_loss = 0x7FF8000000000000 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<1x1xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<1.0> : tensor<1x1xf32>, "output.bias" = dense<1.0> : tensor<1xf32>})
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)
