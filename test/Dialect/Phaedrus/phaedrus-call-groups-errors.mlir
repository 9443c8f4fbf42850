// RUN: phaedrus-opt %s --split-input-file --verify-diagnostics --phaedrus-expand
// RUN: not phaedrus-opt %s --split-input-file --phaedrus-call-groups=max-period=0 2>&1 | FileCheck %s --check-prefix=PERIOD

// Group entries that do not describe one group cannot be expanded: a
// shorter entry must be a prefix of the longest with the same first member.
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 call_site @main[0] -> @a
  phaedrus.entry 2 call_site @main[1] -> @b
  phaedrus.entry 3 call_site @main[2] -> @c
  phaedrus.entry 4 group @main[0] members [1, 2, 3]
  // expected-error @below {{is not a valid call group: its members are not a prefix of the group of the same first call site}}
  phaedrus.entry 5 group @main[0] members [1, 3]
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<[0, 4]> : tensor<2xi32>
}

// -----

// A call site in two groups.
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 call_site @main[0] -> @a
  phaedrus.entry 2 call_site @main[1] -> @b
  phaedrus.entry 3 call_site @main[2] -> @c
  phaedrus.entry 4 group @main[0] members [1, 2]
  // expected-error @below {{is not a valid call group: call site 2 is in two groups}}
  phaedrus.entry 5 group @main[1] members [3, 2]
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.tokens dense<[0, 4]> : tensor<2xi32>
}

// PERIOD: error: phaedrus-call-groups: max-period must be at least 1
