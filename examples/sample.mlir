// A small program in the LLVM dialect with the vocabulary of its functions
// and the compressed whole-program path of one run: main calls parse once,
// then 1000 times the pair (step, then 3 calls of leaf), then report.
// scripts/demo.sh runs the phaedrus passes over it. The fingerprint is the
// one --phaedrus-instrument computes for these functions: a pass that reads
// the trace checks it against the module's.
phaedrus.vocabulary @vocab fingerprint(4714102277487813830) {
  phaedrus.entry 0 function @main
  phaedrus.entry 1 call_site @main[0] -> @parse
  phaedrus.entry 2 call_site @main[1] -> @step
  phaedrus.entry 3 call_site @step[0] -> @leaf
  phaedrus.entry 4 call_site @main[2] -> @report
}
phaedrus.trace @run0 vocabulary(@vocab) fingerprint(4714102277487813830)
    input(#phaedrus.input<argv = ["sample", "--steps", "1000"]>) {
  phaedrus.tokens dense<[0, 1]> : tensor<2xi32>
  phaedrus.repeat 1000 {
    phaedrus.tokens dense<2> : tensor<1xi32>
    phaedrus.repeat 3 {
      phaedrus.tokens dense<3> : tensor<1xi32>
    }
  }
  phaedrus.tokens dense<4> : tensor<1xi32>
}

llvm.func @leaf(%x: i32) -> i32 {
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %r = llvm.add %x, %c1 : i32
  llvm.return %r : i32
}
llvm.func @step(%x: i32) -> i32 {
  %a = llvm.call @leaf(%x) : (i32) -> i32
  %b = llvm.call @leaf(%a) : (i32) -> i32
  %c = llvm.call @leaf(%b) : (i32) -> i32
  llvm.return %c : i32
}
llvm.func @parse(%n: i32) -> i32 {
  llvm.return %n : i32
}
llvm.func @report(%x: i32) {
  llvm.return
}
llvm.func @main(%n: i32) -> i32 {
  %steps = llvm.call @parse(%n) : (i32) -> i32
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^loop(%c0, %c0 : i32, i32)
^loop(%i: i32, %acc: i32):
  %done = llvm.icmp "sge" %i, %steps : i32
  llvm.cond_br %done, ^exit, ^body
^body:
  %next = llvm.call @step(%acc) : (i32) -> i32
  %i1 = llvm.add %i, %c1 : i32
  llvm.br ^loop(%i1, %next : i32, i32)
^exit:
  llvm.call @report(%acc) : (i32) -> ()
  llvm.return %acc : i32
}
