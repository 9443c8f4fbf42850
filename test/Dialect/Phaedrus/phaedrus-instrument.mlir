// The thread-local hand-over of call-site tokens, without direct-entry
// copies (phaedrus-instrument-copies.mlir has those, the default).
// RUN: phaedrus-opt %s --split-input-file --phaedrus-instrument="direct-copies=false thread-cursor=false" --verify-diagnostics | FileCheck %s
// The instrumented module, stripped, is valid LLVM IR.
// 32-bit events when asked (16-bit ones by default: every token fits).
// RUN: phaedrus-opt %s --split-input-file --phaedrus-instrument="direct-copies=false narrow-events=false thread-cursor=false" --verify-diagnostics | FileCheck %s --check-prefix=WIDE
// RUN: phaedrus-opt %s --split-input-file --phaedrus-instrument="direct-copies=false thread-cursor=false" --phaedrus-strip --verify-diagnostics \
// RUN:   | mlir-translate --split-input-file --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// Ids: instrumented functions by name, then direct call sites between them
// by caller and index. @ext is a declaration and @inl is replaced at link
// time (available_externally): neither is instrumented, calls to them are
// not call sites.
// CHECK-LABEL: phaedrus.vocabulary @phaedrus_vocabulary fingerprint(
// CHECK-NEXT: phaedrus.entry 0 function @leaf
// CHECK-NEXT: phaedrus.entry 1 function @main
// CHECK-NEXT: phaedrus.entry 2 call_site @main[0] -> @leaf
// CHECK-NEXT: phaedrus.entry 3 call_site @main[1] -> @leaf
// The two calls always run one after the other: a call group (Lemma 1,
// phaedrus-call-groups.test), recorded with the vocabulary (function
// granularity) so that folding a trace needs no program.
// CHECK-NEXT: phaedrus.entry 4 group @main[0] members [2, 3]
// CHECK-NEXT: }

