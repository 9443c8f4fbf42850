/* Which calls --phaedrus-call-groups folds, and why (see call-groups.test). */
#include <setjmp.h>
#include <stdlib.h>

static jmp_buf env;
volatile int sink;

#define LEAF(name) __attribute__((noinline)) void name(void) { sink++; }
LEAF(a) LEAF(b) LEAF(c) LEAF(d) LEAF(e) LEAF(f) LEAF(g) LEAF(h) LEAF(k)
LEAF(p) LEAF(q) LEAF(x) LEAF(leaf)

__attribute__((noinline)) void z(int y) { sink += y; }

/* Makes calls of its own: its group still folds around them. */
__attribute__((noinline)) void work(int n) {
  for (int i = 0; i < n; ++i)
    leaf();
}

/* Does not return when n > 2. */
__attribute__((noinline)) void maybe_jump(int n) {
  if (n > 2)
    longjmp(env, 1);
}

int main(int argc, char **argv) {
  int n = argc;
  /* One block: a, work, b always run together. */
  a();
  work(n);
  b();
  /* c runs only when n > 1: not grouped with b (paths meet c or d first)
     nor with d (d also runs without c). */
  if (n > 1)
    c();
  /* d, x, z, e form a group: the ?: between x and z makes no call, so
     every path from x reaches z next. */
  d();
  x();
  z(n > 1 ? 2 : 3);
  e();
  /* f runs in a loop: e and g are not grouped (f may run between), and f
     comes back to itself. */
  for (int i = 0; i < n; ++i)
    f();
  /* g, p, q: the indirect call between p and q is not a recorded call site
     (it records its callee's entry from an unknown site). */
  g();
  void (*fp)(void) = n > 5 ? a : b;
  p();
  fp();
  q();
  /* h, maybe_jump, k: a group, but when maybe_jump longjmps, k never runs
     and the run folds only h and maybe_jump. */
  if (setjmp(env) == 0) {
    h();
    maybe_jump(n);
    k();
  }
  return 0;
}
