// Blocks longer than max-period fold by the long-period rule (a hash of the
// last 4 items names the distance to their previous occurrence), up to
// long-period items; long-period=0, or a block longer than it, leaves them
// as tokens. Folding stays lossless either way.
// RUN: phaedrus-opt %s --phaedrus-fold-repeats | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-fold-repeats=long-period=0 | FileCheck %s --check-prefix=OFF
// RUN: phaedrus-opt %s --phaedrus-fold-repeats=long-period=11 | FileCheck %s --check-prefix=OFF
// RUN: phaedrus-opt %s --phaedrus-fold-repeats=long-period=12 | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-fold-repeats --phaedrus-expand | FileCheck %s --check-prefix=FLAT

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 function @f1
  phaedrus.entry 2 function @f2
  phaedrus.entry 3 function @f3
  phaedrus.entry 4 function @f4
  phaedrus.entry 5 function @f5
  phaedrus.entry 6 function @f6
  phaedrus.entry 7 function @f7
  phaedrus.entry 8 function @f8
  phaedrus.entry 9 function @f9
  phaedrus.entry 10 function @f10
  phaedrus.entry 11 function @f11
  phaedrus.entry 12 function @f12
}
// A loop whose iteration calls 12 functions, 4 times, between main's entries.
// CHECK-LABEL: phaedrus.trace @t
// CHECK-NEXT: phaedrus.tokens dense<0> : tensor<1xi32>
// CHECK-NEXT: phaedrus.repeat 4 {
// CHECK-NEXT:   phaedrus.tokens dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]> : tensor<12xi32>
// CHECK-NEXT: }
// CHECK-NEXT: phaedrus.tokens dense<0> : tensor<1xi32>
// CHECK-NEXT: }
// OFF-LABEL: phaedrus.trace @t
// OFF-NEXT: phaedrus.tokens dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, {{.*}}, 11, 12, 0]> : tensor<50xi32>
// OFF-NEXT: }
// FLAT: phaedrus.tokens dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0]> : tensor<50xi32>
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 4 {
    phaedrus.tokens dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]> : tensor<12xi32>
  }
  phaedrus.tokens dense<0> : tensor<1xi32>
}
