// RUN: phaedrus-opt %s --phaedrus-grammar | FileCheck %s
// Lossless: expanding the grammar-compressed traces gives the originals.
// RUN: phaedrus-opt %s --phaedrus-expand | FileCheck %s --check-prefix=FLAT
// RUN: phaedrus-opt %s --phaedrus-grammar --phaedrus-expand | FileCheck %s --check-prefix=FLAT
// RUN: not phaedrus-opt %s --phaedrus-grammar=min-count=1 2>&1 | FileCheck %s --check-prefix=MIN
// MIN: error: phaedrus-grammar: min-count must be at least 2

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
  phaedrus.entry 1 function @b
  phaedrus.entry 2 function @c
  phaedrus.entry 3 function @d
  phaedrus.entry 4 function @e
}

// One grammar per vocabulary, shared by its traces; equal repeats are one
// symbol, so (1, repeat) pairs become a rule too.
// CHECK-LABEL: phaedrus.grammar @v_grammar vocabulary(@v) {
// CHECK: phaedrus.rule @r0 {
// CHECK: phaedrus.rule @r1 {
// CHECK: phaedrus.trace @t0 {{.*}} grammar(@v_grammar) {
// CHECK-NOT: phaedrus.tokens dense<[1, 2, 3
// CHECK: phaedrus.apply
// CHECK: phaedrus.trace @t1 {{.*}} grammar(@v_grammar) {
// CHECK: phaedrus.apply
// FLAT-LABEL: phaedrus.trace @t0
// FLAT-NEXT: phaedrus.tokens dense<[1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 1, 4, 4, 1, 4, 4, 1, 4, 4]> : tensor<19xi32>
// FLAT-LABEL: phaedrus.trace @t1
// FLAT-NEXT: phaedrus.tokens dense<[0, 1, 2, 3, 1, 2, 3, 1, 2, 3]> : tensor<10xi32>
phaedrus.trace @t0 vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p", "x"]>) {
  phaedrus.tokens dense<[1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 1]> : tensor<11xi32>
  phaedrus.repeat 2 {
    phaedrus.tokens dense<4> : tensor<1xi32>
  }
  phaedrus.tokens dense<1> : tensor<1xi32>
  phaedrus.repeat 2 {
    phaedrus.tokens dense<4> : tensor<1xi32>
  }
  phaedrus.tokens dense<1> : tensor<1xi32>
  phaedrus.repeat 2 {
    phaedrus.tokens dense<4> : tensor<1xi32>
  }
}
phaedrus.trace @t1 vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p", "y"]>) {
  phaedrus.tokens dense<[0, 1, 2, 3, 1, 2, 3, 1, 2, 3]> : tensor<10xi32>
}

// A trace that already has a grammar is left alone.
// CHECK-LABEL: phaedrus.trace @done
// CHECK-NEXT: phaedrus.apply @x
phaedrus.grammar @old vocabulary(@v) {
  phaedrus.rule @x {
    phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
  }
}
phaedrus.trace @done vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) grammar(@old) {
  phaedrus.apply @x
}
