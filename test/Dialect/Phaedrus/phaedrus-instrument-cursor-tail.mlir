// The event cursor in registers (phaedrus-instrument-cursor.mlir) with
// exceptions, musttail calls and naked functions.
// RUN: phaedrus-opt %s --phaedrus-instrument --verify-diagnostics | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-instrument --phaedrus-strip \
// RUN:   | mlir-translate --mlir-to-llvmir | opt -S -passes=sroa \
// RUN:   | FileCheck %s --check-prefix=OPT

// Exceptions and musttail. @thrower invokes @callee: a function with an
// unwind edge is left as it was (its records use the thread-local), and
// its callee enters with its own hook. @tailer's musttail call to @tailee
// needs equal signatures: neither carries the cursor, the thread-local is
// stored before the call and nothing follows it but the return.
// @helper, entered only by @thrower's plain call, does not carry the
// cursor either: @thrower has none to pass.
// CHECK-LABEL: llvm.func internal @helper(%arg0: i32) -> i32 {
// CHECK-LABEL: llvm.func @thrower(
// CHECK-NOT: llvm.alloca
// CHECK: llvm.mlir.addressof @__phaedrus_cursor
// CHECK: llvm.call @helper(%arg0) : (i32) -> i32
// CHECK: llvm.invoke @callee(%arg0)
// CHECK-LABEL: llvm.func internal @tailee(%arg0: i32) -> i32
// CHECK-LABEL: llvm.func internal @tailer(%arg0: i32) -> i32
// CHECK: %[[T:.*]] = llvm.call musttail @tailee(%arg0) : (i32) -> i32
// CHECK-NEXT: llvm.return %[[T]] : i32
// @viastrlen records its entry; its musttail call of @strlen, which cannot
// record, still stores the thread-local first: nothing stores it after the
// call.
// A naked function's body is assembly: it cannot take or return the cursor.
// CHECK-LABEL: llvm.func internal @bare()
// CHECK-NOT: llvm.alloca
// CHECK: llvm.inline_asm
// OPT-LABEL: define internal i32 @tailer(
// OPT: phi ptr
// OPT-NEXT: store ptr %{{.*}}, ptr @__phaedrus_cursor
// OPT-NEXT: musttail call i32 @tailee(
// OPT-NEXT: ret i32
// OPT-LABEL: define i64 @viastrlen(
// OPT: phi ptr
// OPT-NEXT: store ptr %{{.*}}, ptr @__phaedrus_cursor
// OPT-NEXT: musttail call i64 @strlen(
// OPT-NEXT: ret i64
module {
  llvm.func internal @callee(%x: i32) -> i32 {
    llvm.return %x : i32
  }
  llvm.func internal @helper(%x: i32) -> i32 {
    llvm.return %x : i32
  }
  llvm.func @__gxx_personality_v0(...) -> i32
  llvm.func @thrower(%x: i32) -> i32 attributes {personality = @__gxx_personality_v0} {
    %h = llvm.call @helper(%x) : (i32) -> i32
    %r = llvm.invoke @callee(%x) to ^ok unwind ^lp : (i32) -> i32
  ^ok:
    llvm.return %r : i32
  ^lp:
    %l = llvm.landingpad cleanup : !llvm.struct<(ptr, i32)>
    llvm.resume %l : !llvm.struct<(ptr, i32)>
  }
  llvm.func internal @tailee(%x: i32) -> i32 {
    llvm.return %x : i32
  }
  llvm.func internal @tailer(%x: i32) -> i32 {
    %r = llvm.call musttail @tailee(%x) : (i32) -> i32
    llvm.return %r : i32
  }
  llvm.func @strlen(!llvm.ptr) -> i64 attributes {memory_effects = #llvm.memory_effects<other = read, argMem = read, inaccessibleMem = read, errnoMem = read, targetMem0 = read, targetMem1 = read>}
  llvm.func @viastrlen(%s: !llvm.ptr) -> i64 {
    %n = llvm.call musttail @strlen(%s) : (!llvm.ptr) -> i64
    llvm.return %n : i64
  }
  llvm.func internal @bare() attributes {passthrough = ["naked", "noinline"]} {
    llvm.inline_asm has_side_effects "ret", "" : () -> ()
    llvm.unreachable
  }
  llvm.func @main(%x: i32, %s: !llvm.ptr) -> i32 {
    %a = llvm.call @thrower(%x) : (i32) -> i32
    %b = llvm.call @tailer(%a) : (i32) -> i32
    %n = llvm.call @viastrlen(%s) : (!llvm.ptr) -> i64
    llvm.call @bare() : () -> ()
    llvm.return %b : i32
  }
}
