// predict-model.mlir as if trained on another build (fingerprint 42).
phaedrus.vocabulary @phaedrus_vocabulary fingerprint(42) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @model mlp vocabulary(@phaedrus_vocabulary) fingerprint(42) vocab_size(2)
    descriptors(["argc=0", "stdin=none"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 1 : i64, validation_loss = 0.25 : f64})
    weights({"hidden.weight" = dense<[[1.0, 0.0]]> : tensor<1x2xf32>, "hidden.bias" = dense<0.0> : tensor<1xf32>,
             "output.weight" = dense<[[2.397895], [0.0]]> : tensor<2x1xf32>,
             "output.bias" = dense<[0.0, 1.098612]> : tensor<2xf32>})
