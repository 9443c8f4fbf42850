/*===- Format.h - The phaedrus trace file format -------------------*- C -*-===
 *
 * Shared by the runtime (C) and the reader (C++). See docs/TraceFormat.md.
 *
 * A trace file is the 8-byte magic followed by records. Every record is a
 * 16-byte header and a payload:
 *
 *   u32 tag       what the record holds (PHAEDRUS_TAG_*)
 *   u32 length    payload bytes
 *   u32 checksum  phaedrus_record_checksum(): tag, length, aux, payload
 *   u32 aux       tag-specific (EVNT: thread index)
 *
 * All integers are little-endian. Records are written with one write each,
 * so a run that is killed leaves a file whose records are all complete except
 * possibly the last; the reader keeps the complete prefix.
 *===----------------------------------------------------------------------===*/
#ifndef PHAEDRUS_TRACE_FORMAT_H
#define PHAEDRUS_TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define PHAEDRUS_TRACE_MAGIC "PHDRWPP\n"
#define PHAEDRUS_TRACE_MAGIC_SIZE 8
/* Version 2 added EVNP records and one-word path runs, version 3 the
 * 16-bit event records EV2T and EV2Z, version 4 entry-path words
 * (PHAEDRUS_PATH_ENTRY); a reader reads every older version as well (they
 * have none of what came later). */
#define PHAEDRUS_TRACE_VERSION 4u
#define PHAEDRUS_TRACE_OLDEST_VERSION 1u

#define PHAEDRUS_FOURCC(a, b, c, d)                                            \
  ((uint32_t)(a) | ((uint32_t)(b) << 8) | ((uint32_t)(c) << 16) |              \
   ((uint32_t)(d) << 24))

/* HEAD: struct phaedrus_head. First record of every file. */
#define PHAEDRUS_TAG_HEAD PHAEDRUS_FOURCC('H', 'E', 'A', 'D')
/* ARGV: the run's arguments, each NUL-terminated, argv[0] first. */
#define PHAEDRUS_TAG_ARGV PHAEDRUS_FOURCC('A', 'R', 'G', 'V')
/* FILE: u64 size, u64 digest, then the path (not NUL-terminated). */
#define PHAEDRUS_TAG_FILE PHAEDRUS_FOURCC('F', 'I', 'L', 'E')
/* VOCB: the vocabulary, one entry per line (see docs/TraceFormat.md). */
#define PHAEDRUS_TAG_VOCB PHAEDRUS_FOURCC('V', 'O', 'C', 'B')
/* EVNT: aux = thread index; payload = u32 sequence number, then u32 tokens. */
#define PHAEDRUS_TAG_EVNT PHAEDRUS_FOURCC('E', 'V', 'N', 'T')
/* EVNZ: aux = thread index; payload = u32 sequence number, u32 token count,
 * then the tokens compressed as one zstd frame. EVNT and EVNZ records of a
 * thread share one sequence. */
#define PHAEDRUS_TAG_EVNZ PHAEDRUS_FOURCC('E', 'V', 'N', 'Z')
/* EVNP: aux = thread index; payload = u32 sequence number, u32 token count
 * n, then one zstd frame of the chunk's prediction residue
 * (phaedrus_predict_encode): ceil(n/32) u32 words of hit flags, then the
 * tokens the predictor missed. What the runtime writes since version 2. */
#define PHAEDRUS_TAG_EVNP PHAEDRUS_FOURCC('E', 'V', 'N', 'P')
/* EV2T and EV2Z: as EVNT and EVNZ, with 16-bit tokens (little-endian u16)
 * instead of 32-bit ones: what a function-granularity build whose tokens all
 * fit in 16 bits records (version 3). EV2T: aux = thread index; payload =
 * u32 sequence number, then u16 tokens. EV2Z: u32 sequence number, u32
 * token count, then the u16 tokens compressed as one zstd frame. A thread's
 * records of every kind share one sequence. */
