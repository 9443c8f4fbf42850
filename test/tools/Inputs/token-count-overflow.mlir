// A hand-written trace whose nested repeats multiply past 2^64:
// (2^63 - 1) * 3 uses of token 0.
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) {
  phaedrus.repeat 9223372036854775807 {
    phaedrus.repeat 3 {
      phaedrus.tokens dense<0> : tensor<1xi32>
    }
  }
}
