/* A program with zstd's compression functions of its own, as zstd has and
 * every program with a copy of it: libphaedrus_rt's writer must compress
 * the trace with the runtime's libzstd, never with these (instrumented)
 * ones, and record nothing of what it runs. A zstd user's trial had every
 * run hang: the writer ran the program's ZSTD_compressCCtx, recorded its
 * events and waited for its own buffers. */
#include <stddef.h>
#include <stdio.h>

volatile unsigned long sink;

__attribute__((noinline)) void step(unsigned long i) { sink += i; }

void *ZSTD_createCCtx(void) { return (void *)&sink; }
size_t ZSTD_freeCCtx(void *cctx) { (void)cctx; return 0; }
unsigned ZSTD_isError(size_t code) { return code > (size_t)-120; }
/* Called by libzstd's ZSTD_compressCCtx through its PLT, and its tracing
 * hook, which zstd's CLI defines: neither may be the program's. */
size_t ZSTD_compress_usingDict(void *cctx, void *dst, size_t capacity,
                               const void *src, size_t size, const void *dict,
                               size_t dictSize, int level) {
  (void)cctx; (void)dst; (void)capacity; (void)src; (void)dict; (void)dictSize;
  (void)level;
  for (unsigned long i = 0; i < 1000; ++i)
    step(i);
  return size;
}
unsigned long long ZSTD_trace_compress_begin(const void *cctx) {
  (void)cctx;
  step(0);
  return 0;
}
size_t ZSTD_compressCCtx(void *cctx, void *dst, size_t capacity,
                         const void *src, size_t size, int level) {
  (void)cctx; (void)dst; (void)capacity; (void)src; (void)level;
  for (unsigned long i = 0; i < 1000; ++i)
    step(i);
  return size;
}

int main(void) {
  /* Millions of events: the writer compresses many full buffers. */
  for (unsigned long i = 0; i < 3000000; ++i)
    step(i);
  char out[16];
  size_t n = ZSTD_compressCCtx(ZSTD_createCCtx(), out, sizeof out, "x", 1, 1);
  printf("done %zu\n", n);
  return 0;
}
