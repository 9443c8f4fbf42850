// Like test/Dialect/Phaedrus/Inputs/predict-paths-model.mlir: two runs call
// @pick 10 times each, "left" always along path 0 (calling @leaf), "right"
// along path 1; every input blends them half and half: they disagree on
// @pick's paths by 0.5.
phaedrus.vocabulary @phaedrus_vocabulary fingerprint(15968581217852892890) {
  phaedrus.entry 0 function @leaf
  phaedrus.entry 1 function @pick
  phaedrus.entry 2 call_site @pick[0] -> @leaf
  phaedrus.entry 3 path @pick[0]
  phaedrus.entry 4 path @pick[1]
}
phaedrus.model @model mlp vocabulary(@phaedrus_vocabulary) fingerprint(15968581217852892890) vocab_size(5)
    descriptors(["argc=0"]) runs(["left", "right"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<[[0.0, 0.0], [10.0, 10.0], [10.0, 0.0], [10.0, 0.0], [0.0, 10.0]]> : tensor<5x2xf32>,
             "output.bias" = dense<0.0> : tensor<5xf32>})
