// RUN: phaedrus-opt %s --phaedrus-instrument="granularity=path thread-cursor=false" --verify-diagnostics | FileCheck %s

// 33 diamonds in a row: 2^33 acyclic paths, more than 32-bit path ids hold.
// The numbering cuts the function at the last join, from the end, whose
// paths exceed 2^24 (d8: 25 diamonds from it on): its incoming edges become
// breaks, like back edges, so a path ends before d8 and another starts at
// it (2^8 + 2^25 paths; the path register restarts at 2^8, the value of
// the pseudo-edge ENTRY->d8). The function records paths (a path register
// and runs), and each call completes two.
// CHECK-LABEL: llvm.func @many_paths(
// CHECK: llvm.alloca
// CHECK: llvm.mlir.constant(256 : i32) : i32
// CHECK: llvm.return
llvm.func @many_paths(%c: i1) {
  llvm.br ^d0
^d0:
  llvm.cond_br %c, ^l0, ^r0
^l0:
  llvm.br ^d1
^r0:
  llvm.br ^d1
^d1:
  llvm.cond_br %c, ^l1, ^r1
^l1:
  llvm.br ^d2
^r1:
  llvm.br ^d2
^d2:
  llvm.cond_br %c, ^l2, ^r2
^l2:
  llvm.br ^d3
^r2:
  llvm.br ^d3
^d3:
  llvm.cond_br %c, ^l3, ^r3
^l3:
  llvm.br ^d4
^r3:
  llvm.br ^d4
^d4:
  llvm.cond_br %c, ^l4, ^r4
^l4:
  llvm.br ^d5
^r4:
  llvm.br ^d5
^d5:
  llvm.cond_br %c, ^l5, ^r5
^l5:
  llvm.br ^d6
^r5:
  llvm.br ^d6
^d6:
  llvm.cond_br %c, ^l6, ^r6
^l6:
  llvm.br ^d7
^r6:
  llvm.br ^d7
^d7:
  llvm.cond_br %c, ^l7, ^r7
^l7:
  llvm.br ^d8
^r7:
  llvm.br ^d8
^d8:
  llvm.cond_br %c, ^l8, ^r8
^l8:
  llvm.br ^d9
^r8:
  llvm.br ^d9
^d9:
  llvm.cond_br %c, ^l9, ^r9
^l9:
  llvm.br ^d10
^r9:
  llvm.br ^d10
^d10:
  llvm.cond_br %c, ^l10, ^r10
^l10:
  llvm.br ^d11
^r10:
  llvm.br ^d11
^d11:
  llvm.cond_br %c, ^l11, ^r11
^l11:
  llvm.br ^d12
^r11:
  llvm.br ^d12
^d12:
  llvm.cond_br %c, ^l12, ^r12
^l12:
  llvm.br ^d13
^r12:
  llvm.br ^d13
^d13:
  llvm.cond_br %c, ^l13, ^r13
^l13:
  llvm.br ^d14
^r13:
  llvm.br ^d14
^d14:
  llvm.cond_br %c, ^l14, ^r14
^l14:
  llvm.br ^d15
^r14:
  llvm.br ^d15
^d15:
  llvm.cond_br %c, ^l15, ^r15
^l15:
  llvm.br ^d16
^r15:
  llvm.br ^d16
^d16:
  llvm.cond_br %c, ^l16, ^r16
^l16:
  llvm.br ^d17
^r16:
  llvm.br ^d17
^d17:
  llvm.cond_br %c, ^l17, ^r17
^l17:
  llvm.br ^d18
^r17:
  llvm.br ^d18
^d18:
  llvm.cond_br %c, ^l18, ^r18
^l18:
  llvm.br ^d19
^r18:
  llvm.br ^d19
^d19:
  llvm.cond_br %c, ^l19, ^r19
^l19:
  llvm.br ^d20
^r19:
  llvm.br ^d20
^d20:
  llvm.cond_br %c, ^l20, ^r20
^l20:
  llvm.br ^d21
^r20:
  llvm.br ^d21
^d21:
  llvm.cond_br %c, ^l21, ^r21
^l21:
  llvm.br ^d22
^r21:
  llvm.br ^d22
^d22:
  llvm.cond_br %c, ^l22, ^r22
^l22:
  llvm.br ^d23
^r22:
  llvm.br ^d23
^d23:
  llvm.cond_br %c, ^l23, ^r23
^l23:
  llvm.br ^d24
^r23:
  llvm.br ^d24
^d24:
  llvm.cond_br %c, ^l24, ^r24
^l24:
  llvm.br ^d25
^r24:
  llvm.br ^d25
^d25:
  llvm.cond_br %c, ^l25, ^r25
^l25:
  llvm.br ^d26
^r25:
  llvm.br ^d26
^d26:
  llvm.cond_br %c, ^l26, ^r26
^l26:
  llvm.br ^d27
^r26:
  llvm.br ^d27
^d27:
  llvm.cond_br %c, ^l27, ^r27
^l27:
  llvm.br ^d28
^r27:
  llvm.br ^d28
^d28:
  llvm.cond_br %c, ^l28, ^r28
^l28:
  llvm.br ^d29
^r28:
  llvm.br ^d29
^d29:
  llvm.cond_br %c, ^l29, ^r29
^l29:
  llvm.br ^d30
^r29:
  llvm.br ^d30
^d30:
  llvm.cond_br %c, ^l30, ^r30
^l30:
  llvm.br ^d31
^r30:
  llvm.br ^d31
^d31:
  llvm.cond_br %c, ^l31, ^r31
^l31:
  llvm.br ^d32
^r31:
  llvm.br ^d32
^d32:
  llvm.cond_br %c, ^l32, ^r32
^l32:
  llvm.br ^d33
^r32:
  llvm.br ^d33
^d33:
  llvm.return
}

