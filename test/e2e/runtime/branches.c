/* A loop with a branch whose direction the test knows exactly. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int classify(int n) {
  int a = 0, b = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 0)
      a++;
    else
      b++;
  }
  return a * 1000 + b;
}

int main(int argc, char **argv) {
  printf("%d\n", classify(argc > 1 ? atoi(argv[1]) : 30));
  return 0;
}
