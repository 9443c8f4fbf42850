/* Several threads call instrumented functions; the program counts the calls
 * itself so the test can compare the trace with a reference counter. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_long work_calls, leaf_calls;

__attribute__((noinline)) static long leaf(long x) {
  atomic_fetch_add(&leaf_calls, 1);
  return x * 3 + 1;
}

__attribute__((noinline)) static long work(long x) {
  atomic_fetch_add(&work_calls, 1);
  return leaf(x) + leaf(x + 1);
}

static void *thread_main(void *arg) {
  long n = (long)arg, sum = 0;
  for (long i = 0; i < n; ++i)
    sum += work(i);
  return (void *)sum;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 4;
  long per_thread = argc > 2 ? atol(argv[2]) : 100000;
  pthread_t ids[64];
  if (threads > 64)
    threads = 64;
  for (int t = 0; t < threads; ++t)
    pthread_create(&ids[t], NULL, thread_main, (void *)(per_thread + t));
  long total = 0;
  for (int t = 0; t < threads; ++t) {
    void *r;
    pthread_join(ids[t], &r);
    total += (long)r;
  }
  printf("work %ld leaf %ld sum %ld\n", (long)work_calls, (long)leaf_calls, total);
  return 0;
}
