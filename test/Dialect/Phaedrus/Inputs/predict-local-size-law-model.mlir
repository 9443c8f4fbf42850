// A retrieval model of predict-program.mlir with the local size law, written
// by hand: two runs weighed alike and alike to each other (pair weight 1),
// "a" of 2^10 events on 2^3 bytes and "b" of 2^12 on 2^5, whose corpus
// found no exponent (size_exponent 0). Their pair's slope, 2/2, shrunk by
// the prior: (1 * 4 + 0.5 * 0) / (4 + 0.5) = 0.889.
phaedrus.vocabulary @phaedrus_vocabulary fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @model mlp vocabulary(@phaedrus_vocabulary) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0"]) runs(["a", "b"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64,
                     size_exponent = 0.0 : f64, size_local_prior = 0.5 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<[[1.0, 0.0], [0.0, 3.0]]> : tensor<2x2xf32>,
             "output.bias" = dense<0.0> : tensor<2xf32>,
             "runs.log2_total" = dense<[10.0, 12.0]> : tensor<2xf32>,
             "runs.log2_size" = dense<[3.0, 5.0]> : tensor<2xf32>,
             "runs.pair_weight" = dense<[[0.0, 1.0], [1.0, 0.0]]> : tensor<2x2xf32>})
