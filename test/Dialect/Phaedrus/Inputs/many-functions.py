"""Prints an LLVM-dialect module with N one-block functions @f00000 ... and
two loops, @a_loop and @z_loop, which sort first and last: their tokens are
0 and N + 1 (functions are numbered by name)."""
import sys

n = int(sys.argv[1])
loop = """llvm.func @{name}(%n: i32) {{
  %z = llvm.mlir.constant(0 : i32) : i32
  %o = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^h(%z : i32)
^h(%i: i32):
  %d = llvm.icmp "slt" %i, %n : i32
  llvm.cond_br %d, ^b, ^x
^b:
  %i2 = llvm.add %i, %o : i32
  llvm.br ^h(%i2 : i32)
^x:
  llvm.return
}}"""
print(loop.format(name="a_loop"))
for i in range(n):
    print(f"llvm.func @f{i:05d}() {{\n  llvm.return\n}}")
print(loop.format(name="z_loop"))
