// RUN: phaedrus-opt %s --phaedrus-trace-profile | FileCheck %s
// A function-granularity trace counts call sites; a call runs as often as
// its block. With the entry count, flow conservation fixes some edges: a
// branch whose every edge is fixed gets those counts as measured weights,
// the others stay without (LLVM's static estimate).
phaedrus.vocabulary @v fingerprint(15219402129462097045) {
  phaedrus.entry 0 function @diamond
  phaedrus.entry 1 call_site @diamond[0] -> @leaf
  phaedrus.entry 2 function @open
  phaedrus.entry 3 call_site @open[0] -> @leaf
  phaedrus.entry 4 function @notflow
  phaedrus.entry 5 call_site @notflow[0] -> @leaf
}
phaedrus.trace @t vocabulary(@v) fingerprint(15219402129462097045) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.repeat 7 { phaedrus.tokens dense<[0, 1]> : tensor<2xi32> }
  phaedrus.repeat 3 { phaedrus.tokens dense<[0]> : tensor<1xi32> }
  phaedrus.repeat 4 { phaedrus.tokens dense<[2, 3]> : tensor<2xi32> }
  phaedrus.tokens dense<[4, 5, 5]> : tensor<3xi32>
}
llvm.func @leaf() {
  llvm.return
}
// Entered 10 times, the call on one side ran 7: the first branch is [7, 3].
// The second branch's sides call nothing: it stays open.
// CHECK-LABEL: llvm.func @diamond(
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<10, measured
// CHECK: llvm.cond_br %{{.*}}, ^bb1, ^bb2 {phaedrus.branch_weights = #phaedrus.branch_weights<[7, 3], measured, confidence = 1.0>}
// CHECK: llvm.cond_br %{{.*}}, ^bb4, ^bb5{{$}}
llvm.func @diamond(%c: i1, %d: i1) {
  llvm.cond_br %c, ^a, ^b
^a:
  llvm.call @leaf() : () -> ()
  llvm.br ^join
^b:
  llvm.br ^join
^join:
  llvm.cond_br %d, ^x, ^y
^x:
  llvm.return
^y:
  llvm.return
}
// A call before the branch says nothing about its sides.
// CHECK-LABEL: llvm.func @open(
// CHECK: llvm.cond_br %{{.*}}, ^bb1, ^bb2{{$}}
llvm.func @open(%c: i1) {
  llvm.call @leaf() : () -> ()
  llvm.cond_br %c, ^a, ^b
^a:
  llvm.return
^b:
  llvm.return
}
// Entered once, its call counted twice (counts that are not one flow, as a
// longjmp out of a call would make): nothing is fixed.
// CHECK-LABEL: llvm.func @notflow(
// CHECK: llvm.cond_br %{{.*}}, ^bb1, ^bb2{{$}}
llvm.func @notflow(%c: i1) {
  llvm.cond_br %c, ^a, ^b
^a:
  llvm.call @leaf() : () -> ()
  llvm.return
^b:
  llvm.return
}
