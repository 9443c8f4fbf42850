// A retrieval model of predict-paths-program.mlir written by hand: its two
// runs call @pick 10 times each, "left" always along path 0, "right" along
// path 1; every input blends them half and half. Each run's share of the
// paths is 0.5 from the blend's (total variation distance): they disagree
// by 0.5.
phaedrus.vocabulary @phaedrus_vocabulary fingerprint(12232658169505055543) {
  phaedrus.entry 0 function @pick
  phaedrus.entry 1 path @pick[0]
  phaedrus.entry 2 path @pick[1]
}
phaedrus.model @model mlp vocabulary(@phaedrus_vocabulary) fingerprint(12232658169505055543) vocab_size(3)
    descriptors(["argc=0"]) runs(["left", "right"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<[[10.0, 10.0], [10.0, 0.0], [0.0, 10.0]]> : tensor<3x2xf32>,
             "output.bias" = dense<0.0> : tensor<3xf32>})
