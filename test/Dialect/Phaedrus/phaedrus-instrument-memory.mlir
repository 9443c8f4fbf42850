// Recording writes memory, so an instrumented function loses a
// `memory_effects` that says it writes none (clang's, for
// `__attribute__((const))` or `pure`), and so do calls of it: otherwise
// LLVM merges two calls of @twice that it sees through @main's function
// pointer into one, and one entry goes unrecorded.
// RUN: phaedrus-opt %s --phaedrus-instrument | FileCheck %s
// RUN: phaedrus-opt %s --phaedrus-instrument --phaedrus-strip \
// RUN:   | mlir-translate --mlir-to-llvmir | opt -S -O2 | FileCheck %s --check-prefix=OPT

// CHECK-LABEL: llvm.func @twice(
// CHECK-NOT: memory_effects
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @main(
// CHECK-NOT: memory_effects
// CHECK: llvm.return
// OPT-LABEL: @main(
// OPT: call i32 @twice(
// OPT: call i32 @twice(
module {
  llvm.func @twice(%x: i32) -> i32 attributes {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>, no_unwind, passthrough = ["noinline"]} {
    %one = llvm.mlir.constant(1 : i32) : i32
    %y = llvm.add %x, %one : i32
    llvm.return %y : i32
  }
  llvm.func @main(%x: i32) -> i32 {
    %f = llvm.mlir.addressof @twice : !llvm.ptr
    %a = llvm.call %f(%x) {memory_effects = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none, errnoMem = none, targetMem0 = none, targetMem1 = none>} : !llvm.ptr, (i32) -> i32
    %b = llvm.call %f(%x) : !llvm.ptr, (i32) -> i32
    %c = llvm.add %a, %b : i32
    llvm.return %c : i32
  }
}
