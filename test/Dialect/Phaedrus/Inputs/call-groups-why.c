/* Calls that --phaedrus-call-groups cannot group, for the two reasons
   call-groups.c does not show (phaedrus-call-groups-why.test). */
volatile int sink;
#define LEAF(name) __attribute__((noinline)) void name(void) { sink++; }
LEAF(a) LEAF(b) LEAF(c) LEAF(d)

/* a is always followed by b, but b also runs when a does not, straight
   from the function's entry: b's token says nothing of a. */
__attribute__((noinline)) void other_entry(int n) {
  if (n)
    a();
  b();
}

/* c is always followed by d, but d runs again in its loop before c does. */
__attribute__((noinline)) void runs_twice(int n) {
  c();
  do
    d();
  while (--n > 0);
}

int main(int argc, char **argv) {
  other_entry(argc);
  runs_twice(argc);
  return 0;
}