#define PHAEDRUS_TAG_EV2T PHAEDRUS_FOURCC('E', 'V', '2', 'T')
#define PHAEDRUS_TAG_EV2Z PHAEDRUS_FOURCC('E', 'V', '2', 'Z')
/* ENDT: struct phaedrus_end. Written once, at exit or on a fatal signal. */
#define PHAEDRUS_TAG_ENDT PHAEDRUS_FOURCC('E', 'N', 'D', 'T')

/* At path granularity, completed Ball-Larus paths are recorded as runs of
 * three words: the function's token with this bit set, the path id, and how
 * many times in a row the function completed that path (at least 1). A
 * function keeps its current run in locals and records it when the path
 * changes, before it calls anything and when it returns, so runs keep their
 * place among the other events. */
#define PHAEDRUS_PATH_MARK 0x80000000u
/* Words of one path run (at most). */
#define PHAEDRUS_PATH_RUN_WORDS 3u
/* A run of length 1 whose function token is below 2^14 and whose path id is
 * below 2^16 may be recorded as one word instead (version 2):
 * PHAEDRUS_PATH_SHORT | token << 16 | path id. The three-word form keeps bit
 * 30 of its first word clear (function tokens are below 2^30). */
#define PHAEDRUS_PATH_SHORT 0xC0000000u
/* A function without loops or calls runs exactly one path per call, which
 * it records at its return. When every token of the build is below 2^14
 * and its path ids below 2^16, that word also carries the call's entry
 * token (version 4): PHAEDRUS_PATH_ENTRY | token << 16 | path id, where
 * token is the entry's call_site or function id, means that token followed
 * by a one-word run of path id of the function the token enters. */
#define PHAEDRUS_PATH_ENTRY 0x40000000u
#define PHAEDRUS_PATH_KIND_MASK 0xC0000000u
#define PHAEDRUS_PATH_SHORT_TOKENS (1u << 14)
#define PHAEDRUS_PATH_SHORT_PATHS (1u << 16)

/* Tokens per EVNT record: what a run killed with SIGKILL can lose per thread. */
#define PHAEDRUS_CHUNK_TOKENS 65536u
/* A thread's event buffer: PHAEDRUS_CHUNK_TOKENS 32-bit words, aligned to its
 * size, so that instrumented code checks for room from its cursor alone:
 * a record is stored inline while the cursor's offset in its buffer
 * (cursor & (PHAEDRUS_BUFFER_BYTES - 1)) is below the limit offset, which
 * leaves room for what a record stores and for the advanced cursor inside
 * the same buffer (a 16-bit word, in a narrow build, which uses the
 * buffer's first half; or a path run's three 32-bit words). Whatever buffer
 * a cursor points into, inline records never write outside it. */
#define PHAEDRUS_BUFFER_BYTES (PHAEDRUS_CHUNK_TOKENS * 4u)
#define PHAEDRUS_NARROW_LIMIT_BYTES (PHAEDRUS_CHUNK_TOKENS * 2u)
#define PHAEDRUS_WIDE_LIMIT_BYTES (PHAEDRUS_BUFFER_BYTES - 12u)
/* Upper bound on any payload; a larger length marks a corrupt record. */
#define PHAEDRUS_MAX_PAYLOAD (64u << 20)
/* Input files are digested over at most this many leading bytes. */
#define PHAEDRUS_DIGEST_PREFIX (64u << 10)

enum phaedrus_granularity {
  PHAEDRUS_GRANULARITY_FUNCTION = 0,
  PHAEDRUS_GRANULARITY_PATH = 1,
};

/* Or-ed into the granularity argument of __phaedrus_register (Runtime.h) by
 * a function-granularity module whose instrumented code stores each event
 * as one 16-bit word (every token below 2^16): the runtime then keeps
 * 16-bit buffers and writes EV2T/EV2Z records. Half the bytes to store,
 * hand over and compress per event (Lua queues.lua at scale 8: 2.23x ->
 * 1.94x of the plain run's time). Never with path granularity. */
#define PHAEDRUS_NARROW_EVENTS 0x100u
/* Tokens a narrow build may have at most. */
#define PHAEDRUS_NARROW_TOKENS (1u << 16)

