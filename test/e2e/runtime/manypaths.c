/* A function of 2^40 acyclic paths (40 branches one after another), too
 * many for 32-bit Ball-Larus path ids: the numbering cuts it into segments
 * at join blocks. Each branch tests one bit of x, so the test knows every
 * branch's counts. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static unsigned long long
score(unsigned long long x) {
  unsigned long long s = 0;
  if (x & (1ull << 0)) s += 1; else s ^= 1;
  if (x & (1ull << 1)) s += 2; else s ^= 2;
  if (x & (1ull << 2)) s += 3; else s ^= 3;
  if (x & (1ull << 3)) s += 4; else s ^= 4;
  if (x & (1ull << 4)) s += 5; else s ^= 5;
  if (x & (1ull << 5)) s += 6; else s ^= 6;
  if (x & (1ull << 6)) s += 7; else s ^= 7;
  if (x & (1ull << 7)) s += 8; else s ^= 8;
  if (x & (1ull << 8)) s += 9; else s ^= 9;
  if (x & (1ull << 9)) s += 10; else s ^= 10;
  if (x & (1ull << 10)) s += 11; else s ^= 11;
  if (x & (1ull << 11)) s += 12; else s ^= 12;
  if (x & (1ull << 12)) s += 13; else s ^= 13;
  if (x & (1ull << 13)) s += 14; else s ^= 14;
  if (x & (1ull << 14)) s += 15; else s ^= 15;
  if (x & (1ull << 15)) s += 16; else s ^= 16;
  if (x & (1ull << 16)) s += 17; else s ^= 17;
  if (x & (1ull << 17)) s += 18; else s ^= 18;
  if (x & (1ull << 18)) s += 19; else s ^= 19;
  if (x & (1ull << 19)) s += 20; else s ^= 20;
  if (x & (1ull << 20)) s += 21; else s ^= 21;
  if (x & (1ull << 21)) s += 22; else s ^= 22;
  if (x & (1ull << 22)) s += 23; else s ^= 23;
  if (x & (1ull << 23)) s += 24; else s ^= 24;
  if (x & (1ull << 24)) s += 25; else s ^= 25;
  if (x & (1ull << 25)) s += 26; else s ^= 26;
  if (x & (1ull << 26)) s += 27; else s ^= 27;
  if (x & (1ull << 27)) s += 28; else s ^= 28;
  if (x & (1ull << 28)) s += 29; else s ^= 29;
  if (x & (1ull << 29)) s += 30; else s ^= 30;
  if (x & (1ull << 30)) s += 31; else s ^= 31;
  if (x & (1ull << 31)) s += 32; else s ^= 32;
  if (x & (1ull << 32)) s += 33; else s ^= 33;
  if (x & (1ull << 33)) s += 34; else s ^= 34;
  if (x & (1ull << 34)) s += 35; else s ^= 35;
  if (x & (1ull << 35)) s += 36; else s ^= 36;
  if (x & (1ull << 36)) s += 37; else s ^= 37;
  if (x & (1ull << 37)) s += 38; else s ^= 38;
  if (x & (1ull << 38)) s += 39; else s ^= 39;
  if (x & (1ull << 39)) s += 40; else s ^= 40;
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  unsigned long long total = 0;
  for (int i = 0; i < n; ++i)
    total += score((unsigned long long)i * 0x9E3779B97F4A7C15ull);
  printf("%llu\n", total);
  return 0;
}
