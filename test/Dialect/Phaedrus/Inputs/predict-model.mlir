// A direct-count model of predict-program.mlir, written by hand: with the
// descriptor token argc=0 it predicts 10 entries of f0, without it 0; f1 is
// always entered twice (expm1(2.397895) = 10, expm1(1.098612) = 2).
phaedrus.vocabulary @phaedrus_vocabulary fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @model mlp vocabulary(@phaedrus_vocabulary) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0", "stdin=none"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, validation_loss = 0.25 : f64})
    weights({"hidden.weight" = dense<[[1.0, 0.0]]> : tensor<1x2xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<[[2.397895], [0.0]]> : tensor<2x1xf32>,
             "output.bias" = dense<[0.0, 1.098612]> : tensor<2xf32>})
