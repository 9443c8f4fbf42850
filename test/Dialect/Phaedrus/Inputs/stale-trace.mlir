// The same trace, recorded from another build of the program.
phaedrus.vocabulary @vocab fingerprint(42) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 function @work
}
phaedrus.trace @old vocabulary(@vocab) fingerprint(42) input(#phaedrus.input<argv = ["prog"]>) {
  phaedrus.tokens dense<[0, 1, 1]> : tensor<3xi32>
}
