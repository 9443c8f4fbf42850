// RUN: phaedrus-opt %s --phaedrus-trace-profile -o /dev/null 2>&1 | FileCheck %s
// A function- and a path-granularity recording of one run, given together:
// the entries would count the run twice against the weights of one. (About
// the whole module: said at its file, line 0.)
// CHECK: phaedrus-trace-profile-mixed.mlir:0:0: warning: phaedrus-trace-profile: the traces mix function- and path-granularity recordings: their entry counts are summed, but only the path traces weigh branches
module {
phaedrus.vocabulary @fn fingerprint(12061135125163621291) {
  phaedrus.entry 0 function @main
}
phaedrus.vocabulary @paths fingerprint(12061135125163621291) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 path @main[0]
}
phaedrus.trace @f vocabulary(@fn) fingerprint(12061135125163621291) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
}
phaedrus.trace @p vocabulary(@paths) fingerprint(12061135125163621291) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<[0, 1]> : tensor<2xi32>
}
llvm.func @main() {
  llvm.return
}
}
