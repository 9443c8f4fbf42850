// Records cannot make inlining run away. A tree of calls, each of 14
// functions calling the one below twice and the leaf at the bottom doing
// arithmetic: the plain program folds to a few instructions, but every call
// in the instrumented one keeps its record, 2^15 of them were the whole
// tree inlined into main. With the slow paths' threshold bonus at 40, a
// record made a function 10 cheaper to inline and `opt -O2` inlined the
// tree whole (98,287 slow paths; a C++ program, yaml-cpp, did not compile
// in an hour). With the bonus one instruction short of a record's cost
// (25), 211 are left. (This tree compiled from C by clang was inlined whole
// with the bonus at exactly the cost, 30, too.)
// RUN: phaedrus-opt %s --phaedrus-instrument | phaedrus-opt --phaedrus-strip \
// RUN:   | phaedrus-translate --mlir-to-llvmir | opt -O2 -S > %t.ll
// RUN: grep -c "call .*@__phaedrus_record_slow" %t.ll | FileCheck %s
// CHECK: {{^[1-9][0-9]{0,2}$}}

llvm.func @leaf(%x: i32) -> i32 {
  %c3 = llvm.mlir.constant(3 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %m = llvm.mul %x, %c3 : i32
  %r = llvm.add %m, %c1 : i32
  llvm.return %r : i32
}
llvm.func @f0(%x: i32) -> i32 {
  %c = llvm.mlir.constant(1 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @leaf(%x) : (i32) -> i32
  %b = llvm.call @leaf(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f1(%x: i32) -> i32 {
  %c = llvm.mlir.constant(2 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f0(%x) : (i32) -> i32
  %b = llvm.call @f0(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f2(%x: i32) -> i32 {
  %c = llvm.mlir.constant(3 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f1(%x) : (i32) -> i32
  %b = llvm.call @f1(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f3(%x: i32) -> i32 {
  %c = llvm.mlir.constant(4 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f2(%x) : (i32) -> i32
  %b = llvm.call @f2(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f4(%x: i32) -> i32 {
  %c = llvm.mlir.constant(5 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f3(%x) : (i32) -> i32
  %b = llvm.call @f3(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f5(%x: i32) -> i32 {
  %c = llvm.mlir.constant(6 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f4(%x) : (i32) -> i32
  %b = llvm.call @f4(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f6(%x: i32) -> i32 {
  %c = llvm.mlir.constant(7 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f5(%x) : (i32) -> i32
  %b = llvm.call @f5(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f7(%x: i32) -> i32 {
  %c = llvm.mlir.constant(8 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f6(%x) : (i32) -> i32
  %b = llvm.call @f6(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f8(%x: i32) -> i32 {
  %c = llvm.mlir.constant(9 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f7(%x) : (i32) -> i32
  %b = llvm.call @f7(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f9(%x: i32) -> i32 {
  %c = llvm.mlir.constant(10 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f8(%x) : (i32) -> i32
  %b = llvm.call @f8(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f10(%x: i32) -> i32 {
  %c = llvm.mlir.constant(11 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f9(%x) : (i32) -> i32
  %b = llvm.call @f9(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f11(%x: i32) -> i32 {
  %c = llvm.mlir.constant(12 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f10(%x) : (i32) -> i32
  %b = llvm.call @f10(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f12(%x: i32) -> i32 {
  %c = llvm.mlir.constant(13 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f11(%x) : (i32) -> i32
  %b = llvm.call @f11(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @f13(%x: i32) -> i32 {
  %c = llvm.mlir.constant(14 : i32) : i32
  %y = llvm.add %x, %c : i32
  %a = llvm.call @f12(%x) : (i32) -> i32
  %b = llvm.call @f12(%y) : (i32) -> i32
  %s = llvm.add %a, %b : i32
  llvm.return %s : i32
}
llvm.func @main(%argc: i32, %argv: !llvm.ptr) -> i32 {
  %r = llvm.call @f13(%argc) : (i32) -> i32
  llvm.return %r : i32
}
