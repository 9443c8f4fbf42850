// Blocks longer than max-period fold by the long-period rule when they
// have 32 items or more and occur three times in a row (a hash of the last
// 4 items names the distance to their previous occurrence), up to
// long-period items; long-period=0, or a block longer than it, leaves them
// as tokens. Folding stays lossless either way.
// RUN: phaedrus-opt %s --phaedrus-fold-repeats | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-fold-repeats=long-period=0 | FileCheck %s --check-prefix=OFF
// RUN: phaedrus-opt %s --phaedrus-fold-repeats=long-period=31 | FileCheck %s --check-prefix=OFF
// RUN: phaedrus-opt %s --phaedrus-fold-repeats=long-period=32 | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-fold-repeats --phaedrus-expand | FileCheck %s --check-prefix=FLAT
// A value that is not a number is refused, as the option parser words it:
// RUN: not phaedrus-opt %s --phaedrus-fold-repeats=long-period=abc 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: for the --long-period option: 'abc' value invalid for uint argument!
// RUN: not phaedrus-translate --import-wpp %s --wpp-long-period=abc 2>&1 | FileCheck %s --check-prefix=BADWPP
// BADWPP: for the --wpp-long-period option: 'abc' value invalid for uint argument!
// Twice in a row is not enough:
// RUN: phaedrus-opt %s --phaedrus-fold-repeats | FileCheck %s --check-prefix=TWICE

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
  phaedrus.entry 13 function @f13
  phaedrus.entry 14 function @f14
  phaedrus.entry 15 function @f15
  phaedrus.entry 16 function @f16
  phaedrus.entry 17 function @f17
  phaedrus.entry 18 function @f18
  phaedrus.entry 19 function @f19
  phaedrus.entry 20 function @f20
  phaedrus.entry 21 function @f21
  phaedrus.entry 22 function @f22
  phaedrus.entry 23 function @f23
  phaedrus.entry 24 function @f24
  phaedrus.entry 25 function @f25
  phaedrus.entry 26 function @f26
  phaedrus.entry 27 function @f27
  phaedrus.entry 28 function @f28
  phaedrus.entry 29 function @f29
  phaedrus.entry 30 function @f30
  phaedrus.entry 31 function @f31
  phaedrus.entry 32 function @f32
}
// A loop whose iteration calls 32 functions, 3 times, between main's entries.
// CHECK-LABEL: phaedrus.trace @t
// CHECK-NEXT: phaedrus.tokens dense<0> : tensor<1xi32>
// CHECK-NEXT: phaedrus.repeat 3 {
// CHECK-NEXT:   phaedrus.tokens dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]> : tensor<32xi32>
// CHECK-NEXT: }
// CHECK-NEXT: phaedrus.tokens dense<0> : tensor<1xi32>
// CHECK-NEXT: }
// OFF-LABEL: phaedrus.trace @t
// OFF-NEXT: phaedrus.tokens dense<[0, 1, 2, {{.*}}, 31, 32, 0]> : tensor<98xi32>
// OFF-NEXT: }
// FLAT: phaedrus.tokens dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 0]> : tensor<98xi32>
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 3 {
    phaedrus.tokens dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]> : tensor<32xi32>
  }
  phaedrus.tokens dense<0> : tensor<1xi32>
}
// TWICE-LABEL: phaedrus.trace @twice
// TWICE-NEXT: phaedrus.tokens dense<[0, 1, 2, {{.*}}, 31, 32, 0]> : tensor<66xi32>
// TWICE-NEXT: }
phaedrus.trace @twice vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 2 {
    phaedrus.tokens dense<[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32]> : tensor<32xi32>
  }
  phaedrus.tokens dense<0> : tensor<1xi32>
}