// A diamond and a loop: paths are recorded (a path register and runs). A
// run of length 1 is one word (0xC0000000 | token 0 << 16 | path id; the
// token and every path id fit), any other run three (0x80000000 | token,
// path id, length): the three words are stored either way and the cursor
// advances by 1 or 3; the slow path gets the same three words.
// CHECK-LABEL: llvm.func @few_paths(
// CHECK: llvm.alloca
// CHECK: %[[MARK:.*]] = llvm.mlir.constant(-2147483648 : i32) : i32
// CHECK: %[[SHORT_BASE:.*]] = llvm.mlir.constant(-1073741824 : i32) : i32
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[SHORT:.*]] = llvm.icmp "eq" %[[LENGTH:.*]], %[[ONE]] : i32
// CHECK-NEXT: %[[SHORT_WORD:.*]] = llvm.or %[[PATH:.*]], %[[SHORT_BASE]] : i32
// CHECK-NEXT: %[[FIRST:.*]] = llvm.select %[[SHORT]], %[[SHORT_WORD]], %[[MARK]] : i1, i32
// CHECK-NEXT: %[[W1:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[W3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK-NEXT: %[[ADVANCE:.*]] = llvm.select %[[SHORT]], %[[W1]], %[[W3]] : i1, i32
// CHECK: llvm.store %[[FIRST]], %[[AT:.*]] {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: llvm.store %[[PATH]], %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK: llvm.store %[[LENGTH]], %{{.*}} {alignment = 4 : i64} : i32, !llvm.ptr
// CHECK-NEXT: %[[NEXT:.*]] = llvm.getelementptr %[[AT]][%[[ADVANCE]]] : (!llvm.ptr, i32) -> !llvm.ptr, i32
// CHECK-NEXT: llvm.store %[[NEXT]], %{{.*}} {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK: llvm.call preserve_mostcc @__phaedrus_record_path_slow(%[[FIRST]], %[[PATH]], %[[LENGTH]])
llvm.func @few_paths(%c: i1, %n: i32) {
  %z = llvm.mlir.constant(0 : i32) : i32
  %o = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^h(%z : i32)
^h(%i: i32):
  %d = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %d, ^b, ^x
^b:
  %i2 = llvm.add %i, %o : i32
  llvm.cond_br %c, ^h(%i2 : i32), ^h(%i2 : i32)
^x:
  llvm.return
}