enum phaedrus_exit_kind {
  PHAEDRUS_EXIT_NORMAL = 0,  /* exit() or return from main */
  PHAEDRUS_EXIT_SIGNAL = 1,  /* a fatal signal; aux holds its number */
};

struct phaedrus_record_header {
  uint32_t tag;
  uint32_t length;
  uint32_t checksum;
  uint32_t aux;
};

struct phaedrus_head {
  uint32_t version;
  uint32_t granularity;
  uint64_t fingerprint;
  uint32_t pid;
  uint32_t parent_pid;
  uint64_t start_time_ns; /* CLOCK_REALTIME */
};

struct phaedrus_end {
  uint64_t events;        /* all tokens recorded by the process */
  uint32_t exit_kind;     /* enum phaedrus_exit_kind */
  uint32_t signal_number; /* with PHAEDRUS_EXIT_SIGNAL */
  uint32_t threads;       /* threads that recorded events */
  uint32_t dropped;       /* 1 if events were dropped (write failure) */
};

static inline uint32_t phaedrus_fnv1a32(const void *data, size_t size,
                                        uint32_t hash) {
  const unsigned char *bytes = (const unsigned char *)data;
  for (size_t i = 0; i < size; ++i) {
    hash ^= bytes[i];
    hash *= 16777619u;
  }
  return hash;
}
#define PHAEDRUS_FNV32_INIT 2166136261u

static inline uint64_t phaedrus_fnv1a64(const void *data, size_t size,
                                        uint64_t hash) {
  const unsigned char *bytes = (const unsigned char *)data;
  for (size_t i = 0; i < size; ++i) {
    hash ^= bytes[i];
    hash *= 1099511628211ull;
  }
  return hash;
}
#define PHAEDRUS_FNV64_INIT 14695981039346656037ull

/* The record checksum: FNV-1a over little-endian 32-bit words, then over the
 * remaining bytes; four times faster than byte-wise FNV on event payloads. */
/* Continues a checksum over more bytes; when every earlier part was a
 * multiple of 4 bytes long, the result equals the checksum of the
 * concatenation. */
static inline uint32_t phaedrus_checksum_continue(uint32_t hash,
                                                  const void *data,
                                                  size_t size) {
  const unsigned char *bytes = (const unsigned char *)data;
  size_t words = size / 4;
  for (size_t i = 0; i < words; ++i) {
    uint32_t word = (uint32_t)bytes[4 * i] | ((uint32_t)bytes[4 * i + 1] << 8) |
                    ((uint32_t)bytes[4 * i + 2] << 16) |
                    ((uint32_t)bytes[4 * i + 3] << 24);
    hash = (hash ^ word) * 16777619u;
  }
  return phaedrus_fnv1a32(bytes + 4 * words, size - 4 * words, hash);
}

static inline uint32_t phaedrus_checksum(const void *data, size_t size) {
  return phaedrus_checksum_continue(PHAEDRUS_FNV32_INIT, data, size);
}

/* A record's checksum covers its tag, length and aux as well as its
 * payload, so no bit of a record can change unnoticed. The payload may be
 * given in two parts (the first a whole number of words). */
static inline uint32_t phaedrus_record_checksum(uint32_t tag, uint32_t length,
                                                uint32_t aux,
                                                const void *part1,
                                                size_t size1,
                                                const void *part2,
                                                size_t size2) {
  uint32_t fields[3] = {tag, length, aux};
  uint32_t hash = phaedrus_checksum(fields, sizeof fields);
  hash = phaedrus_checksum_continue(hash, part1, size1);
  return phaedrus_checksum_continue(hash, part2, size2);
}

/* The predictor of EVNP chunks. Each token is guessed from a hash of the
 * tokens before it in the chunk (about the last three): a table of 2^16
 * tokens, all 0 at the start of every chunk, indexed by the low 16 bits of
 * the context c (0 at the start). A token t that equals table[c & 0xffff] is
 * a hit (its flag bit set, nothing else stored); otherwise it is a miss:
 * stored, and written into that slot. Then c = (c << 5) ^ ((t * 2654435761)
 * >> 8), mod 2^32. Interpreter and loop traces repeat short token sequences,
 * so most tokens are hits (93% on Lua at path granularity), and zstd then
 * has a tenth of the bytes to compress. */
