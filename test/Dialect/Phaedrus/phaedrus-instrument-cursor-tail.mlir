// The event cursor in registers (phaedrus-instrument-cursor.mlir) with
// exceptions and musttail calls.
// RUN: phaedrus-opt %s --phaedrus-instrument --verify-diagnostics | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-instrument --phaedrus-strip \
// RUN:   | mlir-translate --mlir-to-llvmir | opt -S -passes=sroa \
// RUN:   | FileCheck %s --check-prefix=OPT

// Exceptions and musttail. @thrower invokes @callee: a function with an
// unwind edge is left as it was (its records use the thread-local), and
// its callee enters with its own hook. @tailer's musttail call to @tailee
// needs equal signatures: neither carries the cursor, the thread-local is
// stored before the call and nothing follows it but the return.
// CHECK-LABEL: llvm.func @thrower(
// CHECK-NOT: llvm.alloca
// CHECK: llvm.mlir.addressof @__phaedrus_cursor
// CHECK: llvm.invoke @callee(%arg0)
// CHECK-LABEL: llvm.func internal @tailee(%arg0: i32) -> i32
// CHECK-LABEL: llvm.func internal @tailer(%arg0: i32) -> i32
// CHECK: %[[T:.*]] = llvm.call musttail @tailee(%arg0) : (i32) -> i32
// CHECK-NEXT: llvm.return %[[T]] : i32
// OPT-LABEL: define internal i32 @tailer(
// OPT: phi ptr
// OPT-NEXT: store ptr %{{.*}}, ptr @__phaedrus_cursor
// OPT-NEXT: musttail call i32 @tailee(
// OPT-NEXT: ret i32
module {
  llvm.func internal @callee(%x: i32) -> i32 {
    llvm.return %x : i32
  }
  llvm.func @__gxx_personality_v0(...) -> i32
  llvm.func @thrower(%x: i32) -> i32 attributes {personality = @__gxx_personality_v0} {
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
  llvm.func @main(%x: i32) -> i32 {
    %a = llvm.call @thrower(%x) : (i32) -> i32
    %b = llvm.call @tailer(%a) : (i32) -> i32
    llvm.return %b : i32
  }
}
