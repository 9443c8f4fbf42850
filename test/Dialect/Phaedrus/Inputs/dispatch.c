// A bytecode interpreter with a computed-goto dispatch (as Lua's luaV_execute
// with GCC/clang): every handler jumps through one `goto *`, which clang
// emits as a single indirectbr whose successors are the handlers. The
// program counts down from the argument count times 5, so the opcodes run
// a known number of times: with n = 5 * argc, PUSH runs once, DEC and JNZ n
// times each, and HALT once; NOP never runs.
enum { PUSH, DEC, JNZ, NOP, HALT };

static int run(const unsigned char *code, int start) {
  static void *handlers[] = {&&push, &&dec, &&jnz, &&nop, &&halt};
  int acc = 0, pc = 0;
#define DISPATCH() goto *handlers[code[pc++]]
  DISPATCH();
push:
  acc = start;
  DISPATCH();
dec:
  --acc;
  DISPATCH();
jnz:
  if (acc)
    pc = code[pc];
  else
    ++pc;
  DISPATCH();
nop:
  DISPATCH();
halt:
  return acc;
}

int main(int argc, char **argv) {
  (void)argv;
  static const unsigned char program[] = {PUSH, DEC, JNZ, 1, HALT};
  return run(program, 5 * argc);
}
