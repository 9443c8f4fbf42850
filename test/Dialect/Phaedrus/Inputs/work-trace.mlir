// A trace of @main in phaedrus-trace-profile-files.mlir, as
// phaedrus-translate --import-wpp writes it: 5 runs of main, each calling
// work twice (from call sites 0 and 1).
phaedrus.vocabulary @vocab fingerprint(7063083390043834817) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 function @work
  phaedrus.entry 2 call_site @main[0] -> @work
  phaedrus.entry 3 call_site @main[1] -> @work
}
phaedrus.trace @run vocabulary(@vocab) fingerprint(7063083390043834817) input(#phaedrus.input<argv = ["prog"]>) {
  phaedrus.repeat 5 {
    phaedrus.tokens dense<[0, 2, 3]> : tensor<3xi32>
  }
}
