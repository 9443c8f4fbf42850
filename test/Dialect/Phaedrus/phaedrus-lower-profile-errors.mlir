// RUN: phaedrus-opt %s --split-input-file --allow-unregistered-dialect --phaedrus-lower-profile --verify-diagnostics

// Only llvm.func carries an LLVM entry count.
// expected-error @below {{'func.func' op has 'phaedrus.entry_count', but only llvm.func can carry an LLVM entry count; convert to the LLVM dialect first}}
func.func @f() attributes {phaedrus.entry_count = #phaedrus.entry_count<3, measured, confidence = 1.0>} {
  return
}

// -----

// expected-error @below {{entry count 18446744073709551615 does not fit in LLVM's signed 64-bit field}}
llvm.func @g() attributes {phaedrus.entry_count = #phaedrus.entry_count<18446744073709551615, measured, confidence = 1.0>} {
  llvm.return
}

// -----

llvm.func @h(%p: !llvm.ptr) {
  // A terminator with successors that LLVM gives no branch weights.
  // expected-error @below {{'test.branch' op has 'phaedrus.branch_weights', but does not take branch weights}}
  "test.branch"()[^bb1, ^bb2] {phaedrus.branch_weights = #phaedrus.branch_weights<[1, 2], measured, confidence = 1.0>} : () -> ()
^bb1:
  llvm.return
^bb2:
  llvm.return
}

// -----

// Counts are checked before flow repair, which computes in signed 64 bits.
llvm.func @w(%c: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<10, measured, confidence = 1.0>} {
  // expected-error @below {{branch weights total more than LLVM's signed 64-bit counts hold}}
  llvm.cond_br %c, ^a, ^b {phaedrus.branch_weights = #phaedrus.branch_weights<[9223372036854775808, 3], measured, confidence = 1.0>}
^a:
  llvm.return
^b:
  llvm.return
}

// -----

llvm.func @wsum(%c: i1) {
  // expected-error @below {{branch weights total more than LLVM's signed 64-bit counts hold}}
  llvm.cond_br %c, ^a, ^b {phaedrus.branch_weights = #phaedrus.branch_weights<[9223372036854775807, 1], measured, confidence = 1.0>}
^a:
  llvm.return
^b:
  llvm.return
}