// At entry: take the pending call-site token (and clear it) or else the
// function's own token, and record it inline: store at the cursor if its
// offset in its buffer (aligned to its 256 KiB) is below the limit offset,
// 128 KiB for 16-bit words (every token of this module is below 2^16), else
// call the runtime.
// CHECK-LABEL: llvm.func @leaf(
// CHECK-NEXT: %[[SITEP:.*]] = llvm.mlir.addressof @__phaedrus_site
// CHECK-NEXT: %[[SITE:.*]] = llvm.load %[[SITEP]]
// CHECK-NEXT: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-NEXT: llvm.store %[[ZERO]], %[[SITEP]]
// CHECK: %[[FROMSITE:.*]] = llvm.sub %[[SITE]]
// CHECK-NEXT: %[[HAS:.*]] = llvm.icmp "ne" %[[SITE]], %[[ZERO]]
// CHECK-NEXT: %[[OWN:.*]] = llvm.mlir.constant(0 : i32)
// CHECK-NEXT: %[[TOK:.*]] = llvm.select %[[HAS]], %[[FROMSITE]], %[[OWN]]
// CHECK: %[[CUR:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT: %[[ADDR:.*]] = llvm.ptrtoint %[[CUR]] : !llvm.ptr to i64
// CHECK-NEXT: %[[MASK:.*]] = llvm.mlir.constant(262143 : i64) : i64
// CHECK-NEXT: %[[OFF:.*]] = llvm.and %[[ADDR]], %[[MASK]] : i64
// CHECK-NEXT: %[[LIM:.*]] = llvm.mlir.constant(131072 : i64) : i64
// CHECK-NEXT: %[[ROOM:.*]] = llvm.icmp "ult" %[[OFF]], %[[LIM]] : i64
// CHECK-NEXT: llvm.cond_br %[[ROOM]] weights([65535, 1]), ^[[FAST:.*]], ^[[SLOW:.*]]
// CHECK: ^[[FAST]]:
// CHECK-NEXT: %[[HALF:.*]] = llvm.trunc %[[TOK]] : i32 to i16
// CHECK-NEXT: llvm.store %[[HALF]], %[[CUR]] {alignment = 2 : i64} : i16, !llvm.ptr
// CHECK-NEXT: %[[NEXT:.*]] = llvm.getelementptr %[[CUR]][1] : (!llvm.ptr) -> !llvm.ptr, i16
// CHECK-NEXT: llvm.store %[[NEXT]], %{{.*}} {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK: ^[[SLOW]]:
// CHECK-NEXT: llvm.call preserve_mostcc @__phaedrus_record_slow(%[[TOK]]) : (i32) -> ()
// CHECK: llvm.return %arg0
// WIDE-LABEL: llvm.func @leaf(
// WIDE: %[[TOK:.*]] = llvm.select
// WIDE: %[[CUR:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// 32-bit words: room for a path run's three and the advanced cursor.
// WIDE: llvm.mlir.constant(262132 : i64) : i64
// WIDE-NOT: llvm.trunc
// WIDE: llvm.store %[[TOK]], %[[CUR]] {alignment = 4 : i64} : i32, !llvm.ptr
// WIDE-NEXT: llvm.getelementptr %[[CUR]][1] : (!llvm.ptr) -> !llvm.ptr, i32
llvm.func @leaf(%x: i32) -> i32 {
  llvm.return %x : i32
}
llvm.func @ext(i32) -> i32
// CHECK-LABEL: llvm.func available_externally @inl(
// CHECK-NOT: __phaedrus
// CHECK: llvm.return
llvm.func available_externally @inl(%x: i32) -> i32 {
  llvm.return %x : i32
}
// Before a direct call to a recorded function, the caller stores the
// call-site token + 1 (token 2 -> 3, token 3 -> 4).
// CHECK-LABEL: llvm.func @main(
// CHECK: %[[S0:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.call preserve_mostcc @__phaedrus_record_slow
// CHECK: llvm.store %[[S0]], %{{.*}} : i32, !llvm.ptr
// CHECK-NEXT: llvm.call @leaf(
// CHECK-NEXT: llvm.call @ext(
// CHECK-NEXT: llvm.call @inl(
// CHECK: %[[S1:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT: llvm.store %[[S1]], %{{.*}} : i32, !llvm.ptr
// CHECK-NEXT: llvm.call @leaf(
// An indirect call sets no call site: the callee records its function token.
// CHECK-NEXT: llvm.call %{{.*}}(
llvm.func @main(%f: !llvm.ptr) -> i32 {
  %c = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.call @leaf(%c) : (i32) -> i32
  %b = llvm.call @ext(%a) : (i32) -> i32
  %d = llvm.call @inl(%b) : (i32) -> i32
  %e = llvm.call @leaf(%d) : (i32) -> i32
  %g = llvm.call %f(%e) : !llvm.ptr, (i32) -> i32
  llvm.return %g : i32
}
// CHECK: llvm.mlir.global external thread_local @__phaedrus_site() {{.*}} : i32
// CHECK: llvm.mlir.global external thread_local @__phaedrus_cursor() {{.*}} : !llvm.ptr
// CHECK-NOT: __phaedrus_limit
// The slow paths tell LLVM's inliner that a record costs one instruction
// (5): the bonus gives back the rest of what its cost model charges, 30 for
// a one-word record, 40 for a three-word one.
// CHECK: llvm.func preserve_mostcc @__phaedrus_record_slow(i32) attributes {passthrough = {{\[}}["call-inline-cost", "0"], ["call-threshold-bonus", "25"]]}
// CHECK: llvm.func preserve_mostcc @__phaedrus_record_path_slow(i32, i32, i32) attributes {passthrough = {{\[}}["call-inline-cost", "0"], ["call-threshold-bonus", "35"]]}
// CHECK: llvm.mlir.global internal constant @__phaedrus_vocabulary_text("0\09function\09leaf\0A1\09function\09main\0A2\09call_site\09main\090\09leaf\0A3\09call_site\09main\091\09leaf\0A4\09group\09main\090\092,3\0A")
// The fourth argument: function granularity (0) with narrow events (256).
// CHECK-LABEL: llvm.func internal @__phaedrus_module_init()
// CHECK: %[[LAYOUT:.*]] = llvm.mlir.constant(256 : i32) : i32
// CHECK-NEXT: llvm.call @__phaedrus_register(%{{.*}}, %{{.*}}, %{{.*}}, %[[LAYOUT]]) : (!llvm.ptr, i64, i64, i32) -> ()
// WIDE-LABEL: llvm.func internal @__phaedrus_module_init()
// WIDE: %[[LAYOUT:.*]] = llvm.mlir.constant(0 : i32) : i32
// WIDE-NEXT: llvm.call @__phaedrus_register(%{{.*}}, %{{.*}}, %{{.*}}, %[[LAYOUT]])
// CHECK: llvm.mlir.global_ctors ctors = [@__phaedrus_module_init], priorities = [0 : i32]

