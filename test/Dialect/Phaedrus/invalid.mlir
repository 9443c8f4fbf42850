// RUN: phaedrus-opt %s -split-input-file -verify-diagnostics

//===--- Vocabulary ---===//

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
  // expected-error @below {{id 2 is out of range: the vocabulary has 2 entries, so ids must be 0 to 1}}
  phaedrus.entry 2 function @b
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
  // expected-error @below {{id 0 is defined twice}}
  phaedrus.entry 0 function @b
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
  // expected-error @below {{id 1 stands for the same thing as id 0}}
  phaedrus.entry 1 function @a
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  // expected-error @below {{is not allowed in a vocabulary; only 'phaedrus.entry' is}}
  phaedrus.predict @m input(#phaedrus.input<argv = []>)
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  // expected-error @below {{a 'function' entry takes neither an index nor a callee}}
  phaedrus.entry 0 function @a[1]
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  // expected-error @below {{a 'call_site' entry needs a call-site index and a callee}}
  phaedrus.entry 0 call_site @a[1]
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  // expected-error @below {{a 'path' entry needs a path index and no callee}}
  phaedrus.entry 0 path @a
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  // expected-error @below {{a 'group' entry needs a group index, 2 to 255 members and no callee}}
  phaedrus.entry 0 group @a[0] -> @b
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 call_site @a[0] -> @b
  // expected-error @below {{a 'group' entry needs a group index, 2 to 255 members and no callee}}
  phaedrus.entry 1 group @a[0] members [0]
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 call_site @a[0] -> @b
  // expected-error @below {{a 'group' entry needs a group index, 2 to 255 members and no callee}}
  phaedrus.entry 1 group @a[0] members [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  // expected-error @below {{only a 'group' entry has members}}
  phaedrus.entry 0 call_site @a[0] -> @b members [0, 0]
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 call_site @a[0] -> @b
  // expected-error @below {{member 2 is not a call site of @a}}
  phaedrus.entry 1 group @a[0] members [0, 2]
  phaedrus.entry 2 call_site @c[0] -> @b
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 call_site @a[0] -> @b
  // expected-error @below {{member 7 is not a call site of @a}}
  phaedrus.entry 1 group @a[0] members [0, 7]
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  // expected-error @below {{attribute 'id' failed to satisfy constraint: 64-bit signless integer attribute whose value is non-negative}}
  phaedrus.entry -1 function @a
}

// -----

// expected-error @below {{'phaedrus.entry' op expects parent op 'phaedrus.vocabulary'}}
phaedrus.entry 0 function @a

//===--- Traces ---===//

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{refers to unknown vocabulary @nope}}
phaedrus.trace @t vocabulary(@nope) fingerprint(1) input(#phaedrus.input<argv = []>) {
}

// -----

llvm.func @g()
// expected-error @below {{refers to @g, which is not a vocabulary}}
phaedrus.trace @t vocabulary(@g) fingerprint(1) input(#phaedrus.input<argv = []>) {
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{fingerprint 2 does not match the fingerprint 1 of vocabulary @v; it was made for a different build of the program}}
phaedrus.trace @t vocabulary(@v) fingerprint(2) input(#phaedrus.input<argv = []>) {
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) {
  // expected-error @below {{token 1 at position 2 is not an id of vocabulary @v (ids are 0 to 0)}}
  phaedrus.tokens dense<[0, 0, 1]> : tensor<3xi32>
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) {
  phaedrus.repeat 2 {
    // expected-error @below {{token -3 at position 0 is not an id of vocabulary @v}}
    phaedrus.tokens dense<-3> : tensor<1xi32>
  }
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) {
  // expected-error @below {{tokens must be a one-dimensional i32 elements attribute, got 'tensor<2x1xi32>'}}
  phaedrus.tokens dense<0> : tensor<2x1xi32>
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) {
  // expected-error @below {{tokens must be a one-dimensional i32 elements attribute, got 'tensor<1xi64>'}}
  phaedrus.tokens dense<0> : tensor<1xi64>
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) {
  // expected-error @below {{tokens have no data (a dense_resource blob that is missing or was released)}}
  phaedrus.tokens dense_resource<missing> : tensor<4xi32>
}

// -----

