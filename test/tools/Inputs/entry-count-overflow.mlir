// A hand-written trace whose tokens each count 2^64 - 2 and both enter @f
// (its own entry and a call to it): @f's entry count is past 2^64.
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @f
  phaedrus.entry 1 call_site @main[0] -> @f
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) {
  phaedrus.repeat 9223372036854775807 {
    phaedrus.repeat 2 {
      phaedrus.tokens dense<[1, 0]> : tensor<2xi32>
    }
  }
}