// LLVM: @__phaedrus_site = external dso_local thread_local global i32
// LLVM: @__phaedrus_cursor = external dso_local thread_local global ptr
// LLVM: @llvm.global_ctors = appending global {{.*}} [{ i32, ptr, ptr } { i32 0, ptr @__phaedrus_module_init, ptr null }]
// LLVM: define i32 @leaf(i32 %0) {
// LLVM-NEXT: load i32, ptr @__phaedrus_site
// LLVM: store i32 3, ptr @__phaedrus_site
// LLVM: declare preserve_mostcc void @__phaedrus_record_slow(i32) #[[NEUTRAL:[0-9]+]]
// LLVM: attributes #[[NEUTRAL]] = { "call-inline-cost"="0" "call-threshold-bonus"="25" }

// -----

// Existing constructors are kept.
// CHECK: llvm.mlir.global_ctors ctors = [@setup, @__phaedrus_module_init], priorities = [101 : i32, 0 : i32]
llvm.mlir.global_ctors ctors = [@setup], priorities = [101 : i32], data = [#llvm.zero]
llvm.func @setup() {
  llvm.return
}

// -----

// An internal function entered only by direct calls: the caller records the
// call-site token (id 3: @main[0] -> @helper) inline before the call, and
// @helper records nothing. @cb is internal but address-taken, so it keeps
// its entry hook and its caller the thread-local hand-over (id 4 + 1).
// CHECK-LABEL: llvm.func internal @cb()
// CHECK: llvm.mlir.addressof @__phaedrus_site
// CHECK-LABEL: llvm.func internal @helper()
// CHECK-NOT: __phaedrus
// CHECK: llvm.return
// No call site hands a token to @main: it records its own (2), a
// constant, and does not touch __phaedrus_site at entry.
// CHECK-LABEL: llvm.func @main()
// CHECK-NOT: __phaedrus_site
// CHECK: %[[OWN:.*]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: %[[OWNHALF:.*]] = llvm.trunc %[[OWN]] : i32 to i16
// CHECK-NOT: __phaedrus_site
// CHECK: %[[SITE:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[HALF:.*]] = llvm.trunc %[[SITE]] : i32 to i16
// CHECK-NEXT: llvm.store %[[HALF]], %{{.*}} {alignment = 2 : i64} : i16, !llvm.ptr
// CHECK: llvm.call preserve_mostcc @__phaedrus_record_slow(%[[SITE]])
// CHECK: llvm.call @helper()
// CHECK-NEXT: %[[PTR:.*]] = llvm.mlir.addressof @__phaedrus_site
// CHECK-NEXT: %[[PENDING:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-NEXT: llvm.store %[[PENDING]], %[[PTR]] : i32, !llvm.ptr
// CHECK-NEXT: llvm.call @cb()
llvm.func internal @cb() {
  llvm.return
}
llvm.func internal @helper() {
  llvm.return
}
llvm.func @main() -> !llvm.ptr {
  llvm.call @helper() : () -> ()
  llvm.call @cb() : () -> ()
  %f = llvm.mlir.addressof @cb : !llvm.ptr
  llvm.return %f : !llvm.ptr
}