// expected-error @below {{'phaedrus.tokens' op expects parent op to be one of 'phaedrus.trace, phaedrus.repeat, phaedrus.rule'}}
phaedrus.tokens dense<0> : tensor<1xi32>

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) {
  // expected-error @below {{attribute 'count' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  phaedrus.repeat 0 {
    phaedrus.tokens dense<0> : tensor<1xi32>
  }
}

// -----

// expected-error @below {{argv element 1 must be a string, got 3 : i64}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p", 3]>)

// -----

// expected-error @below {{locale: 'TZ' is not a locale variable (one of LC_ALL, LC_CTYPE, LC_COLLATE, LC_MESSAGES, LC_NUMERIC, LC_TIME, LC_MONETARY, LANG, LANGUAGE)}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"], locale = {TZ = "UTC"}>)

// -----

// expected-error @below {{locale variable LANG must be a string, got 3 : i64}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"], locale = {LANG = 3}>)

// -----

// expected-error @below {{files element 0 must be a #phaedrus.file, got "x"}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"], files = ["x"]>)

//===--- Grammars ---===//

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) {
  // expected-error @below {{uses rule @r but the enclosing trace names no grammar}}
  phaedrus.apply @r
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.grammar @g vocabulary(@v) {
  phaedrus.rule @r {
    phaedrus.tokens dense<0> : tensor<1xi32>
  }
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) grammar(@g) {
  // expected-error @below {{uses rule @nope, which grammar @g does not define}}
  phaedrus.apply @nope
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.vocabulary @w fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.grammar @g vocabulary(@w) {
}
// expected-error @below {{uses grammar @g over vocabulary @w, not the trace's vocabulary @v}}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) grammar(@g) {
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{refers to unknown grammar @g}}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(#phaedrus.input<argv = []>) grammar(@g) {
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.grammar @g vocabulary(@v) {
  // expected-error @below {{is recursive: its expansion would be infinite (reached again through @r1)}}
  phaedrus.rule @r0 {
    phaedrus.apply @r1
  }
  phaedrus.rule @r1 {
    phaedrus.repeat 2 {
      phaedrus.apply @r0
    }
  }
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.grammar @g vocabulary(@v) {
  // expected-error @below {{must not be empty}}
  phaedrus.rule @r {
  }
}

// -----

// A rule of only an empty run of tokens is empty too.
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.grammar @g vocabulary(@v) {
  // expected-error @below {{must not be empty}}
  phaedrus.rule @r {
    phaedrus.tokens dense<> : tensor<0xi32>
  }
}

// -----

// A repeat stands for at least one token (the packed format, which writes
// short repeats as their tokens, could not keep one of none).
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) {
  // expected-error @below {{'phaedrus.repeat' op must hold at least one token}}
  phaedrus.repeat 4 {
    phaedrus.tokens dense<> : tensor<0xi32>
  }
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) {
  // expected-error @below {{'phaedrus.repeat' op must hold at least one token}}
  phaedrus.repeat 4 {
  }
}

// -----

// A splat of a few bytes may stand for more tokens than the passes hold.
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) {
  // expected-error @below {{holds 100000000000 tokens, more than 2^31 - 1 in one op}}
  phaedrus.tokens dense<0> : tensor<100000000000xi32>
}

// -----

// A splat is checked by its value, not written out (a billion tokens here).
phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) {
  // expected-error @below {{token 3 at position 0 is not an id of vocabulary @v}}
  phaedrus.tokens dense<3> : tensor<1000000000xi32>
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.grammar @g vocabulary(@v) {
  // expected-error @below {{is not allowed in a grammar; only 'phaedrus.rule' is}}
  phaedrus.vocabulary @inner fingerprint(1) {
  }
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
phaedrus.grammar @g vocabulary(@v) {
  phaedrus.rule @r {
    // expected-error @below {{token 7 at position 0 is not an id of vocabulary @v (ids are 0 to 0)}}
    phaedrus.tokens dense<7> : tensor<1xi32>
  }
}

// -----

// expected-error @below {{refers to unknown vocabulary @v}}
phaedrus.grammar @g vocabulary(@v) {
}

//===--- Models and predictions ---===//

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{vocab_size 3 does not match the 1 entries of vocabulary @v}}
phaedrus.model @m lstm vocabulary(@v) fingerprint(1) vocab_size(3) hyperparameters({}) weights({})

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{fingerprint 9 does not match the fingerprint 1 of vocabulary @v}}
phaedrus.model @m lstm vocabulary(@v) fingerprint(9) vocab_size(1) hyperparameters({}) weights({})

