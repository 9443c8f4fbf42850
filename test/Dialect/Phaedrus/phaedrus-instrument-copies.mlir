// RUN: phaedrus-opt %s --split-input-file --phaedrus-instrument=thread-cursor=false --verify-diagnostics | FileCheck %s
// RUN: phaedrus-opt %s --split-input-file --phaedrus-instrument="granularity=path thread-cursor=false" --verify-diagnostics | FileCheck %s --check-prefix=PATH
// The copies translate to valid LLVM IR.
// RUN: phaedrus-opt %s --split-input-file --phaedrus-instrument --phaedrus-strip --verify-diagnostics \
// RUN:   | mlir-translate --split-input-file --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// Direct-entry copies. @leaf and @mid are external (other code may enter
// them) and also called directly: each gets an internal copy without an
// entry hook. Direct calls go to the copies and record their call-site token
// inline right before the call (ids: 0 @leaf, 1 @main, 2 @mid, 3 @main[0] ->
// @mid, 4 @main[1] -> @leaf, 5 @mid[0] -> @leaf); the copy of @mid calls the
// copy of @leaf with @mid[0]'s token. The originals keep an entry hook for
// the entries that do not come from a direct call, such as @main's indirect
// call; since no call site hands them a token, the hook records the
// function's own token, a constant, without reading __phaedrus_site.
// CHECK-LABEL: llvm.func @leaf(
// CHECK-NOT: __phaedrus_site
// CHECK: llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %[[OWN0:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.mlir.addressof @__phaedrus_cursor
// CHECK: llvm.trunc %[[OWN0]] : i32 to i16
// CHECK-NOT: __phaedrus_site
// CHECK: llvm.return
// CHECK-LABEL: llvm.func internal @__phaedrus_direct.leaf(
// CHECK-NOT: __phaedrus
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @main(
// CHECK: %[[T3:.*]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: %[[T3H:.*]] = llvm.trunc %[[T3]] : i32 to i16
// CHECK-NEXT: llvm.store %[[T3H]], %{{.*}} {alignment = 2 : i64} : i16, !llvm.ptr
// CHECK: llvm.call @__phaedrus_direct.mid(
// CHECK: %[[T4:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK: %[[T4H:.*]] = llvm.trunc %[[T4]] : i32 to i16
// CHECK-NEXT: llvm.store %[[T4H]], %{{.*}} {alignment = 2 : i64} : i16, !llvm.ptr
// CHECK: llvm.call @__phaedrus_direct.leaf(
// CHECK-NOT: __phaedrus_site
// CHECK: llvm.call %{{.*}}(
// CHECK-LABEL: llvm.func @mid(
// CHECK-NOT: __phaedrus_site
// CHECK: %[[M5:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK: %[[M5H:.*]] = llvm.trunc %[[M5]] : i32 to i16
// CHECK-NEXT: llvm.store %[[M5H]], %{{.*}} {alignment = 2 : i64} : i16, !llvm.ptr
// CHECK: llvm.call @__phaedrus_direct.leaf(
// CHECK-LABEL: llvm.func internal @__phaedrus_direct.mid(
// CHECK-NOT: llvm.mlir.addressof @__phaedrus_site
// CHECK: %[[C5:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK: %[[C5H:.*]] = llvm.trunc %[[C5]] : i32 to i16
// CHECK-NEXT: llvm.store %[[C5H]], %{{.*}} {alignment = 2 : i64} : i16, !llvm.ptr
// CHECK: llvm.call @__phaedrus_direct.leaf(

// At path granularity @leaf (no loop, no call, two paths) records its
// entry with its path, in one word at each return: 0x40000000 | entry
// token << 16 | path id (docs/TraceFormat.md), and nothing at entry. The
// original's entry token is its own (0); its copy takes the call-site token
// as an extra last argument, which its direct callers pass instead of
// recording it (@main[1]: 4, @mid[0]: 5). @mid makes a call, so it records
// its entry as before.
// PATH-LABEL: llvm.func @leaf(%arg0: i32) -> i32 {
// PATH-NOT: llvm.call
// PATH: %[[SHIFTED:.*]] = llvm.shl %[[OWN:.*]], %{{.*}} : i32
// PATH-NEXT: %[[ENTRY:.*]] = llvm.mlir.constant(1073741824 : i32) : i32
// PATH-NEXT: %[[BASE:.*]] = llvm.or %[[SHIFTED]], %[[ENTRY]] : i32
// PATH-NEXT: %[[WORD:.*]] = llvm.or %{{.*}}, %[[BASE]] : i32
// PATH-NOT: llvm.call
// PATH: llvm.call preserve_mostcc @__phaedrus_record_slow(%[[WORD]]) : (i32) -> ()
// PATH-NOT: __phaedrus_record_path_slow
// PATH-LABEL: llvm.func internal @__phaedrus_direct.leaf(%arg0: i32, %arg1: i32) -> i32 {
// PATH-NOT: llvm.call
// PATH: %[[CSHIFTED:.*]] = llvm.shl %arg1, %{{.*}} : i32
// PATH-NEXT: %[[CENTRY:.*]] = llvm.mlir.constant(1073741824 : i32) : i32
// PATH-NEXT: %[[CBASE:.*]] = llvm.or %[[CSHIFTED]], %[[CENTRY]] : i32
// PATH-NEXT: %[[CWORD:.*]] = llvm.or %{{.*}}, %[[CBASE]] : i32
// PATH-NOT: llvm.call
// PATH: llvm.call preserve_mostcc @__phaedrus_record_slow(%[[CWORD]]) : (i32) -> ()
// PATH-LABEL: llvm.func @main(
// PATH: %[[T4:.*]] = llvm.mlir.constant(4 : i32) : i32
// PATH-NEXT: %{{.*}} = llvm.call @__phaedrus_direct.leaf(%{{.*}}, %[[T4]]) : (i32, i32) -> i32
// PATH-LABEL: llvm.func @mid(
// PATH: llvm.mlir.constant(2 : i32) : i32
// PATH: %[[T5:.*]] = llvm.mlir.constant(5 : i32) : i32
// PATH-NEXT: %{{.*}} = llvm.call @__phaedrus_direct.leaf(%arg0, %[[T5]]) : (i32, i32) -> i32

// With the cursor in registers (the default, thread-cursor), the copies,
// entered only by direct calls, take the cursor as a last argument and
// return it with their result.
// LLVM: define internal { i32, ptr } @__phaedrus_direct.leaf(i32 %{{.*}}, ptr %{{.*}})
// LLVM: call { i32, ptr } @__phaedrus_direct.leaf(
llvm.func @leaf(%x: i32) -> i32 {
  %z = llvm.mlir.constant(0 : i32) : i32
  %c = llvm.icmp "slt" %x, %z : i32
  llvm.cond_br %c, ^neg, ^pos
^neg:
  %n = llvm.sub %z, %x : i32
  llvm.return %n : i32
^pos:
  llvm.return %x : i32
}
llvm.func @main(%f: !llvm.ptr) -> i32 {
  %c = llvm.mlir.constant(1 : i32) : i32
  %a = llvm.call @mid(%c) : (i32) -> i32
  %b = llvm.call @leaf(%a) : (i32) -> i32
  %g = llvm.call %f(%b) : !llvm.ptr, (i32) -> i32
  llvm.return %g : i32
}
llvm.func @mid(%x: i32) -> i32 {
  %a = llvm.call @leaf(%x) : (i32) -> i32
  llvm.return %a : i32
}

// -----

// A function that takes the address of its own blocks (computed goto, as
// Lua's interpreter loop does) gets no copy: the copy's llvm.blockaddress
// would name the original's blocks. Its direct callers use the hand-over,
// and its entry takes the pending token.
// CHECK-LABEL: llvm.func @dispatch(
// CHECK: llvm.mlir.addressof @__phaedrus_site
// CHECK-NOT: @__phaedrus_direct.dispatch
// CHECK-LABEL: llvm.func @main(
// CHECK: llvm.mlir.addressof @__phaedrus_site
// CHECK: llvm.call @dispatch(
llvm.func @dispatch() {
  %a = llvm.blockaddress <function = @dispatch, tag = <id = 1>> : !llvm.ptr
  llvm.indirectbr %a : !llvm.ptr, [
  ^target
  ]
^target:
  llvm.blocktag <id = 1>
  llvm.return
}
llvm.func @main() {
  llvm.call @dispatch() : () -> ()
  llvm.return
}

// -----

// A copy's name must be free.
llvm.func @__phaedrus_direct.f() {
  llvm.return
}
// expected-error @below {{phaedrus-instrument: cannot make the direct-entry copy of @f: @__phaedrus_direct.f exists}}
llvm.func @f() {
  llvm.return
}
llvm.func @main() {
  llvm.call @f() : () -> ()
  llvm.return
}