#define PHAEDRUS_PREDICT_TABLE (1u << 16)

static inline uint32_t phaedrus_predict_context(uint32_t context,
                                                uint32_t token) {
  return (context << 5) ^ ((token * 2654435761u) >> 8);
}

/* Words of hit flags for n tokens: bit j % 32 of word j / 32 is token j's. */
static inline size_t phaedrus_predict_flag_words(size_t n) {
  return (n + 31) / 32;
}

/* Splits tokens[0, n) into flags (phaedrus_predict_flag_words(n) words) and
 * misses (up to n words); returns the number of misses. `table` holds
 * PHAEDRUS_PREDICT_TABLE words; its contents on entry do not matter.
 * `dense` chooses between two loops with the same output: one that
 * branches on each hit, fast when nearly every token is a hit, and one
 * without that branch, fast when many miss (one core, 2026-11: a Lua path
 * chunk stream with 1.8% misses, 1.0 against 1.3 ns per token; a bzip2 one
 * with 47% misses, 4.4 against 1.5 ns, the branch mispredicting). */
static inline __attribute__((always_inline)) size_t
phaedrus_predict_encode_loop(const uint32_t *tokens, size_t n, uint32_t *table,
                             uint32_t *flags, uint32_t *misses, int dense) {
  size_t missed = 0;
  uint32_t context = 0;
  for (size_t i = 0; i < PHAEDRUS_PREDICT_TABLE; ++i)
    table[i] = 0;
  for (size_t base = 0; base < n; base += 32) {
    size_t end = n - base < 32 ? n - base : 32;
    uint32_t bits = 0;
    for (size_t j = 0; j < end; ++j) {
      uint32_t token = tokens[base + j];
      uint32_t *slot = &table[context & (PHAEDRUS_PREDICT_TABLE - 1)];
      if (dense) {
        /* Store the token as a miss and in its slot either way; a hit
         * leaves both as they were (the next miss overwrites it). */
        uint32_t hit = *slot == token;
        bits |= hit << j;
        *slot = token;
        misses[missed] = token;
        missed += hit ^ 1u;
      } else if (*slot == token) {
        bits |= 1u << j;
      } else {
        *slot = token;
        misses[missed++] = token;
      }
      context = phaedrus_predict_context(context, token);
    }
    flags[base / 32] = bits;
  }
  return missed;
}

static inline size_t phaedrus_predict_encode(const uint32_t *tokens, size_t n,
                                             uint32_t *table, uint32_t *flags,
                                             uint32_t *misses, int dense) {
  /* Constant arguments: each call below compiles to one of the loops. */
  return dense ? phaedrus_predict_encode_loop(tokens, n, table, flags, misses, 1)
               : phaedrus_predict_encode_loop(tokens, n, table, flags, misses, 0);
}

/* Inverse of phaedrus_predict_encode: rebuilds tokens[0, n) from the flags
 * and `missed` misses. Returns 0 when the misses are exactly those the flags
 * call for and the flag bits past n are clear, -1 otherwise (tokens then
 * hold no meaningful values). */
static inline int phaedrus_predict_decode(const uint32_t *flags,
                                          const uint32_t *misses, size_t missed,
                                          size_t n, uint32_t *table,
                                          uint32_t *tokens) {
  size_t used = 0;
  uint32_t context = 0;
  for (size_t i = 0; i < PHAEDRUS_PREDICT_TABLE; ++i)
    table[i] = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t *slot = &table[context & (PHAEDRUS_PREDICT_TABLE - 1)];
    uint32_t token;
    if (flags[i / 32] >> (i % 32) & 1u) {
      token = *slot;
    } else {
      if (used == missed)
        return -1;
      token = misses[used++];
      *slot = token;
    }
    tokens[i] = token;
    context = phaedrus_predict_context(context, token);
  }
  /* The encoder leaves the flag bits past n clear. */
  if (n % 32 && flags[n / 32] >> (n % 32))
    return -1;
  return used == missed ? 0 : -1;
}

#endif /* PHAEDRUS_TRACE_FORMAT_H */
