// The instrumentation's own memory (the pending call site, the cursor and
// limit, the event buffers) gets TBAA types of its own under clang's root
// when the program carries clang's TBAA, so that LLVM keeps the program's
// values in registers across a record; a program without TBAA gets none.
// RUN: phaedrus-opt %s --split-input-file --phaedrus-instrument=direct-copies=false | FileCheck %s
// RUN: phaedrus-opt %s --split-input-file --phaedrus-instrument=direct-copies=false --phaedrus-strip \
// RUN:   | mlir-translate --split-input-file --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// CHECK-DAG: #[[ROOT:.*]] = #llvm.tbaa_root<id = "Simple C/C++ TBAA">
// CHECK-DAG: #[[CHAR:.*]] = #llvm.tbaa_type_desc<id = "omnipotent char", members = {<#[[ROOT]], 0>}>
// CHECK-DAG: #[[INT:.*]] = #llvm.tbaa_type_desc<id = "int", members = {<#[[CHAR]], 0>}>
// CHECK-DAG: #[[SITE:.*]] = #llvm.tbaa_type_desc<id = "phaedrus pending site", members = {<#[[CHAR]], 0>}>
// CHECK-DAG: #[[CURSOR:.*]] = #llvm.tbaa_type_desc<id = "phaedrus cursor", members = {<#[[CHAR]], 0>}>
// CHECK-DAG: #[[EVENT:.*]] = #llvm.tbaa_type_desc<id = "phaedrus event", members = {<#[[CHAR]], 0>}>
// CHECK-DAG: #[[SITE_TAG:.*]] = #llvm.tbaa_tag<base_type = #[[SITE]], access_type = #[[SITE]], offset = 0>
// CHECK-DAG: #[[CURSOR_TAG:.*]] = #llvm.tbaa_tag<base_type = #[[CURSOR]], access_type = #[[CURSOR]], offset = 0>
// CHECK-DAG: #[[EVENT_TAG:.*]] = #llvm.tbaa_tag<base_type = #[[EVENT]], access_type = #[[EVENT]], offset = 0>
// CHECK-LABEL: llvm.func @leaf(
// CHECK: llvm.load {{.*}} {alignment = 4 : i64, tbaa = [#[[SITE_TAG]]]} : !llvm.ptr -> i32
// CHECK: llvm.store {{.*}} {alignment = 4 : i64, tbaa = [#[[SITE_TAG]]]} : i32, !llvm.ptr
// CHECK: llvm.load {{.*}} {alignment = 8 : i64, tbaa = [#[[CURSOR_TAG]]]} : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.store {{.*}} {alignment = 2 : i64, tbaa = [#[[EVENT_TAG]]]} : i16, !llvm.ptr
// CHECK: llvm.store {{.*}} {alignment = 8 : i64, tbaa = [#[[CURSOR_TAG]]]} : !llvm.ptr, !llvm.ptr
// CHECK-LABEL: llvm.func @main(
// CHECK: llvm.store {{.*}} {tbaa = [#[[SITE_TAG]]]} : i32, !llvm.ptr
// LLVM: store i16 %{{.*}}, ptr %{{.*}}, align 2, !tbaa ![[EV:[0-9]+]]
// LLVM-DAG: ![[EV]] = !{![[EVT:[0-9]+]], ![[EVT]], i64 0}
// LLVM-DAG: ![[EVT]] = !{!"phaedrus event", ![[C:[0-9]+]], i64 0}
// LLVM-DAG: ![[C]] = !{!"omnipotent char", ![[R:[0-9]+]], i64 0}
// LLVM-DAG: ![[R]] = !{!"Simple C/C++ TBAA"}
#root = #llvm.tbaa_root<id = "Simple C/C++ TBAA">
#char = #llvm.tbaa_type_desc<id = "omnipotent char", members = {<#root, 0>}>
#int = #llvm.tbaa_type_desc<id = "int", members = {<#char, 0>}>
#int_tag = #llvm.tbaa_tag<base_type = #int, access_type = #int, offset = 0>
module {
  llvm.func @leaf(%p: !llvm.ptr) -> i32 {
    %v = llvm.load %p {alignment = 4 : i64, tbaa = [#int_tag]} : !llvm.ptr -> i32
    llvm.return %v : i32
  }
  llvm.func @main(%p: !llvm.ptr) -> i32 {
    %a = llvm.call @leaf(%p) : (!llvm.ptr) -> i32
    llvm.return %a : i32
  }
}

// -----

// No TBAA in the program: none in the instrumentation either.
// CHECK-LABEL: llvm.func @leaf(
// CHECK-NOT: tbaa
// CHECK-LABEL: llvm.func @main(
// CHECK-NOT: tbaa
// CHECK-LABEL: llvm.func internal @__phaedrus_module_init
module {
  llvm.func @leaf(%p: !llvm.ptr) -> i32 {
    %v = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> i32
    llvm.return %v : i32
  }
  llvm.func @main(%p: !llvm.ptr) -> i32 {
    %a = llvm.call @leaf(%p) : (!llvm.ptr) -> i32
    llvm.return %a : i32
  }
}