// The function's own allocas (after constants, as mlir-translate imports
// clang's -O0 IR) stay in the entry block, ahead of the entry event and the
// path register's initial stores: LLVM promotes only entry-block allocas,
// and one left behind the entry event's split would keep its variable in
// memory as a dynamic stack allocation. (@locals has no loop, so it keeps
// no run: its one alloca of its own is the path register. It makes a call,
// so it records its entry at the entry, and no call site hands it a token:
// it records its own, 1.)
// CHECK-LABEL: llvm.func @locals(
// CHECK: llvm.alloca
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[X:.*]] = llvm.alloca %[[ONE]] x i32
// CHECK-NEXT: %[[Y:.*]] = llvm.alloca %[[ONE]] x i64
// CHECK-NOT: ^bb
// CHECK: llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.mlir.addressof @__phaedrus_cursor
// CHECK: ^bb
// CHECK-NOT: llvm.alloca
// CHECK: llvm.return
llvm.func @sink(i32)
llvm.func @locals(%c: i1, %v: i32) -> i32 {
  %one = llvm.mlir.constant(1 : i32) : i32
  %x = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
  %y = llvm.alloca %one x i64 : (i32) -> !llvm.ptr
  llvm.store %v, %x : i32, !llvm.ptr
  llvm.cond_br %c, ^a, ^b
^a:
  llvm.call @sink(%v) : (i32) -> ()
  llvm.br ^b
^b:
  %r = llvm.load %x : !llvm.ptr -> i32
  llvm.return %r : i32
}

// 17 diamonds (token 3, so the one-word form is 0xC0030000 | path id): 2^17
// paths, more than the one-word form's 16-bit path id
// holds. A run is one word only if it has length 1 and a path id below 2^16.
// CHECK-LABEL: llvm.func @seventeen_diamonds(
// CHECK: %[[SHORT_BASE:.*]] = llvm.mlir.constant(-1073545216 : i32) : i32
// CHECK-NEXT: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: %[[LENGTH_ONE:.*]] = llvm.icmp "eq" %{{.*}}, %[[ONE]] : i32
// CHECK-NEXT: %[[LIMIT:.*]] = llvm.mlir.constant(65536 : i32) : i32
// CHECK-NEXT: %[[FITS:.*]] = llvm.icmp "ult" %[[PATH:.*]], %[[LIMIT]] : i32
// CHECK-NEXT: %[[SHORT:.*]] = llvm.and %[[LENGTH_ONE]], %[[FITS]] : i1
// CHECK-NEXT: %[[SHORT_WORD:.*]] = llvm.or %[[PATH]], %[[SHORT_BASE]] : i32
// CHECK-NEXT: llvm.select %[[SHORT]], %[[SHORT_WORD]]
// CHECK: llvm.return
llvm.func @seventeen_diamonds(%c: i1) {
  llvm.br ^d0
^d0:
  llvm.cond_br %c, ^l0, ^r0
^l0:
  llvm.br ^d1
^r0:
  llvm.br ^d1
^d1:
  llvm.cond_br %c, ^l1, ^r1
^l1:
  llvm.br ^d2
^r1:
  llvm.br ^d2
^d2:
  llvm.cond_br %c, ^l2, ^r2
^l2:
  llvm.br ^d3
^r2:
  llvm.br ^d3
^d3:
  llvm.cond_br %c, ^l3, ^r3
^l3:
  llvm.br ^d4
^r3:
  llvm.br ^d4
^d4:
  llvm.cond_br %c, ^l4, ^r4
^l4:
  llvm.br ^d5
^r4:
  llvm.br ^d5
^d5:
  llvm.cond_br %c, ^l5, ^r5
^l5:
  llvm.br ^d6
^r5:
  llvm.br ^d6
^d6:
  llvm.cond_br %c, ^l6, ^r6
^l6:
  llvm.br ^d7
^r6:
  llvm.br ^d7
^d7:
  llvm.cond_br %c, ^l7, ^r7
^l7:
  llvm.br ^d8
^r7:
  llvm.br ^d8
^d8:
  llvm.cond_br %c, ^l8, ^r8
^l8:
  llvm.br ^d9
^r8:
  llvm.br ^d9
^d9:
  llvm.cond_br %c, ^l9, ^r9
^l9:
  llvm.br ^d10
^r9:
  llvm.br ^d10
^d10:
  llvm.cond_br %c, ^l10, ^r10
^l10:
  llvm.br ^d11
^r10:
  llvm.br ^d11
^d11:
  llvm.cond_br %c, ^l11, ^r11
^l11:
  llvm.br ^d12
^r11:
  llvm.br ^d12
^d12:
  llvm.cond_br %c, ^l12, ^r12
^l12:
  llvm.br ^d13
^r12:
  llvm.br ^d13
^d13:
  llvm.cond_br %c, ^l13, ^r13
^l13:
  llvm.br ^d14
^r13:
  llvm.br ^d14
^d14:
  llvm.cond_br %c, ^l14, ^r14
^l14:
  llvm.br ^d15
^r14:
  llvm.br ^d15
^d15:
  llvm.cond_br %c, ^l15, ^r15
^l15:
  llvm.br ^d16
^r15:
  llvm.br ^d16
^d16:
  llvm.cond_br %c, ^l16, ^r16
^l16:
  llvm.br ^d17
^r16:
  llvm.br ^d17
^d17:
  llvm.return
}

