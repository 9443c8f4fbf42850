// A function with debug lines, as 'phaedrus ir -gline-tables-only' makes
// it, measured: `if (g() && c) return g();` on line 11 (two blocks on one
// line), `h(); h();` on line 12 (two calls on one line in one block), a
// branch the profile leaves open on line 13 (a line with nothing but the
// branch, which the sample loader does not weigh), whose successors share
// line 14.
#file = #llvm.di_file<"t.c" in "/tmp">
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C11, file = #file, isOptimized = true, emissionKind = LineTablesOnly>
#type = #llvm.di_subroutine_type<>
#sp = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #cu, scope = #file, name = "f", file = #file, line = 10, scopeLine = 10, subprogramFlags = "Definition|Optimized", type = #type>
#spz = #llvm.di_subprogram<id = distinct[2]<>, compileUnit = #cu, scope = #file, name = "z", file = #file, line = 20, scopeLine = 20, subprogramFlags = "Definition|Optimized", type = #type>
#l10 = loc("t.c":10:0)
#l20 = loc("t.c":20:0)
#l21 = loc("t.c":21:3)
#l22 = loc("t.c":22:5)
#l23 = loc("t.c":23:3)
#l11 = loc("t.c":11:7)
#l12 = loc("t.c":12:3)
#l13 = loc("t.c":13:3)
#l14 = loc("t.c":14:5)
module {
  llvm.func @g() -> i32
  llvm.func @h()
  llvm.func @f(%c: i1, %d: i1) -> i32 attributes {phaedrus.entry_count = #phaedrus.entry_count<12, measured, confidence = 1.0>} {
    %zero = llvm.mlir.constant(0 : i32) : i32 loc(fused<#sp>[#l14])
    %v = llvm.call @g() : () -> i32 loc(fused<#sp>[#l11])
    llvm.cond_br %c, ^bb1, ^bb2 {phaedrus.branch_weights = #phaedrus.branch_weights<[3, 9], measured, confidence = 1.0>} loc(fused<#sp>[#l11])
  ^bb1:
    %r = llvm.call @g() : () -> i32 loc(fused<#sp>[#l11])
    llvm.return %r : i32 loc(fused<#sp>[#l11])
  ^bb2:
    llvm.call @h() : () -> () loc(fused<#sp>[#l12])
    llvm.call @h() : () -> () loc(fused<#sp>[#l12])
    llvm.cond_br %d, ^bb3, ^bb4 loc(fused<#sp>[#l13])
  ^bb3:
    llvm.call @h() : () -> () loc(fused<#sp>[#l14])
    llvm.return %zero : i32 loc(fused<#sp>[#l14])
  ^bb4:
    llvm.return %zero : i32 loc(fused<#sp>[#l14])
  } loc(fused<#sp>[#l10])
  // Never entered, with weights a blend left in its loop: all of it 0.
  llvm.func @z(%c: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<0, model, confidence = 0.5>} {
    llvm.br ^loop loc(fused<#spz>[#l21])
  ^loop:
    llvm.call @h() : () -> () loc(fused<#spz>[#l22])
    llvm.cond_br %c, ^loop, ^exit {phaedrus.branch_weights = #phaedrus.branch_weights<[1205, 3], model, confidence = 0.5>} loc(fused<#spz>[#l22])
  ^exit:
    llvm.return loc(fused<#spz>[#l23])
  } loc(fused<#spz>[#l20])
}
