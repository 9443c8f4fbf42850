/* An asynchronous signal handler that runs instrumented code: SIGALRM every
 * 200 microseconds of CPU time (argv[1] iterations of the main loop) while
 * the main loop makes calls, and each handler makes 20000 calls of its own,
 * so that handlers often fill the thread's event buffer. Prints what the
 * main loop computed, which does not depend on how many signals came. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static volatile unsigned long handled;

__attribute__((noinline)) static unsigned long step(unsigned long x) {
  return x * 2654435761u + 1;
}

__attribute__((noinline)) static unsigned long leaf(unsigned long x) {
  return x ^ (x >> 7);
}

static void on_alarm(int sig) {
  (void)sig;
  unsigned long x = handled;
  for (int i = 0; i < 20000; ++i)
    x = leaf(x);
  handled = x;
}

int main(int argc, char **argv) {
  long iterations = argc > 1 ? atol(argv[1]) : 1000000;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_alarm;
  action.sa_flags = SA_RESTART;
  sigaction(SIGALRM, &action, NULL);
  struct itimerval every = {{0, 200}, {0, 200}};
  setitimer(ITIMER_REAL, &every, NULL);
  unsigned long x = 1;
  for (long i = 0; i < iterations; ++i)
    x = step(x);
  struct itimerval off = {{0, 0}, {0, 0}};
  setitimer(ITIMER_REAL, &off, NULL);
  printf("%lu\n", x);
  return 0;
}
