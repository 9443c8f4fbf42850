/* A loop whose path through eight branches is picked each iteration by a
 * pseudo-random number (the high byte of a 32-bit linear congruential
 * generator), so that its path trace compresses poorly: the runtime's
 * writer then predicts its chunks (EVNP records, docs/TraceFormat.md).
 * The test replays the generator to know how often each path ran. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned scatter(int n) {
  unsigned x = 20261124u, sum = 0;
  for (int i = 0; i < n; ++i) {
    x = x * 1103515245u + 12345u;
    unsigned r = x >> 24;
    if (r & 1u) sum += 1;
    if (r & 2u) sum += 3;
    if (r & 4u) sum += 5;
    if (r & 8u) sum += 7;
    if (r & 16u) sum += 11;
    if (r & 32u) sum += 13;
    if (r & 64u) sum += 17;
    if (r & 128u) sum += 19;
  }
  return sum;
}

int main(int argc, char **argv) {
  printf("%u\n", scatter(argc > 1 ? atoi(argv[1]) : 30));
  return 0;
}
