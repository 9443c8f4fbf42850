// The event cursor in registers (thread-cursor, the default): each function
// keeps the cursor in a local, and functions entered only by direct calls
// from the module take it as a last argument and return it with their
// result, so that consecutive records pass it in registers instead of
// through the thread-local (a store-to-load chain of about five cycles per
// record). The thread-local is current around every other call and at the
// returns of functions entered from outside.
// RUN: phaedrus-opt %s --phaedrus-instrument --verify-diagnostics | FileCheck %s
// After LLVM's SROA the local is a register: the cursor a call returns is
// what the next record stores at, and only a function entered from outside
// (and a slow path) loads the thread-local.
// RUN: phaedrus-opt %s --phaedrus-instrument --phaedrus-strip \
// RUN:   | mlir-translate --mlir-to-llvmir | opt -S -passes=sroa \
// RUN:   | FileCheck %s --check-prefix=OPT
// RUN: phaedrus-opt %s --phaedrus-instrument=thread-cursor=false \
// RUN:   | FileCheck %s --check-prefix=OFF

// @inc (internal, called directly) returns {result, cursor}; @tick
// (internal, void) returns the cursor; @pair returns a struct that does
// not fit beside the cursor, @make returns one through an sret argument
// (LLVM requires it to return void) and @vsum takes varargs: they keep their
// signatures, and calls to them store the cursor to the thread-local first
// and reload it after, as do calls to external functions (@puts) and
// indirect calls. A declared function that writes no reachable memory
// (@strlen: memory_effects other = read) or the C library's allocation
// functions (@free) cannot record, and need no such sync.
// CHECK-LABEL: llvm.func internal @inc(%arg0: i32, %arg1: !llvm.ptr) -> !llvm.struct<(i32, ptr)>
// CHECK: %[[SLOT:.*]] = llvm.alloca
// CHECK-NEXT: llvm.store %arg1, %[[SLOT]]
// CHECK: %[[CUR:.*]] = llvm.load %[[SLOT]]
// CHECK: %[[P:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[0] : !llvm.struct<(i32, ptr)>
// CHECK: %[[Q:.*]] = llvm.insertvalue %[[CUR]], %[[P]][1] : !llvm.struct<(i32, ptr)>
// CHECK: llvm.return %[[Q]] : !llvm.struct<(i32, ptr)>
// CHECK-LABEL: llvm.func internal @tick(%arg0: i32, %arg1: !llvm.ptr) -> !llvm.ptr
// CHECK: llvm.call @inc(%arg0, %{{.*}}) : (i32, !llvm.ptr) -> !llvm.struct<(i32, ptr)>
// CHECK: llvm.return %{{.*}} : !llvm.ptr
// CHECK-LABEL: llvm.func internal @pair(%arg0: i32) -> !llvm.struct<(i64, i64, i64)>
// CHECK: llvm.mlir.addressof @__phaedrus_cursor
// CHECK-LABEL: llvm.func internal @make(%arg0: !llvm.ptr {llvm.sret = !llvm.struct<(i64, i64, i64)>}, %arg1: i64) {
// CHECK-NEXT: llvm.store
// CHECK-NEXT: llvm.return
// CHECK-LABEL: llvm.func internal @vsum(%arg0: i32, ...) -> i32
// CHECK-NOT: __phaedrus_cursor
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @main(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32
// CHECK: %[[CURSOR:.*]] = llvm.mlir.addressof @__phaedrus_cursor
// CHECK-NEXT: %[[ENTRY:.*]] = llvm.load %[[CURSOR]]
// CHECK: llvm.call @tick(%{{.*}}, %{{.*}}) : (i32, !llvm.ptr) -> !llvm.ptr
// CHECK: llvm.call @pair(
// CHECK-NEXT: llvm.mlir.addressof @__phaedrus_cursor
// CHECK-NEXT: llvm.load
// CHECK: llvm.call @make(%{{.*}}, %{{.*}}) : (!llvm.ptr, i64) -> ()
// CHECK-NEXT: llvm.mlir.addressof @__phaedrus_cursor
// CHECK-NEXT: llvm.load

// OPT-LABEL: define internal ptr @tick(i32 %0, ptr %1)
// OPT-NEXT: ptrtoint ptr %1 to i64
// OPT: store i16 11, ptr %1, align 2
// OPT: phi ptr
// OPT-NEXT: call { i32, ptr } @inc(i32 %0, ptr
// OPT-NEXT: extractvalue { i32, ptr } %{{.*}}, 0
// OPT-NEXT: %[[C2:.*]] = extractvalue { i32, ptr } %{{.*}}, 1
// OPT-NEXT: ptrtoint ptr %[[C2]] to i64
// OPT: store i16 12, ptr %[[C2]], align 2
// OPT-LABEL: define i32 @main(
// OPT-NEXT: %[[E:.*]] = load ptr, ptr @__phaedrus_cursor
// OPT-NEXT: ptrtoint ptr %[[E]] to i64
// OPT: %[[T:.*]] = call ptr @tick(i32 3, ptr
// OPT-NEXT: ptrtoint ptr %[[T]] to i64
// OPT: phi ptr
// OPT: store ptr %{{.*}}, ptr @__phaedrus_cursor
// OPT-NEXT: call { i64, i64, i64 } @pair(i32 3)
// OPT-NEXT: load ptr, ptr @__phaedrus_cursor
// OPT: phi ptr
// OPT-NEXT: store ptr %{{.*}}, ptr @__phaedrus_cursor
// OPT-NEXT: call void @make(ptr
// OPT-NEXT: load ptr, ptr @__phaedrus_cursor
// OPT: phi ptr
// OPT-NEXT: store ptr %{{.*}}, ptr @__phaedrus_cursor
// OPT-NEXT: call i32 (i32, ...) @vsum(i32 3, i32 3)
// OPT-NEXT: %[[AFTER:.*]] = load ptr, ptr @__phaedrus_cursor
// OPT-NEXT: call i64 @strlen(
// OPT-NEXT: call void @free(
// OPT-NEXT: store ptr %[[AFTER]], ptr @__phaedrus_cursor
// OPT-NEXT: call i32 @puts(
// OPT-NEXT: load ptr, ptr @__phaedrus_cursor
// OPT-NEXT: store ptr %{{.*}}, ptr @__phaedrus_cursor
// OPT-NEXT: call void %1()
// OPT-NEXT: %[[LAST:.*]] = load ptr, ptr @__phaedrus_cursor
// OPT-NEXT: store ptr %[[LAST]], ptr @__phaedrus_cursor
// OPT-NEXT: ret i32

// Without it every function keeps its signature.
// OFF-LABEL: llvm.func internal @inc(%arg0: i32) -> i32
// OFF-LABEL: llvm.func internal @tick(%arg0: i32) {
// OFF-NOT: llvm.alloca
// OFF: llvm.call @inc(%arg0) : (i32) -> i32
module {
  llvm.func internal @inc(%x: i32) -> i32 {
    %one = llvm.mlir.constant(1 : i32) : i32
    %y = llvm.add %x, %one : i32
    llvm.return %y : i32
  }
  llvm.func internal @tick(%x: i32) {
    %a = llvm.call @inc(%x) : (i32) -> i32
    %b = llvm.call @inc(%a) : (i32) -> i32
    llvm.return
  }
  llvm.func internal @pair(%x: i32) -> !llvm.struct<(i64, i64, i64)> {
    %a = llvm.call @inc(%x) : (i32) -> i32
    %u = llvm.mlir.undef : !llvm.struct<(i64, i64, i64)>
    llvm.return %u : !llvm.struct<(i64, i64, i64)>
  }
  llvm.func internal @make(%r: !llvm.ptr {llvm.sret = !llvm.struct<(i64, i64, i64)>}, %x: i64) {
    llvm.store %x, %r : i64, !llvm.ptr
    llvm.return
  }
  llvm.func internal @vsum(%n: i32, ...) -> i32 {
    llvm.return %n : i32
  }
  llvm.func @puts(!llvm.ptr) -> i32
  llvm.func @strlen(!llvm.ptr) -> i64 attributes {memory_effects = #llvm.memory_effects<other = read, argMem = read, inaccessibleMem = read, errnoMem = read, targetMem0 = read, targetMem1 = read>}
  llvm.func @free(!llvm.ptr)
  llvm.func @main(%s: !llvm.ptr, %f: !llvm.ptr) -> i32 {
    %c = llvm.mlir.constant(3 : i32) : i32
    llvm.call @tick(%c) : (i32) -> ()
    %p = llvm.call @pair(%c) : (i32) -> !llvm.struct<(i64, i64, i64)>
    %one = llvm.mlir.constant(1 : i64) : i64
    %slot = llvm.alloca %one x !llvm.struct<(i64, i64, i64)> : (i64) -> !llvm.ptr
    llvm.call @make(%slot, %one) : (!llvm.ptr, i64) -> ()
    %v = llvm.call @vsum(%c, %c) vararg(!llvm.func<i32 (i32, ...)>) : (i32, i32) -> i32
    %n = llvm.call @strlen(%s) : (!llvm.ptr) -> i64
    llvm.call @free(%s) : (!llvm.ptr) -> ()
    %r = llvm.call @puts(%s) : (!llvm.ptr) -> i32
    llvm.call %f() : !llvm.ptr, () -> ()
    llvm.return %v : i32
  }
}
