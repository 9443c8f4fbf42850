// RUN: phaedrus-opt %s --phaedrus-fold-repeats | FileCheck %s
// Folding is lossless: expanding the folded trace gives the original tokens.
// RUN: phaedrus-opt %s --phaedrus-expand | FileCheck %s --check-prefix=FLAT
// RUN: phaedrus-opt %s --phaedrus-fold-repeats --phaedrus-expand | FileCheck %s --check-prefix=FLAT
// RUN: phaedrus-opt %s --phaedrus-fold-repeats=max-period=1 | FileCheck %s --check-prefix=P1
// RUN: not phaedrus-opt %s --phaedrus-fold-repeats=max-period=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: phaedrus-fold-repeats: max-period must be at least 1
// Repeats that stand for fewer than 4 tokens are written as their tokens:
// the inner `repeat 2` (2 tokens) goes, the outer repeat (9 tokens) stays.
// RUN: phaedrus-opt %s --phaedrus-fold-repeats=min-repeat-tokens=4 | FileCheck %s --check-prefix=MIN
// RUN: phaedrus-opt %s --phaedrus-fold-repeats=min-repeat-tokens=4 --phaedrus-expand | FileCheck %s --check-prefix=FLAT
// MIN-LABEL: phaedrus.trace @t
// MIN-NEXT: phaedrus.tokens dense<0> : tensor<1xi32>
// MIN-NEXT: phaedrus.repeat 3 {
// MIN-NEXT:   phaedrus.tokens dense<[1, 2, 2]> : tensor<3xi32>
// MIN-NEXT: }
// MIN-NEXT: phaedrus.tokens dense<1> : tensor<1xi32>
// MIN-NEXT: }
// With 10, no repeat is left.
// RUN: phaedrus-opt %s --phaedrus-fold-repeats=min-repeat-tokens=10 | FileCheck %s --check-prefix=FLAT

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 function @outer
  phaedrus.entry 2 function @inner
}
// A loop whose body holds an inner loop: a repeat of a body with a repeat.
// CHECK-LABEL: phaedrus.trace @t
// CHECK-NEXT: phaedrus.tokens dense<0> : tensor<1xi32>
// CHECK-NEXT: phaedrus.repeat 3 {
// CHECK-NEXT:   phaedrus.tokens dense<1> : tensor<1xi32>
// CHECK-NEXT:   phaedrus.repeat 2 {
// CHECK-NEXT:     phaedrus.tokens dense<2> : tensor<1xi32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: phaedrus.tokens dense<1> : tensor<1xi32>
// CHECK-NEXT: }
// FLAT: phaedrus.tokens dense<[0, 1, 2, 2, 1, 2, 2, 1, 2, 2, 1]> : tensor<11xi32>
// With period 1 only the runs of @inner fold.
// P1: phaedrus.tokens dense<[0, 1]> : tensor<2xi32>
// P1-NEXT: phaedrus.repeat 2 {
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<[0, 1, 2, 2, 1]> : tensor<5xi32>
  phaedrus.repeat 1 {
    phaedrus.tokens dense<[2, 2, 1, 2]> : tensor<4xi32>
  }
  phaedrus.tokens dense<[2, 1]> : tensor<2xi32>
}

