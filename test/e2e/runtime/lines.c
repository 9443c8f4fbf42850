/* Code whose lines hold several blocks, for the sample-profile export's
 * discriminators (python/tests/test_runtime.py): short-circuits, ?:, a
 * loop and a switch on one line, a macro of several statements, two calls
 * and two asm statements on one line, a computed goto, memcpy. */
#include <stdio.h>
#include <string.h>

#define STEP(x) do { if ((x) & 1) odd++; else even++; } while (0)

static int odd, even;

static int pick(int a, int b) { return a > b ? a : b; }
static int twice(int x) { return 2 * x; }

static int dispatch(int n) {
  static void *labels[] = {&&inc, &&inc, &&dec};
  int acc = 0, i = 0;
  goto *labels[i % 3];
inc: acc += 2; if (++i < n) goto *labels[i % 3]; else goto done;
dec: acc -= 1; if (++i < n) goto *labels[i % 3]; else goto done;
done: return acc;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? 1000 : 10, sum = 0;
  char buf[64], copy[64];
  for (int i = 0; i < n; i++) { if (i % 3 == 0 && i % 5 != 0) sum += i; else if (i % 7 == 0 || i % 11 == 0) sum -= i; }
  for (int i = 0; i < n; i++) STEP(i);
  for (int i = 0; i < n; i++) switch (i % 4) { case 0: sum++; break; case 1: sum += 2; break; default: sum--; }
  for (int i = 0; i < n; i++) sum += pick(i, n - i) + twice(i);
  for (int i = 0; i < n; i++) { __asm__ volatile("" ::: "memory"); __asm__ volatile("" ::: "memory"); }
  snprintf(buf, sizeof buf, "%d", sum); memcpy(copy, buf, sizeof buf);
  printf("%s %d %d %d\n", copy, odd, even, dispatch(n));
  return 0;
}
