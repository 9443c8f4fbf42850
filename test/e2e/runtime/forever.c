/* Runs until it is killed, announcing progress on stdout. */
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) static unsigned step(unsigned x) { return x * 1664525u + 1013904223u; }

int main(void) {
  unsigned x = 1;
  for (unsigned long i = 0;; ++i) {
    x = step(x);
    if (i == 2000000) {
      printf("running\n");
      fflush(stdout);
    }
  }
  return (int)x;
}