// -----

// expected-error @below {{refers to unknown vocabulary @v}}
phaedrus.model @m lstm vocabulary(@v) fingerprint(1) vocab_size(1) hyperparameters({}) weights({})

// -----

// expected-error @below {{hyper-parameter 'hidden' must be an integer or a float, got "big"}}
phaedrus.model @m lstm vocabulary(@v) fingerprint(1) vocab_size(1) hyperparameters({hidden = "big"}) weights({})

// -----

// expected-error @below {{weight 'w' must be a floating-point elements attribute, got dense<1> : tensor<2xi32>}}
phaedrus.model @m lstm vocabulary(@v) fingerprint(1) vocab_size(1) hyperparameters({}) weights({w = dense<1> : tensor<2xi32>})

// -----

// expected-error @below {{attribute 'vocab_size' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
phaedrus.model @m lstm vocabulary(@v) fingerprint(1) vocab_size(0) hyperparameters({}) weights({})

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{names training run 'text-9' twice}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(1) vocab_size(1) runs(["text-9", "small-1", "text-9"]) hyperparameters({}) weights({})

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{names a training run with an empty name}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(1) vocab_size(1) runs(["text-9", ""]) hyperparameters({}) weights({})

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{has run_arguments for 1 runs, but names 2 runs}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(1) vocab_size(1) runs(["text-9", "small-1"]) run_arguments([["argc=1"]]) hyperparameters({}) weights({})

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{run_arguments must be lists of strings, got ["argc=1", 3]}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(1) vocab_size(1) runs(["text-9"]) run_arguments([["argc=1", 3]]) hyperparameters({}) weights({})

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{has run_arguments for 1 runs, but names 0 runs}}
phaedrus.model @m mlp vocabulary(@v) fingerprint(1) vocab_size(1) run_arguments([["argc=1"]]) hyperparameters({}) weights({})

// -----

