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
 * vocabulary text (docs/TraceFormat.md), its fingerprint and granularity.
 * Opens the trace file named by PHAEDRUS_TRACE. */
void __phaedrus_register(const char *vocabulary, uint64_t vocabulary_size,
                         uint64_t fingerprint, uint32_t granularity);

/* Entry into an instrumented function: records the pending call-site token
 * if the caller set one, otherwise `function_token`. */
void __phaedrus_enter(uint32_t function_token);

/* A completed Ball-Larus path of the function with `function_token`
 * (path granularity): recorded as PHAEDRUS_PATH_MARK | function_token, then
 * `path_id`. */
void __phaedrus_path(uint32_t function_token, uint32_t path_id);

/* The trace file being written, or NULL before registration. */
const char *__phaedrus_trace_path(void);

#ifdef __cplusplus
}
#endif

#endif /* PHAEDRUS_RUNTIME_RUNTIME_H */
