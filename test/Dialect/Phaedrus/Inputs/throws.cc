// A C++ program whose exceptions decide its paths: run with the arguments
// 5 x 7, parse throws for x, so the call of parse in main (an invoke)
// returns twice and unwinds once.
#include <stdexcept>

static int parse(const char *s) {
  if (*s < '0' || *s > '9')
    throw std::invalid_argument(s);
  return *s - '0';
}

int main(int argc, char **argv) {
  int sum = 0, bad = 0;
  for (int i = 1; i < argc; ++i) {
    try {
      sum += parse(argv[i]);
    } catch (const std::invalid_argument &) {
      ++bad;
    }
  }
  return sum == 12 && bad == 1 ? 0 : 1;
}
