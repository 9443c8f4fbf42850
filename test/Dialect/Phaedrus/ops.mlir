// RUN: phaedrus-opt %s --verify-roundtrip | FileCheck %s
// RUN: phaedrus-opt %s --mlir-print-op-generic | phaedrus-opt | FileCheck %s

// CHECK-LABEL: phaedrus.vocabulary @vocab fingerprint(7421)
// CHECK-NEXT: phaedrus.entry 0 function @main
// CHECK-NEXT: phaedrus.entry 1 function @compress
// CHECK-NEXT: phaedrus.entry 2 call_site @main[3] -> @compress
// CHECK-NEXT: phaedrus.entry 3 path @compress[5]
// CHECK-NEXT: phaedrus.entry 4 path @compress[6]
phaedrus.vocabulary @vocab fingerprint(7421) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 function @compress
  phaedrus.entry 2 call_site @main[3] -> @compress
  phaedrus.entry 3 path @compress[5]
  phaedrus.entry 4 path @compress[6]
}

// A call group: the call sites it stands for, in the order they run.
// CHECK-LABEL: phaedrus.vocabulary @grouped fingerprint(7421)
// CHECK: phaedrus.entry 2 group @compress[0] members [0, 1]
phaedrus.vocabulary @grouped fingerprint(7421) {
  phaedrus.entry 0 call_site @compress[0] -> @main
  phaedrus.entry 1 call_site @compress[1] -> @main
  phaedrus.entry 2 group @compress[0] members [0, 1]
}

// Ids may be listed in any order as long as they are dense.
// CHECK-LABEL: phaedrus.vocabulary @unordered fingerprint(18446744073709551615)
phaedrus.vocabulary @unordered fingerprint(18446744073709551615) {
  phaedrus.entry 1 function @b
  phaedrus.entry 0 function @a
}

