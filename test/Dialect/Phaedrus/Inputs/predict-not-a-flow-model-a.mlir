phaedrus.vocabulary @phaedrus_vocabulary fingerprint(2896353622374963647) {
  phaedrus.entry 0 function @f
  phaedrus.entry 1 function @p
  phaedrus.entry 2 function @q
  phaedrus.entry 3 function @r
  phaedrus.entry 4 function @t
  phaedrus.entry 5 call_site @f[0] -> @p
  phaedrus.entry 6 call_site @f[1] -> @q
  phaedrus.entry 7 call_site @f[2] -> @r
  phaedrus.entry 8 call_site @f[3] -> @t
}
phaedrus.model @model mlp vocabulary(@phaedrus_vocabulary) fingerprint(2896353622374963647) vocab_size(9)
    descriptors(["argc=0"]) runs(["one", "two"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, hidden_softmax = 1 : i64, output_counts = 1 : i64})
    weights({"hidden.weight" = dense<0.0> : tensor<2x1xf32>, "hidden.bias" = dense<0.0> : tensor<2xf32>,
             "output.weight" = dense<[[10.0, 10.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [6.0, 6.0], [6.0, 6.0], [3.0, 3.0], [1.0, 1.0]]> : tensor<9x2xf32>,
             "output.bias" = dense<0.0> : tensor<9xf32>})