// A function without loops or calls records its entry with its path, in one
// word at its return (phaedrus-instrument-copies.mlir), but not if a path
// can end in `unreachable`: that path records nothing, and the entry would
// be lost with it. This one records its entry at the entry instead.
// CHECK-LABEL: llvm.func @unreachable_leaf(
// CHECK: llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.mlir.addressof @__phaedrus_cursor
// CHECK-NOT: 1073741824
// CHECK: llvm.unreachable
llvm.func @unreachable_leaf(%c: i1) {
  llvm.cond_br %c, ^a, ^b
^a:
  llvm.return
^b:
  llvm.unreachable
}

// An llvm.invoke is a branch whose unwind edge, which can carry no code
// (the landing pad must begin its block), takes the value 0: the normal
// edge adds 1, the way around the call 2, and a path that ends in a resume
// is recorded before it (path 0: the call threw).
llvm.func @may_throw()
llvm.func @__gxx_personality_v0(...) -> i32
// CHECK-LABEL: llvm.func @with_invoke(
// CHECK: llvm.invoke @may_throw() to ^[[NORMAL:bb[0-9]+]] unwind ^[[PAD:bb[0-9]+]]
// CHECK: ^[[PAD]]:
// CHECK-NEXT: llvm.landingpad cleanup
// CHECK-NEXT: %[[R:[0-9]+]] = llvm.load
// CHECK-NOT: llvm.add
// CHECK: llvm.or %[[R]]
// CHECK: llvm.resume
// CHECK: llvm.mlir.constant(2 : i32)
// CHECK: ^[[NORMAL]]:
// CHECK-NEXT: llvm.load
// CHECK-NEXT: llvm.mlir.constant(1 : i32)
// CHECK-NEXT: llvm.add
llvm.func @with_invoke(%c: i1) attributes {personality = @__gxx_personality_v0} {
  llvm.cond_br %c, ^call, ^done
^call:
  llvm.invoke @may_throw() to ^done unwind ^cleanup : () -> ()
^cleanup:
  %lp = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.resume %lp : !llvm.struct<(ptr, i32)>
^done:
  llvm.return
}

// A landing pad that the code after it reaches again: its unwind edge
// would have to end a path. The function records only its entries, with a
// warning that says why.
// CHECK-LABEL: llvm.func @unwind_loop(
// CHECK-NOT: llvm.alloca
// expected-warning @below {{phaedrus-instrument: recording only the entries of @unwind_loop: a loop closes through the unwind edge of an llvm.invoke, which can carry no code; its branches get no weights from its traces}}
llvm.func @unwind_loop() attributes {personality = @__gxx_personality_v0} {
  llvm.invoke @may_throw() to ^done unwind ^pad : () -> ()
^done:
  llvm.return
^pad:
  %lp = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
  llvm.invoke @may_throw() to ^done unwind ^pad : () -> ()
}
