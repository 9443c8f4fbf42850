// RUN: phaedrus-opt %s --phaedrus-trace-profile --verify-diagnostics | FileCheck %s
// An interpreter's loop entered once per interpreted call: @run is entered
// 100 times and its one call ran 2,000 times, 20 per entry, far below the
// 1,024 that makes an entry count mislead by itself. But its dispatch, a
// switch of 16 ways in the loop, has no weights (no call fixes its cases),
// and LLVM would spread the count evenly over the ways and take every
// opcode's calls for hot (the JavaScript interpreter mujs's jsR_run grew
// 3x with 7,300 inlined calls): @run is left without a count. @small, whose
// switch of 3 ways is no dispatch, keeps its count.
phaedrus.vocabulary @v fingerprint(10391317015994836785) {
  phaedrus.entry 0 function @run
  phaedrus.entry 1 call_site @run[0] -> @op
  phaedrus.entry 2 function @small
}
phaedrus.trace @t vocabulary(@v) fingerprint(10391317015994836785) input(#phaedrus.input<argv = ["p"]>) {
  phaedrus.repeat 100 {
    phaedrus.tokens dense<0> : tensor<1xi32>
    phaedrus.repeat 20 { phaedrus.tokens dense<1> : tensor<1xi32> }
  }
  phaedrus.tokens dense<2> : tensor<1xi32>
}
llvm.func @op() {
  llvm.return
}
// CHECK-LABEL: llvm.func @run(
// CHECK-NOT: phaedrus.entry_count
// CHECK-SAME: {
// expected-remark @below {{phaedrus-trace-profile: @run is left without an entry count: a branch of 16 ways in a loop has no weights (an interpreter's dispatch), and LLVM would spread the entry count evenly over its ways}}
llvm.func @run(%code: !llvm.ptr, %n: i64) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^head(%zero : i64)
^head(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^fetch, ^exit
^fetch:
  %p = llvm.getelementptr %code[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %opcode = llvm.load %p : !llvm.ptr -> i32
  llvm.switch %opcode : i32, ^c0 [
    1: ^c1,
    2: ^c2,
    3: ^c3,
    4: ^c4,
    5: ^c5,
    6: ^c6,
    7: ^c7,
    8: ^c8,
    9: ^c9,
    10: ^c10,
    11: ^c11,
    12: ^c12,
    13: ^c13,
    14: ^c14,
    15: ^c15
  ]
^c0:
  llvm.call @op() : () -> ()
  llvm.br ^latch
^c1:
  llvm.br ^latch
^c2:
  llvm.br ^latch
^c3:
  llvm.br ^latch
^c4:
  llvm.br ^latch
^c5:
  llvm.br ^latch
^c6:
  llvm.br ^latch
^c7:
  llvm.br ^latch
^c8:
  llvm.br ^latch
^c9:
  llvm.br ^latch
^c10:
  llvm.br ^latch
^c11:
  llvm.br ^latch
^c12:
  llvm.br ^latch
^c13:
  llvm.br ^latch
^c14:
  llvm.br ^latch
^c15:
  llvm.br ^latch
^latch:
  %next = llvm.add %i, %one : i64
  llvm.br ^head(%next : i64)
^exit:
  llvm.return
}
// CHECK-LABEL: llvm.func @small(
// CHECK-SAME: phaedrus.entry_count = #phaedrus.entry_count<1, measured
llvm.func @small(%x: i32) {
  llvm.switch %x : i32, ^a [
    1: ^b,
    2: ^c
  ]
^a:
  llvm.return
^b:
  llvm.return
^c:
  llvm.return
}