// CHECK-LABEL: phaedrus.trace @run0 vocabulary(@vocab) fingerprint(7421)
// CHECK-SAME: input(<argv = ["bzip2", "-9", "-c", "a.txt"], files = [#phaedrus.file<"a.txt", size = 152089, digest = 12345>, #phaedrus.file<"b.txt", size = 0>]>)
// CHECK-NEXT: phaedrus.tokens dense<[0, 2]> : tensor<2xi32>
// CHECK-NEXT: phaedrus.repeat 4096 {
// CHECK-NEXT:   phaedrus.tokens dense<3> : tensor<1xi32>
// CHECK-NEXT:   phaedrus.repeat 2 {
// CHECK-NEXT:     phaedrus.tokens dense<4> : tensor<1xi32>
// CHECK: phaedrus.tokens dense_resource<run0_tail> : tensor<4xi32>
phaedrus.trace @run0 vocabulary(@vocab) fingerprint(7421)
    input(#phaedrus.input<argv = ["bzip2", "-9", "-c", "a.txt"],
                          files = [#phaedrus.file<"a.txt", size = 152089, digest = 12345>,
                                   #phaedrus.file<"b.txt", size = 0>]>) {
  phaedrus.tokens dense<[0, 2]> : tensor<2xi32>
  phaedrus.repeat 4096 {
    phaedrus.tokens dense<3> : tensor<1xi32>
    phaedrus.repeat 2 {
      phaedrus.tokens dense<4> : tensor<1xi32>
    }
  }
  phaedrus.tokens dense_resource<run0_tail> : tensor<4xi32>
}

// An empty trace: a run killed before its first event.
// CHECK-LABEL: phaedrus.trace @empty vocabulary(@vocab) fingerprint(7421) input(<argv = []>) {
// CHECK-NEXT: }
phaedrus.trace @empty vocabulary(@vocab) fingerprint(7421) input(#phaedrus.input<argv = []>) {
}

// CHECK-LABEL: phaedrus.grammar @g vocabulary(@vocab)
// CHECK-NEXT: phaedrus.rule @r0 {
// CHECK-NEXT:   phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
// CHECK: phaedrus.rule @r1 {
// CHECK-NEXT:   phaedrus.apply @r0
// CHECK-NEXT:   phaedrus.repeat 3 {
// CHECK-NEXT:     phaedrus.apply @r0
phaedrus.grammar @g vocabulary(@vocab) {
  phaedrus.rule @r0 {
    phaedrus.tokens dense<[1, 2]> : tensor<2xi32>
  }
  phaedrus.rule @r1 {
    phaedrus.apply @r0
    phaedrus.repeat 3 {
      phaedrus.apply @r0
    }
  }
}

// CHECK-LABEL: phaedrus.trace @run1 vocabulary(@vocab) fingerprint(7421) input(<argv = ["bzip2"]>) grammar(@g)
// CHECK-NEXT: phaedrus.apply @r1
phaedrus.trace @run1 vocabulary(@vocab) fingerprint(7421) input(#phaedrus.input<argv = ["bzip2"]>) grammar(@g) {
  phaedrus.apply @r1
  phaedrus.tokens dense<0> : tensor<1xi32>
}

// CHECK-LABEL: phaedrus.model @m lstm vocabulary(@vocab) fingerprint(7421) vocab_size(5)
// CHECK-SAME: hyperparameters({dropout = 1.000000e-01 : f64, embedding_dim = 2 : i64, hidden_size = 2 : i64})
// CHECK-SAME: weights({embedding = dense_resource<m_embedding> : tensor<5x2xf32>, out_bias = dense<0.000000e+00> : tensor<5xf32>})
phaedrus.model @m lstm vocabulary(@vocab) fingerprint(7421) vocab_size(5)
    hyperparameters({embedding_dim = 2 : i64, hidden_size = 2 : i64, dropout = 0.1 : f64})
    weights({embedding = dense_resource<m_embedding> : tensor<5x2xf32>,
             out_bias = dense<0.0> : tensor<5xf32>})

// CHECK-LABEL: phaedrus.model @counts mlp
// CHECK-SAME: descriptors(["argc=1", "opt=-9"])
phaedrus.model @counts mlp vocabulary(@vocab) fingerprint(7421) vocab_size(5)
    descriptors(["argc=1", "opt=-9"]) hyperparameters({}) weights({})

// A blending model names the training run of each hidden unit.
// CHECK-LABEL: phaedrus.model @blend mlp
// CHECK-SAME: descriptors(["argc=1"]) runs(["text-9", "repetitive-1"])
phaedrus.model @blend mlp vocabulary(@vocab) fingerprint(7421) vocab_size(5)
    descriptors(["argc=1"]) runs(["text-9", "repetitive-1"]) hyperparameters({}) weights({})

// CHECK-LABEL: phaedrus.predict @counts input(<argv = ["bzip2", "-9"], stdin = "big.txt">)
phaedrus.predict @counts input(#phaedrus.input<argv = ["bzip2", "-9"], stdin = "big.txt">)

// CHECK-LABEL: phaedrus.predict @m input(<argv = ["bzip2", "-9", "big.txt"], files = [#phaedrus.file<"big.txt", size = 10485760>]>)
phaedrus.predict @m input(#phaedrus.input<argv = ["bzip2", "-9", "big.txt"], files = [#phaedrus.file<"big.txt", size = 10485760>]>)

// The locale variables a run starts with.
// CHECK-LABEL: phaedrus.predict @m input(<argv = ["grep", "-i", "x"], locale = {LANG = "en_US.UTF-8", LC_ALL = "C"}>)
phaedrus.predict @m input(#phaedrus.input<argv = ["grep", "-i", "x"], locale = {LC_ALL = "C", LANG = "en_US.UTF-8"}>)

// Profile attributes on LLVM and func functions and on branches.
// CHECK-LABEL: llvm.func @compress
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<120, model, confidence = 0.85>
// CHECK: llvm.cond_br %{{.*}}, ^bb1, ^bb2 {phaedrus.branch_weights = #phaedrus.branch_weights<[990, 10], measured, confidence = 1.0>}
// CHECK: llvm.switch %{{.*}} : i32, ^bb1 [
// CHECK: ] {phaedrus.branch_weights = #phaedrus.branch_weights<[1, 2, 3], static, confidence = 0.5>}
llvm.func @compress(%c: i1, %v: i32) attributes {
    phaedrus.entry_count = #phaedrus.entry_count<120, model, confidence = 0.85>} {
  llvm.cond_br %c, ^bb1, ^bb2 {phaedrus.branch_weights = #phaedrus.branch_weights<[990, 10], measured, confidence = 1.0>}
^bb1:
  llvm.switch %v : i32, ^bb1 [
    1: ^bb2,
    2: ^bb3
  ] {phaedrus.branch_weights = #phaedrus.branch_weights<[1, 2, 3], static, confidence = 0.5>}
^bb2:
  llvm.return
^bb3:
  llvm.return
}

// CHECK-LABEL: func.func @main
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1, llm, confidence = 1.0e-05>
// CHECK: cf.cond_br %{{.*}}, ^bb1, ^bb1 {phaedrus.branch_weights = #phaedrus.branch_weights<[18446744073709551615, 0], measured, confidence = 0.0>}
func.func @main(%c: i1) attributes {
    phaedrus.entry_count = #phaedrus.entry_count<1, llm, confidence = 1.0e-5>} {
  cf.cond_br %c, ^bb1, ^bb1 {phaedrus.branch_weights = #phaedrus.branch_weights<[18446744073709551615, 0], measured, confidence = 0.0>}
^bb1:
  return
}

{-#
  dialect_resources: {
    builtin: {
      run0_tail: "0x0400000000000000010000000200000003000000",
      m_embedding: "0x040000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    }
  }
#-}
