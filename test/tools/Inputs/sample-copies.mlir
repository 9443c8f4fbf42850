// Static functions of a source file that another includes (lz4hc.c
// includes lz4.c): the whole-program module has a copy from each, which
// llvm-link renamed (@count, @count.3), both from lz4.c line 5. A build of
// the sources names both `count`: the export writes one record, their sum.
// @count.7 is a third copy, from a file that includes lz4.c by another
// path (../lib/lz4.c from /src/compress): the same file (a zstd user's
// header copies, spelled two ways, were kept apart).
// @helper and @helper.2 come from different files (a.c, b.c): different
// functions that merely share a name, which a build names alike, so that
// no record can be right for both: they get none.
#lz4 = #llvm.di_file<"lz4.c" in "/src/lib">
#lz4b = #llvm.di_file<"../lib/lz4.c" in "/src/compress">
#a = #llvm.di_file<"a.c" in "/src">
#b = #llvm.di_file<"b.c" in "/src">
#cu = #llvm.di_compile_unit<id = distinct[0]<>, sourceLanguage = DW_LANG_C11, file = #lz4, isOptimized = true, emissionKind = LineTablesOnly>
#type = #llvm.di_subroutine_type<>
#sp1 = #llvm.di_subprogram<id = distinct[1]<>, compileUnit = #cu, scope = #lz4, name = "count", file = #lz4, line = 5, scopeLine = 5, subprogramFlags = "Definition|Optimized", type = #type>
#sp2 = #llvm.di_subprogram<id = distinct[2]<>, compileUnit = #cu, scope = #lz4, name = "count", file = #lz4, line = 5, scopeLine = 5, subprogramFlags = "Definition|Optimized", type = #type>
#sp3 = #llvm.di_subprogram<id = distinct[5]<>, compileUnit = #cu, scope = #lz4b, name = "count", file = #lz4b, line = 5, scopeLine = 5, subprogramFlags = "Definition|Optimized", type = #type>
#spa = #llvm.di_subprogram<id = distinct[3]<>, compileUnit = #cu, scope = #a, name = "helper", file = #a, line = 3, scopeLine = 3, subprogramFlags = "Definition|Optimized", type = #type>
#spb = #llvm.di_subprogram<id = distinct[4]<>, compileUnit = #cu, scope = #b, name = "helper", file = #b, line = 3, scopeLine = 3, subprogramFlags = "Definition|Optimized", type = #type>
#l5 = loc("lz4.c":5:0)
#l6 = loc("lz4.c":6:3)
#l7 = loc("lz4.c":7:5)
#la3 = loc("a.c":3:0)
#la4 = loc("a.c":4:3)
#lb3 = loc("b.c":3:0)
#lb4 = loc("b.c":4:3)
module {
  llvm.func @h()
  llvm.func internal @count(%c: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<2, measured, confidence = 1.0>} {
    llvm.cond_br %c, ^bb1, ^bb2 {phaedrus.branch_weights = #phaedrus.branch_weights<[1, 1], measured, confidence = 1.0>} loc(fused<#sp1>[#l6])
  ^bb1:
    llvm.call @h() : () -> () loc(fused<#sp1>[#l7])
    llvm.return loc(fused<#sp1>[#l7])
  ^bb2:
    llvm.return loc(fused<#sp1>[#l6])
  } loc(fused<#sp1>[#l5])
  llvm.func internal @count.3(%c: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<100, measured, confidence = 1.0>} {
    llvm.cond_br %c, ^bb1, ^bb2 {phaedrus.branch_weights = #phaedrus.branch_weights<[90, 10], measured, confidence = 1.0>} loc(fused<#sp2>[#l6])
  ^bb1:
    llvm.call @h() : () -> () loc(fused<#sp2>[#l7])
    llvm.return loc(fused<#sp2>[#l7])
  ^bb2:
    llvm.return loc(fused<#sp2>[#l6])
  } loc(fused<#sp2>[#l5])
  llvm.func internal @count.7(%c: i1) attributes {phaedrus.entry_count = #phaedrus.entry_count<5, measured, confidence = 1.0>} {
    llvm.cond_br %c, ^bb1, ^bb2 {phaedrus.branch_weights = #phaedrus.branch_weights<[3, 2], measured, confidence = 1.0>} loc(fused<#sp3>[#l6])
  ^bb1:
    llvm.call @h() : () -> () loc(fused<#sp3>[#l7])
    llvm.return loc(fused<#sp3>[#l7])
  ^bb2:
    llvm.return loc(fused<#sp3>[#l6])
  } loc(fused<#sp3>[#l5])
  llvm.func internal @helper() attributes {phaedrus.entry_count = #phaedrus.entry_count<4, measured, confidence = 1.0>} {
    llvm.call @h() : () -> () loc(fused<#spa>[#la4])
    llvm.return loc(fused<#spa>[#la4])
  } loc(fused<#spa>[#la3])
  llvm.func internal @helper.2() attributes {phaedrus.entry_count = #phaedrus.entry_count<8, measured, confidence = 1.0>} {
    llvm.call @h() : () -> () loc(fused<#spb>[#lb4])
    llvm.return loc(fused<#spb>[#lb4])
  } loc(fused<#spb>[#lb3])
}
