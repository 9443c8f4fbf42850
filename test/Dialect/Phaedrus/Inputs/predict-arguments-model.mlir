// A retrieval model of predict-program.mlir written by hand, whose runs name
// their command lines (run_arguments): "huff" was given -h, "plain" nothing;
// the blend favours "huff" (its bias), whatever the input.
phaedrus.vocabulary @phaedrus_vocabulary fingerprint(16334456020999947734) {
  phaedrus.entry 0 function @f0
  phaedrus.entry 1 function @f1
}
phaedrus.model @model mlp vocabulary(@phaedrus_vocabulary) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0"]) runs(["huff", "plain"])
    run_arguments([["argc=1", "opt=-h"], ["argc=0"]])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<[2.0, 0.0]> : tensor<2xf32>,
             "output.weight" = dense<[[10.0, 0.0], [0.0, 10.0]]> : tensor<2x2xf32>,
             "output.bias" = dense<0.0> : tensor<2xf32>})
