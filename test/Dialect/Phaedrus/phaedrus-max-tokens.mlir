// A trace of a few ops can stand for more tokens than any pass could read:
// the passes that read every token refuse a trace longer than their
// max-tokens (2^30 by default) at once, from its length counted on the IR,
// and leave it as it is.
// RUN: not phaedrus-opt %s --split-input-file --phaedrus-expand 2>&1 | FileCheck %s --check-prefix=EXPAND
// RUN: not phaedrus-opt %s --split-input-file --phaedrus-fold-repeats 2>&1 | FileCheck %s --check-prefix=FOLD
// RUN: not phaedrus-opt %s --split-input-file --phaedrus-call-groups 2>&1 | FileCheck %s --check-prefix=GROUPS
// RUN: not phaedrus-opt %s --split-input-file --phaedrus-compress 2>&1 | FileCheck %s --check-prefix=GROUPS
// A smaller limit: @short (5 tokens) is within 5, @long (11) is not (the
// pass stops there).
// RUN: not phaedrus-opt %s --split-input-file --phaedrus-fold-repeats=max-tokens=11 2>&1 | FileCheck %s --check-prefix=FOLD11
// RUN: not phaedrus-opt %s --split-input-file --phaedrus-compress=max-tokens=5 2>&1 | FileCheck %s --check-prefix=COMPRESS5

// EXPAND: error: 'phaedrus.trace' op expands to 4000000000001 tokens, more than max-tokens=1073741824; left compressed
// FOLD: error: 'phaedrus.trace' op expands to 4000000000001 tokens, more than max-tokens=1073741824; left as it is (folding reads every token)
// GROUPS: error: 'phaedrus.trace' op expands to 4000000000001 tokens, more than max-tokens=1073741824; left as it is (folding reads every token twice)
// FOLD11: error: 'phaedrus.trace' op expands to 4000000000001 tokens, more than max-tokens=11; left as it is (folding reads every token)
// COMPRESS5: error: 'phaedrus.trace' op expands to 11 tokens, more than max-tokens=5; left as it is (folding reads every token twice)

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 call_site @main[0] -> @a
  phaedrus.entry 2 function @a
  phaedrus.entry 3 call_site @main[1] -> @a
  phaedrus.entry 4 group @main[0] members [1, 3]
}
phaedrus.trace @short vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<[0, 1, 2, 3, 2]> : tensor<5xi32>
}
phaedrus.trace @long vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 5 {
    phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
  }
}
phaedrus.trace @huge vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<0> : tensor<1xi32>
  phaedrus.repeat 1000000000000 {
    phaedrus.repeat 4 {
      phaedrus.tokens dense<1> : tensor<1xi32>
    }
  }
}

// -----
// A length past 2^64 - 1 is said so (it saturates).
// RUN: not phaedrus-opt %s --split-input-file --phaedrus-expand 2>&1 | FileCheck %s --check-prefix=SATURATED
// SATURATED: error: 'phaedrus.trace' op expands to 2^64 - 1 or more tokens, more than max-tokens=1073741824; left compressed

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.repeat 9223372036854775807 {
    phaedrus.repeat 4 {
      phaedrus.tokens dense<0> : tensor<1xi32>
    }
  }
}
