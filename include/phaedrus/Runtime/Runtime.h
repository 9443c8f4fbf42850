/*===- Runtime.h - C ABI of libphaedrus_rt -------------------------*- C -*-===
 *
 * What --phaedrus-instrument calls. Instrumented programs link
 * libphaedrus_rt.a; nothing here depends on MLIR or LLVM.
 *===----------------------------------------------------------------------===*/
#ifndef PHAEDRUS_RUNTIME_RUNTIME_H
#define PHAEDRUS_RUNTIME_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Set by an instrumented call site just before a direct call to an
 * instrumented function: the call-site token plus one (0: none). */
extern __thread uint32_t __phaedrus_site;

/* Called once, from a module constructor, before any event: the module's
 * vocabulary text (docs/TraceFormat.md), its fingerprint and granularity
 * (enum phaedrus_granularity in Format.h, or-ed with PHAEDRUS_NARROW_EVENTS
 * when the module stores 16-bit events). Opens the trace file named by
 * PHAEDRUS_TRACE. */
void __phaedrus_register(const char *vocabulary, uint64_t vocabulary_size,
                         uint64_t fingerprint, uint32_t granularity);

/* The thread's event buffer. Instrumented code records an event inline:
 *   if (((uintptr_t)cursor & (PHAEDRUS_BUFFER_BYTES - 1)) < limit) { store
 *   the word(s) at the cursor; advance it }
 *   else __phaedrus_record_slow / _record_path_slow(...)
 * with the limit offset PHAEDRUS_NARROW_LIMIT_BYTES or
 * PHAEDRUS_WIDE_LIMIT_BYTES (Format.h: buffers are aligned to their size).
 * Words are 32-bit, or 16-bit in a narrow module (PHAEDRUS_NARROW_EVENTS),
 * whose only record is one word. Below the limit three 32-bit words and the
 * advanced cursor always fit. The cursor is __phaedrus_cursor, which
 * instrumented code may keep in registers between calls out of the module,
 * storing it there before them (the slow paths included). Function entry:
 * the word is the pending call-site token minus one if the caller set
 * __phaedrus_site (which the entry clears), else the function's token. A
 * run of completed Ball-Larus paths (path granularity) is three words:
 * PHAEDRUS_PATH_MARK | function token, the path id, the run length;
 * or one (Format.h, PHAEDRUS_PATH_SHORT), for which code stores the same
 * three slots (the third and second ignored) and advances the cursor by one. */
extern __thread void *__phaedrus_cursor;

/* Out-of-line path: attaches the thread, writes a full buffer, or discards
 * events while tracing is off; then records the word(s). */
/* Both use the preserve_most calling convention (clang's
 * __attribute__((preserve_most))): they save the registers they use, so
 * the instrumented code around the call keeps its registers. */
__attribute__((preserve_most)) void __phaedrus_record_slow(uint32_t token);
/* Records a path run: advances by one word if `first` is a one-word run
 * (PHAEDRUS_PATH_SHORT), else by three. */
__attribute__((preserve_most)) void
__phaedrus_record_path_slow(uint32_t first, uint32_t second, uint32_t third);

/* The trace file being written, or NULL before registration. */
const char *__phaedrus_trace_path(void);

#ifdef __cplusplus
}
#endif

#endif /* PHAEDRUS_RUNTIME_RUNTIME_H */
