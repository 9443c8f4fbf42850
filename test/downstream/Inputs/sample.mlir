phaedrus.vocabulary @v fingerprint(5880062342145980134) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 function @leaf
}
phaedrus.trace @t vocabulary(@v) fingerprint(5880062342145980134) input(#phaedrus.input<argv = ["prog"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 41 {
    phaedrus.tokens dense<1> : tensor<1xi32>
  }
}
llvm.func @main() {
  llvm.return
}
llvm.func @leaf() {
  llvm.return
}