// expected-error @below {{refers to unknown model @m}}
phaedrus.predict @m input(#phaedrus.input<argv = ["p"]>)

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @a
}
// expected-error @below {{refers to @v, which is not a model}}
phaedrus.predict @v input(#phaedrus.input<argv = ["p"]>)

//===--- Profile attributes ---===//

// -----

// expected-error @below {{a count must not be negative}}
// expected-error @below {{failed to parse Phaedrus_EntryCountAttr parameter 'count'}}
llvm.func @f() attributes {phaedrus.entry_count = #phaedrus.entry_count<-3, measured, confidence = 1.0>} {
  llvm.return
}

// -----

llvm.func @f(%c: i1) {
  // expected-error @below {{a count must not be negative}}
  // expected-error @below {{failed to parse Phaedrus_BranchWeightsAttr parameter 'weights'}}
  llvm.cond_br %c, ^a, ^b {phaedrus.branch_weights = #phaedrus.branch_weights<[5, -1], measured, confidence = 1.0>}
^a:
  llvm.return
^b:
  llvm.return
}

// -----

// expected-error @below {{confidence must be in [0, 1], got 1.5}}
llvm.func @f() attributes {phaedrus.entry_count = #phaedrus.entry_count<1, model, confidence = 1.5>} {
  llvm.return
}

// -----

llvm.func @f(%c: i1) {
  // expected-error @below {{confidence must be in [0, 1], got -0.5}}
  llvm.cond_br %c, ^bb1, ^bb1 {phaedrus.branch_weights = #phaedrus.branch_weights<[1, 2], model, confidence = -0.5>}
^bb1:
  llvm.return
}

// -----

llvm.func @f(%c: i1) {
  // expected-error @below {{branch weights need at least two weights, got 1}}
  llvm.cond_br %c, ^bb1, ^bb1 {phaedrus.branch_weights = #phaedrus.branch_weights<[1], model, confidence = 0.5>}
^bb1:
  llvm.return
}

// -----

// expected-error @below {{'phaedrus.entry_count' must be a #phaedrus.entry_count, got 3 : i64}}
llvm.func @f() attributes {phaedrus.entry_count = 3} {
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @below {{'phaedrus.entry_count' may only be attached to a function}}
  llvm.return {phaedrus.entry_count = #phaedrus.entry_count<1, measured, confidence = 1.0>}
}

// -----

llvm.func @f(%c: i1) {
  // expected-error @below {{'phaedrus.branch_weights' must be a #phaedrus.branch_weights, got [1, 2]}}
  llvm.cond_br %c, ^bb1, ^bb1 {phaedrus.branch_weights = [1, 2]}
^bb1:
  llvm.return
}

// -----

// The lowered weights of an indirect branch (--phaedrus-lower-profile).
llvm.func @f(%p: !llvm.ptr) {
  // expected-error @below {{'phaedrus.indirectbr_weights' must be an array<i32: ...>, got [1, 2]}}
  llvm.indirectbr %p : !llvm.ptr, [
    ^bb1,
    ^bb2
  ] {phaedrus.indirectbr_weights = [1, 2]}
^bb1:
  llvm.return
^bb2:
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr) {
  // expected-error @below {{'phaedrus.indirectbr_weights' has 1 weights but the operation has 2 successors}}
  llvm.indirectbr %p : !llvm.ptr, [
    ^bb1,
    ^bb2
  ] {phaedrus.indirectbr_weights = array<i32: 3>}
^bb1:
  llvm.return
^bb2:
  llvm.return
}

// -----

llvm.func @f(%c: i1) {
  // expected-error @below {{'phaedrus.indirectbr_weights' may only be attached to llvm.indirectbr}}
  llvm.cond_br %c, ^bb1, ^bb1 {phaedrus.indirectbr_weights = array<i32: 1, 2>}
^bb1:
  llvm.return
}

// -----

// A loop header's count (--phaedrus-lower-profile).
llvm.func @f() {
  // expected-error @below {{'phaedrus.irr_loop_weight' must be an i64, got 3 : i32}}
  llvm.br ^bb1 {phaedrus.irr_loop_weight = 3 : i32}
^bb1:
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @below {{'phaedrus.irr_loop_weight' must not be negative, got -3}}
  llvm.br ^bb1 {phaedrus.irr_loop_weight = -3 : i64}
^bb1:
  llvm.return
}

// -----

llvm.func @f(%a: i32) -> i32 {
  // expected-error @below {{'phaedrus.irr_loop_weight' may only be attached to the terminator of an LLVM block}}
  %b = llvm.add %a, %a {phaedrus.irr_loop_weight = 3 : i64} : i32
  llvm.return %b : i32
}

// -----

llvm.func @f() {
  // expected-error @below {{'phaedrus.branch_weights' may only be attached to a terminator with at least two successors}}
  llvm.br ^bb1 {phaedrus.branch_weights = #phaedrus.branch_weights<[1, 2], measured, confidence = 1.0>}
^bb1:
  llvm.return
}

// -----

llvm.func @f(%v: i32) {
  // expected-error @below {{'phaedrus.branch_weights' has 2 weights but the operation has 3 successors}}
  llvm.switch %v : i32, ^bb1 [
    1: ^bb1,
    2: ^bb1
  ] {phaedrus.branch_weights = #phaedrus.branch_weights<[1, 2], measured, confidence = 1.0>}
^bb1:
  llvm.return
}

// -----

// expected-error @below {{unknown phaedrus attribute 'phaedrus.hotness'}}
llvm.func @f() attributes {phaedrus.hotness = 1} {
  llvm.return
}

// -----

phaedrus.vocabulary @v fingerprint(1) {
  phaedrus.entry 0 function @main
}
// expected-error @below {{'phaedrus.augmented' must be a dictionary on a phaedrus.trace whose 'from' lists the traces it was made from}}
phaedrus.trace @t vocabulary(@v) fingerprint(1) input(<argv = ["p"]>) attributes {phaedrus.augmented = {from = []}} {
  phaedrus.tokens dense<0> : tensor<1xi32>
}

// -----

// expected-error @below {{'phaedrus.augmented' must be a dictionary on a phaedrus.trace whose 'from' lists the traces it was made from}}
llvm.func @f() attributes {phaedrus.augmented = {from = [@t]}} {
  llvm.return
}
