// A retrieval model of predict-program.mlir whose training runs' totals did
// not follow their inputs' sizes (size_exponent 0), written by hand: two
// runs weighed alike, "tiny" of 2^10 events on an input of 2^3 bytes,
// "nofile" of 2^8 events without an input file.
phaedrus.vocabulary @phaedrus_vocabulary fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @model mlp vocabulary(@phaedrus_vocabulary) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0"]) runs(["tiny", "nofile"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64, size_exponent = 0.0 : f64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<[[1.0, 0.0], [0.0, 3.0]]> : tensor<2x2xf32>,
             "output.bias" = dense<0.0> : tensor<2xf32>,
             "runs.log2_total" = dense<[10.0, 8.0]> : tensor<2xf32>,
             "runs.log2_size" = dense<[3.0, -1.0]> : tensor<2xf32>})
