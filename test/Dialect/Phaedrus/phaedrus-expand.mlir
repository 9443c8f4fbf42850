// RUN: phaedrus-opt %s --split-input-file --phaedrus-expand | FileCheck %s
// RUN: phaedrus-opt %s --split-input-file --phaedrus-expand=inline-limit=4 | FileCheck %s --check-prefix=BLOB
// RUN: not phaedrus-opt %s --split-input-file --phaedrus-expand=max-tokens=10 2>&1 | FileCheck %s --check-prefix=LIMIT

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 function @a
  phaedrus.entry 2 function @b
}
phaedrus.grammar @g vocabulary(@v) {
  phaedrus.rule @r0 {
    phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
  }
  phaedrus.rule @r1 {
    phaedrus.apply @r0
    phaedrus.repeat 2 {
      phaedrus.tokens dense<2> : tensor<1xi32>
    }
  }
}

// Rules and nested repeats are expanded in order; the grammar goes away
// once no trace uses it.
// CHECK-NOT: phaedrus.grammar
// CHECK-LABEL: phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) {
// CHECK-NEXT: phaedrus.tokens dense<[0, 1, 2, 2, 2, 1, 2, 1, 2, 2, 2, 1, 2, 0]> : tensor<14xi32>
// CHECK-NEXT: }
// BLOB-LABEL: phaedrus.trace @t
// BLOB-NEXT: phaedrus.tokens dense_resource<t_tokens> : tensor<14xi32>
// BLOB: t_tokens: "0x04000000000000000100000002000000020000000200000001000000020000000100000002000000020000000200000001000000020000000000000
// LIMIT: error: 'phaedrus.trace' op expands to 14 tokens, more than max-tokens=10; left compressed
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) grammar(@g) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 2 {
    phaedrus.apply @r1
    phaedrus.apply @r0
  }
  phaedrus.tokens dense<0> : tensor<1xi32>
}

// -----

// An empty trace stays empty; a flat trace is unchanged.
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
}
// CHECK-LABEL: phaedrus.trace @empty
// CHECK-NEXT: }
phaedrus.trace @empty vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) {
}
// CHECK-LABEL: phaedrus.trace @flat
// CHECK-NEXT: phaedrus.tokens dense<0> : tensor<3xi32>
// CHECK-NEXT: }
phaedrus.trace @flat vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) {
  phaedrus.tokens dense<0> : tensor<3xi32>
}
