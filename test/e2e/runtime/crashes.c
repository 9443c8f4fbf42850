/* Calls a function a few times, then aborts or dereferences null. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static int tick(int x) { return x + 1; }

int main(int argc, char **argv) {
  int x = 0;
  for (int i = 0; i < 1000; ++i)
    x = tick(x);
  fprintf(stderr, "about to crash after %d ticks\n", x);
  if (argc > 1 && strcmp(argv[1], "segv") == 0)
    return *(volatile int *)(long)(x - 1000);
  abort();
}
