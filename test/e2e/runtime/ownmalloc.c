/* A program that defines the C library's allocator itself, as programs that
 * bundle one do: it is instrumented with the rest, and the runtime's own
 * allocations run it. A bump allocator over a static arena (free does
 * nothing), safe across threads. With OWNMALLOC_EXIT set, its first
 * posix_memalign (the runtime's, for its first buffer) calls exit(7): the
 * program exits from inside the runtime. */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Alignas(4096) char arena[64 << 20];
static atomic_size_t top;

static void *bump(size_t align, size_t n) {
  size_t old = atomic_load(&top), start;
  do {
    start = (old + align - 1) & ~(align - 1);
    if (start + n > sizeof arena)
      return NULL;
  } while (!atomic_compare_exchange_weak(&top, &old, start + n));
  return arena + start;
}

/* Each block is preceded by its size, for realloc. */
void *malloc(size_t n) {
  size_t *p = bump(16, n + 16);
  if (!p)
    return NULL;
  p[0] = n;
  return (char *)p + 16;
}
void free(void *p) { (void)p; }
void *calloc(size_t count, size_t size) {
  void *p = malloc(count * size);
  if (p)
    memset(p, 0, count * size);
  return p;
}
void *realloc(void *old, size_t n) {
  void *p = malloc(n);
  if (p && old) {
    size_t had = ((size_t *)((char *)old - 16))[0];
    memcpy(p, old, had < n ? had : n);
  }
  return p;
}
int posix_memalign(void **out, size_t align, size_t n) {
  if (getenv("OWNMALLOC_EXIT"))
    exit(7);
  if (align < 16)
    align = 16;
  char *p = bump(align, n + align);
  if (!p)
    return ENOMEM;
  *out = p + align;
  ((size_t *)(p + align - 16))[0] = n;
  return 0;
}
void *aligned_alloc(size_t align, size_t n) {
  void *p;
  return posix_memalign(&p, align, n) ? NULL : p;
}
void *memalign(size_t align, size_t n) { return aligned_alloc(align, n); }

__attribute__((noinline)) unsigned step(unsigned x) {
  return x * 2654435761u + 1;
}

int main(int argc, char **argv) {
  unsigned s = 1;
  for (long i = 0; i < (argc > 1 ? atol(argv[1]) : 1000); ++i)
    s = step(s);
  char *q = malloc(3);
  strcpy(q, "ok");
  printf("%s %u\n", q, s);
  return 0;
}
