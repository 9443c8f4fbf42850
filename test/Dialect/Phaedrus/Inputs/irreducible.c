// A loop entered at two blocks (an irreducible loop): an odd count starts
// in the middle of the body. Run with two arguments: sum adds 21 items.
static unsigned sum(const unsigned char *p, int n) {
  unsigned s = 0;
  int i = 0;
  if (n & 1)
    goto middle;
  while (i < n) {
    s += p[i++];
  middle:
    s ^= p[i++] << 1;
  }
  return s;
}

int main(int argc, char **argv) {
  static unsigned char data[64];
  (void)argv;
  return (int)(sum(data, 7 * argc) & 1);
}
