// RUN: phaedrus-opt %s '--phaedrus-predict=seed=1' --verify-diagnostics

// An lstm whose logits overflow (weights of 3e38, near the largest float)
// gives NaN probabilities: refused, where it once wrote a confidence of NaN that
// its own verifier forbids and the written IR could not be read back.
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
phaedrus.model @m lstm vocabulary(@v) fingerprint(16334456020999947734) vocab_size(2)
    descriptors(["argc=0", "stdin=none"])
    hyperparameters({featurizer = 6 : i64, num_specials = 5 : i64, num_buckets = 161 : i64, buckets_per_octave = 4 : i64,
                     hidden_size = 2 : i64, embedding_dim = 2 : i64, num_layers = 1 : i64})
    weights({"embedding.weight" = dense<3.0e38> : tensor<170x2xf32>, "output.weight" = dense<3.0e38> : tensor<170x2xf32>, "output.bias" = dense<3.0e38> : tensor<170xf32>, "lstm.weight_ih_l0" = dense<3.0e38> : tensor<8x2xf32>, "lstm.weight_hh_l0" = dense<3.0e38> : tensor<8x2xf32>, "lstm.bias_ih_l0" = dense<3.0e38> : tensor<8xf32>, "lstm.bias_hh_l0" = dense<3.0e38> : tensor<8xf32>})
// expected-error @below {{prediction failed: the model's probability of token id}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)
