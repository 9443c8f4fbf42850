// A module with debug lines ('phaedrus ir --cflags -gline-tables-only'): a
// direct-entry copy cannot share its original's debug subprogram (LLVM
// refuses one attached to two functions, "DISubprogram attached to more
// than one function"), so the copy goes without debug lines and the
// original keeps them.
// RUN: phaedrus-opt %s --phaedrus-instrument --phaedrus-strip --mlir-print-debuginfo \
// RUN:   | phaedrus-translate --mlir-to-llvmir | FileCheck %s
// CHECK: define i32 @f() !dbg ![[F:[0-9]+]] {
// CHECK: define internal { i32, ptr } @__phaedrus_direct.f(ptr %0) {
// CHECK-NOT: !dbg
// CHECK: define i32 @main() !dbg
// CHECK: ![[F]] = distinct !DISubprogram(name: "f"
#file = #llvm.di_file<"t.c" in "/tmp">
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C11, file = #file, isOptimized = true, emissionKind = LineTablesOnly>
#type = #llvm.di_subroutine_type<>
#spf = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #cu, scope = #file, name = "f", file = #file, line = 1, scopeLine = 1, subprogramFlags = "Definition|Optimized", type = #type>
#spm = #llvm.di_subprogram<id = distinct[2]<>, compileUnit = #cu, scope = #file, name = "main", file = #file, line = 5, scopeLine = 5, subprogramFlags = "Definition|Optimized", type = #type>
module {
  llvm.func @f() -> i32 {
    %0 = llvm.mlir.constant(1 : i32) : i32
    llvm.return %0 : i32 loc(fused<#spf>["t.c":2:3])
  } loc(fused<#spf>["t.c":1:0])
  llvm.func @main() -> i32 {
    %0 = llvm.call @f() : () -> i32 loc(fused<#spm>["t.c":6:10])
    llvm.return %0 : i32 loc(fused<#spm>["t.c":6:3])
  } loc(fused<#spm>["t.c":5:0])
}
