/*===- phaedrus_rt.c - Runtime of instrumented programs ------------------===//
 *
 * Records the whole program path of an instrumented program into a trace
 * file (docs/TraceFormat.md). Linked into the user's program, so it:
 *   - never aborts or changes what the program does: on any failure it says
 *     so once on stderr and stops tracing;
 *   - records into per-thread buffers (the fast path is inlined into the
 *     program); a writer thread compresses full buffers (zstd; at path
 *     granularity after a context predictor, Format.h) and writes
 *     them as checksummed records, each with a single write, so a killed run
 *     keeps every record written before the kill and the program's own
 *     thread rarely waits for the disk;
 *   - flushes at exit, at thread exit and on fatal signals;
 *   - gives a forked child its own trace file.
 *
 * Environment:
 *   PHAEDRUS_TRACE  output path; "%p" is replaced by the process id. Default
 *                   "phaedrus-%p.wpp". "off" disables tracing. A forked
 *                   child whose path has no "%p" writes to "<path>.<pid>".
 *===----------------------------------------------------------------------===*/

#define _GNU_SOURCE
#include "phaedrus/Runtime/Runtime.h"
#include "phaedrus/Trace/Format.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

/* Set by an instrumented call site just before a direct call: the call-site
 * token plus one. The callee's entry code consumes it. */
__thread uint32_t __phaedrus_site;

/* Where events go while tracing is off: overwritten, never written out;
 * shared by all threads. Aligned like a buffer (Format.h). */
static uint32_t scratch[PHAEDRUS_CHUNK_TOKENS]
    __attribute__((aligned(PHAEDRUS_BUFFER_BYTES)));

/* The hot path is inlined into instrumented code: while the cursor's offset
 * in its buffer is below the limit offset (Format.h,
 * PHAEDRUS_BUFFER_BYTES), store the token(s) there and advance the cursor;
 * otherwise call __phaedrus_record_slow. A thread's cursor starts at the
 * scratch area's last word, past either limit, so that its first event
 * takes the slow path. */
__thread void *__phaedrus_cursor = (char *)scratch + PHAEDRUS_BUFFER_BYTES - 4;

/* A full (or final) chunk of one thread's events, queued for the writer.
 * Events are 32-bit words, or 16-bit ones in a narrow build (rt.narrow),
 * which then use the first half of `tokens`. */
struct buffer {
  uint32_t tokens[PHAEDRUS_CHUNK_TOKENS]; /* first: aligned like the buffer */
  struct buffer *next;         /* in the queue or in a free list */
  struct thread_state *owner;
  uint32_t count;
  uint32_t sequence;
};

/* Per recording thread. Lives until the process ends (the writer may still
 * hold its buffers after the thread exited). */
struct thread_state {
  void **cursor;               /* &__phaedrus_cursor of the thread; NULL once it exited */
  struct buffer *active;       /* the buffer the cursor points into */
  struct buffer *free_list;    /* buffers the writer gave back */
  unsigned buffers;            /* allocated for this thread */
  uint32_t index;
  uint32_t next_sequence;
  uint64_t queued;             /* events handed to the writer */
  void *signal_stack;          /* the runtime's alternate signal stack, or NULL */
  int exit_passes;             /* calls of on_thread_exit so far */
  struct thread_state *next;   /* all threads */
};

/* An alternate signal stack for each recording thread that has none, on
 * which the fatal-signal handler runs: a thread that overflowed its stack
 * (deep recursion, the classic SIGSEGV) has none left for the handler, and
 * the kernel killed the process without the trace's last events and end
 * (until 2026-11-28; found by a review). */
#define PHAEDRUS_SIGNAL_STACK_BYTES (64u * 1024u)

static __thread struct thread_state *thread_state;

/* Set on the runtime's own threads (the writer): their events, if any, go
 * to the scratch area. */
static __thread int runtime_thread;

/* Set while a program's thread is in the C library's allocator for the
 * runtime, which the program may define itself, instrumented (a bundled
 * dlmalloc or mimalloc): what it records meanwhile is the runtime's work,
 * and goes to the scratch area, not counted as dropped. Until 2026-11-28
 * every trace of such a program was refused as having dropped events
 * (found by a review). */
static __thread volatile int runtime_work; /* volatile: LLVM knows that the
                                              * allocator reads no variable
                                              * of ours, and dropped the
                                              * stores around its calls */

static void *runtime_calloc(size_t size) {
  ++runtime_work;
  void *p = calloc(1, size);
  --runtime_work;
  return p;
}

static void *runtime_malloc(size_t size) {
  ++runtime_work;
  void *p = malloc(size);
  --runtime_work;
  return p;
}

static void *runtime_aligned(size_t alignment, size_t size) {
  void *p = NULL;
  ++runtime_work;
  if (posix_memalign(&p, alignment, size) != 0)
    p = NULL;
  --runtime_work;
  return p;
}

static void runtime_free(void *p) {
  ++runtime_work;
  free(p);
  --runtime_work;
}

/* At most this many buffers per thread: the program waits for the writer
 * (bounded memory) rather than letting a fast producer outrun the disk. */
#define MAX_BUFFERS_PER_THREAD 8u
/* zstd level 1 (on the prediction residue at path granularity; figures at
 * write_buffer). Level -5 saved 15% of the time on a Lua path trace and
 * made it a third larger. */
#define ZSTD_LEVEL 1

static struct {
  atomic_int state; /* enum state */
  /* The trace file: a descriptor far from the program's (at least
   * PHAEDRUS_FD_FLOOR), and the file it was opened on, which every write
   * checks it still is. */
  int fd;
  dev_t dev;
  ino_t ino;
  /* Set by at_exit under queue_lock: the threads' buffers are taken, and
   * nothing more is queued (events go to the scratch area). */
  int retired;
  /* A forked child that has not written yet: its trace file is created by
   * its first record (a child that execs at once leaves no file). */
  int child_unopened;
  pthread_mutex_t queue_lock; /* queue, free lists, thread list */
  pthread_cond_t work;        /* the queue is not empty, or stop */
  pthread_cond_t returned;    /* a buffer was given back */
  pthread_mutex_t write_lock; /* the file: one record at a time */
  struct buffer *queue_head, *queue_tail;
  struct thread_state *threads;
  uint32_t next_thread;
  pthread_t writer;
  pid_t writer_pid;           /* the process whose writer is running, or 0 */
  pid_t owner;                /* the process whose trace this is */
  int stop_writer;
  atomic_int signalled;       /* a fatal signal is being handled */
  pthread_key_t key;          /* flushes a thread's buffer when it exits */
  int dropped;
  int granularity;
  int narrow;                 /* 16-bit events (PHAEDRUS_NARROW_EVENTS) */
  uint64_t fingerprint;
  const char *vocabulary;
  uint64_t vocabulary_size;
  char path[4096];
} rt = {.fd = -1,
        .queue_lock = PTHREAD_MUTEX_INITIALIZER,
        .work = PTHREAD_COND_INITIALIZER,
        .returned = PTHREAD_COND_INITIALIZER,
        .write_lock = PTHREAD_MUTEX_INITIALIZER};

enum state { UNINITIALIZED = 0, TRACING = 1, DISABLED = 2, FINISHED = 3 };

/* Not SIGINT, SIGTERM, SIGHUP or SIGQUIT: programs and libraries ask
 * whether those are still at their default before they take them
 * (ncurses restores the terminal on ^C only then, CPython raises
 * KeyboardInterrupt only then), and a handler of the runtime's there made
 * them leave the signals alone (until 2026-11-28; found by a review). A
 * run they end has a trace without its end, as after SIGKILL. */
static const int fatal_signals[] = {SIGSEGV, SIGBUS,  SIGFPE,  SIGILL,
                                    SIGABRT, SIGPIPE, SIGXCPU, SIGXFSZ};
#define NUM_FATAL_SIGNALS (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous_actions[NUM_FATAL_SIGNALS];

/* Says once why tracing stopped; never touches the program's stdio. */
static void disable(const char *what, int error) {
  int expected = TRACING;
  if (!atomic_compare_exchange_strong(&rt.state, &expected, DISABLED)) {
    expected = UNINITIALIZED;
    if (!atomic_compare_exchange_strong(&rt.state, &expected, DISABLED))
      return;
  }
  char message[4400];
  int n = snprintf(message, sizeof message,
                   "phaedrus: %s '%s': %s; tracing disabled, the program "
                   "continues\n",
                   what, rt.path, error ? strerror(error) : "unknown error");
  if (n > 0) {
    ssize_t ignored = write(2, message, (size_t)n < sizeof message ? (size_t)n
                                                                   : sizeof message - 1);
    (void)ignored;
  }
}

static int open_trace(int forked_child);

/* Where the trace's descriptor is moved to: above the descriptors a
 * program opens itself (which the kernel numbers from the lowest free), so
 * that a program that closes descriptors and opens its own files (a daemon
 * closing 3-1023, a dup2 onto 3) does not have the trace written into
 * them, and one started with standard output closed does not have its
 * output written into the trace (both happened until 2026-11-28: the
 * trace took descriptor 3, or 1). Below FD_SETSIZE's 1024 halves. */
#define PHAEDRUS_FD_FLOOR 512

/* Writes `iov` whole (retried on partial writes and EINTR) to the trace.
 * On a program's thread, SIGPIPE and SIGXFSZ are held back meanwhile and a
 * write's own is taken away: a trace on a pipe whose reader left, or past
 * the file size limit (ulimit -f), then fails with EPIPE or EFBIG and
 * disables tracing, where the signal used to kill the program (its
 * buffered output lost with it). The runtime's own threads block every
 * signal already. Returns 0 or an errno value; EBADF when the program has
 * closed the trace's descriptor or put another file in its place. */
static int write_fully(struct iovec *v, int count) {
  struct stat st;
  if (fstat(rt.fd, &st) != 0 || st.st_dev != rt.dev || st.st_ino != rt.ino) {
    disable("the program closed or replaced the file descriptor of trace",
            EBADF);
    return EBADF;
  }
  sigset_t held, saved, before;
  sigemptyset(&held);
  sigaddset(&held, SIGPIPE);
  sigaddset(&held, SIGXFSZ);
  int guard = !runtime_thread;
  if (guard) {
    pthread_sigmask(SIG_BLOCK, &held, &saved);
    sigpending(&before);
  }
  size_t remaining = 0;
  for (int i = 0; i < count; ++i)
    remaining += v[i].iov_len;
  int error = 0;
  while (remaining) {
    ssize_t written = writev(rt.fd, v, count);
    if (written < 0) {
      if (errno == EINTR)
        continue;
      error = errno;
      break;
    }
    remaining -= (size_t)written;
    while (count && (size_t)written >= v->iov_len) {
      written -= (ssize_t)v->iov_len;
      ++v;
      --count;
    }
    if (count) {
      v->iov_base = (char *)v->iov_base + written;
      v->iov_len -= (size_t)written;
    }
  }
  if (guard) {
    /* Take away what this write raised (not one the program had pending). */
    static const struct timespec now = {0, 0};
    for (int s = 0; s < 2; ++s) {
      int signal_number = s ? SIGXFSZ : SIGPIPE;
      if (!sigismember(&before, signal_number)) {
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, signal_number);
        while (sigtimedwait(&one, NULL, &now) == signal_number) {
        }
      }
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
  }
  return error;
}

/* Writes one record with a single writev (retried on partial writes). */
static int write_record(uint32_t tag, uint32_t aux, const void *payload1,
                        size_t size1, const void *payload2, size_t size2) {
  if (rt.fd < 0 && rt.child_unopened) {
    rt.child_unopened = 0;
    if (open_trace(1) != 0)
      return -1;
  }
  if (rt.fd < 0)
    return -1;
  struct phaedrus_record_header header = {tag, (uint32_t)(size1 + size2), 0,
                                          aux};
  /* The first part of a two-part payload is a whole number of words, so
   * continuing the checksum over the second equals the checksum of both. */
  header.checksum = phaedrus_record_checksum(tag, header.length, aux, payload1,
                                             size1, payload2, size2);
  struct iovec iov[3] = {{&header, sizeof header},
                         {(void *)(uintptr_t)payload1, size1},
                         {(void *)(uintptr_t)payload2, size2}};
  return write_fully(iov, size2 ? 3 : (size1 ? 2 : 1));
}

static void expand_path(char *out, size_t size, const char *pattern,
                        int forked_child) {
  size_t n = 0;
  int has_pid = 0;
  char pid[32];
  snprintf(pid, sizeof pid, "%d", (int)getpid());
  for (const char *p = pattern; *p && n + 1 < size; ++p) {
    if (p[0] == '%' && p[1] == 'p') {
      for (const char *q = pid; *q && n + 1 < size; ++q)
        out[n++] = *q;
      ++p;
      has_pid = 1;
    } else {
      out[n++] = *p;
    }
  }
  out[n] = 0;
  if (forked_child && !has_pid)
    snprintf(out + n, size - n, ".%s", pid);
}

/* Records the run's arguments and the metadata of the input files among them
 * (and of standard input when it is a regular file). */
static void write_input_descriptor(void) {
  char args[65536];
  ssize_t size = 0;
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    ssize_t n;
    while (size < (ssize_t)sizeof args &&
           (n = read(fd, args + size, sizeof args - (size_t)size)) > 0)
      size += n;
    close(fd);
  }
  write_record(PHAEDRUS_TAG_ARGV, 0, args, (size_t)size, NULL, 0);

  struct file_record {
    uint64_t size;
    uint64_t digest;
  };
  unsigned char prefix[4096];
  for (ssize_t start = 0, i = 0; i < size; ++i) {
    if (args[i] != 0)
      continue;
    const char *arg = args + start;
    int is_program = start == 0;
    start = i + 1;
    struct stat st;
    if (is_program || stat(arg, &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    struct file_record record = {(uint64_t)st.st_size, PHAEDRUS_FNV64_INIT};
    int in = open(arg, O_RDONLY | O_CLOEXEC);
    if (in >= 0) {
      size_t total = 0;
      ssize_t n;
      while (total < PHAEDRUS_DIGEST_PREFIX &&
             (n = read(in, prefix, sizeof prefix)) > 0) {
        record.digest = phaedrus_fnv1a64(prefix, (size_t)n, record.digest);
        total += (size_t)n;
      }
      close(in);
    } else {
      record.digest = 0; /* not readable */
    }
    write_record(PHAEDRUS_TAG_FILE, 0, &record, sizeof record, arg,
                 strlen(arg));
  }
  struct stat st;
  if (fstat(0, &st) == 0 && S_ISREG(st.st_mode)) {
    struct file_record record = {(uint64_t)st.st_size, 0};
    write_record(PHAEDRUS_TAG_FILE, 0, &record, sizeof record, "<stdin>", 7);
  }
}

/* Sets rt.path to this process's trace file; -1 when tracing is off. */
static int trace_path(int forked_child) {
  const char *pattern = getenv("PHAEDRUS_TRACE");
  if (pattern && strcmp(pattern, "off") == 0)
    return -1;
  if (!pattern || !*pattern)
    pattern = "phaedrus-%p.wpp";
  expand_path(rt.path, sizeof rt.path, pattern, forked_child);
  /* A program run with privileges (setuid, setgid, file capabilities)
   * writes no trace: PHAEDRUS_TRACE would let whoever runs it overwrite a
   * file it may write and they may not (a review truncated a root-owned
   * file as nobody, 2026-11-28). */
  if (getauxval(AT_SECURE)) {
    disable("will not write, for a program run with privileges (setuid, "
            "setgid or file capabilities), trace",
            EPERM);
    return -1;
  }
  return 0;
}

/* Opens `path` for the trace, without truncating it, on a descriptor at
 * PHAEDRUS_FD_FLOOR or above (at least above standard error); -1 with
 * errno set on failure. Non-blocking for the open alone: a FIFO that no
 * one reads fails at once (ENXIO) instead of holding the program before
 * main forever. */
static int open_file(const char *path) {
  int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOCTTY,
                0644);
  if (fd < 0)
    return -1;
  int flags = fcntl(fd, F_GETFL);
  if (flags != -1)
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  int high = fcntl(fd, F_DUPFD_CLOEXEC, PHAEDRUS_FD_FLOOR);
  if (high < 0 && fd <= 2) /* a low limit on descriptors */
    high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (high >= 0) {
    close(fd);
    fd = high;
  } else if (fd <= 2) {
    close(fd);
    errno = EMFILE;
    return -1;
  }
  return fd;
}

/* Opens the trace file and writes its fixed records: at registration, or
 * in a forked child at its first record, at the path after_fork_in_child
 * set. */
static int open_trace(int forked_child) {
  if (!forked_child && trace_path(0) != 0)
    return -1;
  if (rt.granularity > PHAEDRUS_GRANULARITY_PATH ||
      (rt.narrow && rt.granularity != PHAEDRUS_GRANULARITY_FUNCTION)) {
    /* Not what --phaedrus-instrument makes (a module built for another
     * version of the runtime): record nothing rather than misread events. */
    rt.narrow = 0;
    disable("the module's event layout is not one this runtime knows; cannot "
            "record",
            EINVAL);
    return -1;
  }
  int fd = open_file(rt.path);
  /* Another process writes this file: an instrumented program that ran
   * itself or another instrumented program (system(), a pipe, fork and
   * exec) with a PHAEDRUS_TRACE without %p, which gave both the one name.
   * The new image truncated the file under the other's writes, and both
   * traces were lost (until 2026-11-28). The one that comes second writes
   * PATH.<pid>, as a forked child does. */
  if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    close(fd);
    size_t n = strlen(rt.path);
    snprintf(rt.path + n, sizeof rt.path - n, ".%d", (int)getpid());
    fd = open_file(rt.path);
    if (fd >= 0)
      (void)flock(fd, LOCK_EX | LOCK_NB);
  }
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) != 0) {
    close(fd);
    fd = -1;
  }
  /* Truncated once it is ours (a FIFO or a device cannot be). */
  if (fd >= 0 && S_ISREG(st.st_mode) && ftruncate(fd, 0) != 0) {
    int error = errno;
    close(fd);
    fd = -1;
    errno = error;
  }
  if (fd < 0) {
    disable("cannot create trace", errno);
    return -1;
  }
  rt.fd = fd;
  rt.dev = st.st_dev;
  rt.ino = st.st_ino;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  struct phaedrus_head head = {
      PHAEDRUS_TRACE_VERSION,   (uint32_t)rt.granularity, rt.fingerprint,
      (uint32_t)getpid(),       (uint32_t)getppid(),
      (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec};
  struct iovec magic = {(void *)(uintptr_t)PHAEDRUS_TRACE_MAGIC,
                        PHAEDRUS_TRACE_MAGIC_SIZE};
  int error = write_fully(&magic, 1);
  if (!error)
    error = write_record(PHAEDRUS_TAG_HEAD, 0, &head, sizeof head, NULL, 0);
  if (!error)
    write_input_descriptor();
  if (!error)
    error = write_record(PHAEDRUS_TAG_VOCB, 0, rt.vocabulary,
                         (size_t)rt.vocabulary_size, NULL, 0);
  if (error) {
    disable("cannot write trace", error);
    return -1;
  }
  return 0;
}

/* Bytes of one event word in a buffer. */
static size_t event_bytes(void) {
  return rt.narrow ? sizeof(uint16_t) : sizeof(uint32_t);
}

/* Events in the thread's active buffer, up to its cursor. A cursor outside
 * that buffer is stale: code that keeps the cursor in registers
 * (--phaedrus-instrument's thread-cursor) was interrupted by a signal
 * handler whose records made this thread change buffers; the events it
 * wrote since its last call out are lost, which the trace reports as
 * dropped events. */
static uint32_t active_count(const struct thread_state *t) {
  if (!t->cursor || !t->active)
    return 0;
  const char *start = (const char *)t->active->tokens;
  const char *cursor = (const char *)*t->cursor;
  if (cursor < start || cursor > start + PHAEDRUS_CHUNK_TOKENS * event_bytes()) {
    rt.dropped = 1;
    return 0;
  }
  return (uint32_t)((size_t)(cursor - start) / event_bytes());
}

/* The runtime's own zstd: libzstd.so.1 opened with RTLD_DEEPBIND and its
 * functions taken from it, never the program's. A program that defines
 * zstd's functions itself (zstd does, and so does every program with a
 * copy of it) would otherwise satisfy a link-time reference to them with
 * its own instrumented code: the writer then recorded the program's
 * compression of its trace into the trace, and once its thread's buffers
 * were full waited for them forever, as the writer that frees them (a
 * zstd user's trial: every run hung). Without the library, chunks are
 * written raw. */
struct zstd_api {
  ZSTD_CCtx *(*createCCtx)(void);
  size_t (*freeCCtx)(ZSTD_CCtx *);
  size_t (*compressCCtx)(ZSTD_CCtx *, void *, size_t, const void *, size_t,
                         int);
  unsigned (*isError)(size_t);
};

static int load_zstd(struct zstd_api *api) {
  void *library = dlopen("libzstd.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
  if (!library)
    return 0;
  api->createCCtx = (ZSTD_CCtx * (*)(void)) dlsym(library, "ZSTD_createCCtx");
  api->freeCCtx = (size_t(*)(ZSTD_CCtx *))dlsym(library, "ZSTD_freeCCtx");
  api->compressCCtx =
      (size_t(*)(ZSTD_CCtx *, void *, size_t, const void *, size_t, int))dlsym(
          library, "ZSTD_compressCCtx");
  api->isError = (unsigned (*)(size_t))dlsym(library, "ZSTD_isError");
  return api->createCCtx && api->freeCCtx && api->compressCCtx && api->isError;
}

/* The writer's compressor: a zstd context and room for a chunk's
 * prediction residue (EVNP) and for its compressed form. */
struct compressor {
  struct zstd_api zstd;
  ZSTD_CCtx *cctx;
  uint32_t *table;   /* PHAEDRUS_PREDICT_TABLE words */
  uint32_t *residue; /* flags, then misses */
  void *out;
  size_t out_size;
  int predict; /* path granularity: predict the next chunk (EVNP) */
  int dense;   /* the last chunk missed often: predict it without a branch */
};

static int compressor_init(struct compressor *c) {
  size_t residue_words = phaedrus_predict_flag_words(PHAEDRUS_CHUNK_TOKENS) +
                         PHAEDRUS_CHUNK_TOKENS;
  memset(c, 0, sizeof *c);
  if (!load_zstd(&c->zstd))
    return 0;
  c->cctx = c->zstd.createCCtx();
  c->table = malloc(PHAEDRUS_PREDICT_TABLE * sizeof(uint32_t));
  c->residue = malloc(residue_words * sizeof(uint32_t));
  c->out_size = ZSTD_COMPRESSBOUND(residue_words * sizeof(uint32_t));
  c->out = malloc(c->out_size);
  return c->cctx && c->table && c->residue && c->out;
}

static void compressor_free(struct compressor *c) {
  if (c->cctx)
    c->zstd.freeCCtx(c->cctx);
  free(c->table);
  free(c->residue);
  free(c->out);
}

/* Writes one buffer compressed with a compressor: zstd alone (EVNZ, or
 * EV2Z with 16-bit events), or at path granularity when that compresses
 * poorly, predicted first, then zstd (EVNP); raw (EVNT, EV2T) without a
 * compressor (signal handlers must not allocate) or if compression fails.
 * Caller holds write_lock.
 * Why the choice (one core, 2026-11, 64K-word chunks as the writer gets
 * them, zstd level 1, ns per word): Lua's path traces repeat enough that
 * zstd alone is both faster and smaller (gc.lua 0.58 ns, 0.94 MB, against
 * 1.44 ns and 1.37 MB predicted; sparse.lua 1.94 against 2.51 ns; life.lua
 * 0.99 against 1.98 ns), but bzip2's, of which zstd alone makes only 6.5x,
 * are written faster predicted (compressing, 6.9 against 7.8 ns: 47% of
 * the words miss the predictor, and zstd gets half the bytes;
 * decompressing, 4.3 against 5.7 ns, zstd alone 9.1x). Lua's shrink 33x
 * (sparse.lua) to 370x (gc.lua) with zstd alone, bzip2's 6.5-9x. So the
 * writer predicts the next chunk when the last one shrank less than 16x
 * (zstd alone) or 24x (predicted). Function traces (16-bit words, at most
 * a few thousand distinct) always compress well. */
static void write_buffer(struct buffer *b, struct compressor *c) {
  int error;
  if (c) {
    uint32_t tag = rt.narrow ? PHAEDRUS_TAG_EV2Z : PHAEDRUS_TAG_EVNZ;
    const void *words = b->tokens;
    size_t bytes = b->count * event_bytes();
    int predicted = rt.granularity == PHAEDRUS_GRANULARITY_PATH && c->predict;
    if (predicted) {
      size_t flag_words = phaedrus_predict_flag_words(b->count);
      size_t missed = phaedrus_predict_encode(b->tokens, b->count, c->table,
                                              c->residue, c->residue + flag_words,
                                              c->dense);
      /* Break-even of the two loops: about one miss in 16 tokens. */
      c->dense = missed * 16 > b->count;
      tag = PHAEDRUS_TAG_EVNP;
      words = c->residue;
      bytes = sizeof(uint32_t) * (flag_words + missed);
    }
    size_t n = c->zstd.compressCCtx(c->cctx, c->out, c->out_size, words, bytes,
                                    ZSTD_LEVEL);
    if (!c->zstd.isError(n)) {
      /* Predict the next chunk while this one shrank less than 16x (zstd
       * alone) or 24x (predicted; prediction makes a chunk a little
       * smaller, and the gap keeps the choice from flapping). */
      c->predict = rt.granularity == PHAEDRUS_GRANULARITY_PATH &&
                   n * (predicted ? 24 : 16) > b->count * event_bytes();
      uint32_t head[2] = {b->sequence, b->count};
      error = write_record(tag, b->owner->index, head, sizeof head, c->out, n);
      goto done;
    }
  }
  error = write_record(rt.narrow ? PHAEDRUS_TAG_EV2T : PHAEDRUS_TAG_EVNT,
                       b->owner->index, &b->sequence, sizeof b->sequence,
                       b->tokens, (size_t)b->count * event_bytes());
done:
  if (error) {
    rt.dropped = 1;
    disable("cannot write trace", error);
  }
}

/* Drops a written buffer's cache lines from every cache. The writer has
 * just read them, so without this the recording thread's next stores into
 * the buffer (once it comes back) each wait for the line to be taken back
 * from the writer's core; after it they miss to memory, which the
 * hardware prefetcher streams. Measured (x86-64, 2 cores of an AMD EPYC,
 * 2026-11-24, same program object linked to both runtimes, median of 9-11
 * interleaved runs against plain): Lua queues.lua at scale 4, function
 * granularity 1.95x -> 1.56x (a writer that reads nothing: 1.59x),
 * tables.lua 1.65x -> 1.52x; path granularity queues.lua 3.97x -> 3.14x,
 * gc.lua 2.45x -> 2.12x. clflush is in every x86-64 CPU; clflushopt did
 * no better. But a clflush of every line costs the writer time, and the
 * writer only evicts when no buffer is waiting (writer_main). */
static void evict_lines(const void *start, size_t bytes) {
#if defined(__x86_64__)
  const char *p = (const char *)((uintptr_t)start & ~(uintptr_t)63);
  for (const char *end = (const char *)start + bytes; p < end; p += 64)
    _mm_clflush(p);
#else
  (void)start;
  (void)bytes;
#endif
}

/* Caller holds queue_lock. A written buffer goes back to its thread, or,
 * the thread having exited, back to the C library: a program that runs a
 * thread per task kept every thread's buffers (a run of 70,000 short
 * threads grew to 1.1 GB until 2026-11-28; found by a review). */
static void give_back(struct buffer *b) {
  struct thread_state *t = b->owner;
  if (!t->cursor) {
    --t->buffers;
    runtime_free(b);
    return;
  }
  b->next = t->free_list;
  t->free_list = b;
  pthread_cond_broadcast(&rt.returned);
}

/* Whether the calling thread, not the main one, is its process's only one
 * left: the thread count of /proc/self/stat (its 20th field), less the
 * main thread when that ended with pthread_exit (a zombie until the
 * process ends: the state, the 3rd field, is the main thread's); 0 when
 * that cannot be read. */
static int only_thread(void) {
  char stat[1024];
  int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read(fd, stat, sizeof stat - 1);
  close(fd);
  if (n <= 0)
    return 0;
  stat[n] = 0;
  const char *p = strrchr(stat, ')'); /* the name may hold spaces */
  if (!p)
    return 0;
  int main_ended = p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
  int field = 2;
  for (++p; *p && field < 20; ++p)
    if (*p == ' ')
      ++field;
  return field == 20 && strtol(p, NULL, 10) - main_ended == 1;
}

/* The writer: takes buffers off the queue in order, compresses and writes
 * them, gives them back. Holding write_lock from taking a buffer to having
 * written it keeps each thread's chunks in sequence even when a signal
 * handler takes over. */
static void *writer_main(void *unused) {
  (void)unused;
  /* Anything of the program's the writer runs (a function of the C
   * library's that the program defines itself, such as malloc) records
   * nothing. */
  runtime_thread = 1;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals go to program threads */
  struct compressor compressor;
  int compress = compressor_init(&compressor);
  for (;;) {
    pthread_mutex_lock(&rt.write_lock);
    pthread_mutex_lock(&rt.queue_lock);
    while (!rt.queue_head && !rt.stop_writer) {
      pthread_mutex_unlock(&rt.write_lock);
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_nsec += 100 * 1000000L;
      if (until.tv_nsec >= 1000000000L) {
        until.tv_nsec -= 1000000000L;
        ++until.tv_sec;
      }
      int idle = pthread_cond_timedwait(&rt.work, &rt.queue_lock, &until) ==
                     ETIMEDOUT &&
                 !rt.queue_head && !rt.stop_writer;
      pthread_mutex_unlock(&rt.queue_lock);
      /* Every thread of the program has ended (main with pthread_exit,
       * then the others): the process would have exited with its last
       * thread, as exit(0) (glibc), and only the writer keeps it. It hung,
       * with every signal blocked, until 2026-11-28 (found by a review). */
      if (idle && only_thread())
        exit(0);
      pthread_mutex_lock(&rt.write_lock);
      pthread_mutex_lock(&rt.queue_lock);
    }
    struct buffer *b = rt.queue_head;
    if (!b || atomic_load(&rt.signalled)) {
      pthread_mutex_unlock(&rt.queue_lock);
      pthread_mutex_unlock(&rt.write_lock);
      break;
    }
    rt.queue_head = b->next;
    if (!rt.queue_head)
      rt.queue_tail = NULL;
    pthread_mutex_unlock(&rt.queue_lock);
    if (atomic_load(&rt.state) == TRACING) {
      write_buffer(b, compress ? &compressor : NULL);
      /* Eviction is for a writer that keeps up: with more buffers queued,
       * the program is waiting on the writer, and a clflush of every line
       * only makes it wait longer (SQLite: 823M function events in 1.3 s
       * of plain time, its writer spent 91% of its time evicting). */
      pthread_mutex_lock(&rt.queue_lock);
      int behind = rt.queue_head != NULL;
      pthread_mutex_unlock(&rt.queue_lock);
      if (!behind)
        evict_lines(b->tokens, (size_t)b->count * event_bytes());
    }
    pthread_mutex_unlock(&rt.write_lock);
    pthread_mutex_lock(&rt.queue_lock);
    give_back(b);
    pthread_mutex_unlock(&rt.queue_lock);
  }
  compressor_free(&compressor);
  return NULL;
}

/* Caller holds queue_lock. */
static void start_writer_locked(void) {
  if (rt.writer_pid == getpid())
    return;
  rt.stop_writer = 0;
  ++runtime_work; /* it allocates the thread's TLS: calloc */
  if (pthread_create(&rt.writer, NULL, writer_main, NULL) == 0)
    rt.writer_pid = getpid();
  --runtime_work;
}

/* Caller holds queue_lock. */
static void enqueue_locked(struct thread_state *t, struct buffer *b,
                           uint32_t count) {
  b->count = count;
  b->sequence = t->next_sequence++;
  b->next = NULL;
  t->queued += count;
  if (rt.queue_tail)
    rt.queue_tail->next = b;
  else
    rt.queue_head = b;
  rt.queue_tail = b;
  pthread_cond_signal(&rt.work);
}

/* Caller holds queue_lock. A fresh or given-back buffer for `t`; waits for
 * the writer when the thread has all its buffers in flight. */
static struct buffer *take_buffer_locked(struct thread_state *t) {
  for (;;) {
    if (rt.retired) /* the run is over: no more buffers (nor writers) */
      return NULL;
    if (t->free_list) {
      struct buffer *b = t->free_list;
      t->free_list = b->next;
      return b;
    }
    if (t->buffers < MAX_BUFFERS_PER_THREAD) {
      struct buffer *b = runtime_aligned(PHAEDRUS_BUFFER_BYTES, sizeof *b);
      if (b) {
        b->owner = t;
        ++t->buffers;
        return b;
      }
      if (t->buffers == 0)
        return NULL;
    }
    if (rt.writer_pid != getpid())
      start_writer_locked();
    if (rt.writer_pid != getpid())
      return NULL;
    pthread_cond_wait(&rt.returned, &rt.queue_lock);
  }
}

/* Points the thread's cursor at the scratch area (tracing is off). */
static void use_scratch(void) { __phaedrus_cursor = scratch; }

/* The thread's records go to `b` from its start (a narrow build's use its
 * first half: inline records stop at PHAEDRUS_NARROW_LIMIT_BYTES). */
static void point_cursor(struct buffer *b) { __phaedrus_cursor = b->tokens; }

/* First event of a thread: give it a state and a buffer. */
static void attach_thread(void) {
  if (atomic_load(&rt.state) != TRACING)
    return use_scratch();
  struct thread_state *t = runtime_calloc(sizeof *t);
  if (!t) {
    disable("out of memory for the trace buffer of", ENOMEM);
    return use_scratch();
  }
  pthread_mutex_lock(&rt.queue_lock);
  struct buffer *b = take_buffer_locked(t);
  if (!b) {
    int retired = rt.retired;
    pthread_mutex_unlock(&rt.queue_lock);
    runtime_free(t);
    if (!retired)
      disable("out of memory for the trace buffer of", ENOMEM);
    return use_scratch();
  }
  t->index = rt.next_thread++;
  t->next = rt.threads;
  rt.threads = t;
  t->active = b;
  t->cursor = &__phaedrus_cursor;
  point_cursor(b); /* under the lock: at_exit reads the cursor */
  pthread_mutex_unlock(&rt.queue_lock);
  pthread_setspecific(rt.key, t);
  thread_state = t;
  stack_t current;
  if (sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE)) {
    stack_t own = {.ss_sp = runtime_malloc(PHAEDRUS_SIGNAL_STACK_BYTES),
                   .ss_flags = 0,
                   .ss_size = PHAEDRUS_SIGNAL_STACK_BYTES};
    if (own.ss_sp && sigaltstack(&own, NULL) == 0)
      t->signal_stack = own.ss_sp;
    else
      runtime_free(own.ss_sp);
  }
}

/* The cursor reached its buffer's limit: attach the thread, or hand the
 * full buffer to the writer and continue in another, or (tracing off, or
 * the run over) recycle the scratch area. All under queue_lock: at_exit
 * takes the threads' buffers while they run (a thread still recording at
 * exit, in a pool that glibc ends with the process). Until 2026-11-28 this
 * read the buffer before taking the lock, and left it named active while
 * it waited for a free one after queuing it: at_exit then queued it again,
 * or a thread queued a buffer at_exit had taken away (NULL); the trace was
 * corrupt, or the program crashed at exit (found by a review). */
static void make_room(void) {
  struct thread_state *t = thread_state;
  if (!t)
    return attach_thread();
  pthread_mutex_lock(&rt.queue_lock);
  if (atomic_load(&rt.state) != TRACING || rt.retired || !t->cursor ||
      !t->active) {
    pthread_mutex_unlock(&rt.queue_lock);
    return use_scratch();
  }
  uint32_t count = active_count(t);
  if (count == 0) { /* a stale cursor (active_count): start the buffer again */
    point_cursor(t->active);
    pthread_mutex_unlock(&rt.queue_lock);
    return;
  }
  start_writer_locked();
  enqueue_locked(t, t->active, count);
  t->active = NULL; /* queued: not the thread's to record into, nor at_exit's */
  struct buffer *b = take_buffer_locked(t);
  int retired = rt.retired;
  if (b && retired) { /* the run ended while this thread waited */
    b->next = t->free_list;
    t->free_list = b;
    b = NULL;
  }
  t->active = b;
  /* The cursor moves with the buffer, under the lock: at_exit reads both. */
  if (b)
    point_cursor(b);
  pthread_mutex_unlock(&rt.queue_lock);
  if (!b) {
    if (!retired)
      disable("cannot start the trace writer for", EAGAIN);
    return use_scratch();
  }
}

/* Set while the thread runs a slow path. A signal handler that interrupts
 * it and records until its own slow path must not take the runtime's locks
 * (the interrupted code may hold them: it would wait forever): its events
 * go to the scratch area instead, and the trace says events were dropped. */
static __thread int in_slow_path;

/* Makes room for the slow path's record; returns what to restore
 * in_slow_path to when it is written. */
static int enter_slow_path(void) {
  int nested = in_slow_path;
  in_slow_path = 1;
  if (runtime_thread || runtime_work) {
    /* The runtime's own thread, or the runtime's allocation, ran program
     * code: not the program's work. */
    use_scratch();
  } else if (nested) {
    rt.dropped = 1;
    use_scratch();
  } else {
    /* make_room may wait for the writer (pthread_cond_wait): no
     * cancellation point of the program's there. A thread cancelled in it
     * died holding the runtime's lock, and every other thread waited for
     * it forever (until 2026-11-28; found by a review). */
    int cancel;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel);
    make_room();
    pthread_setcancelstate(cancel, NULL);
  }
  return nested;
}

__attribute__((preserve_most)) void __phaedrus_record_slow(uint32_t token) {
  int nested = enter_slow_path();
  if (rt.narrow) {
    uint16_t *cursor = __phaedrus_cursor;
    *cursor = (uint16_t)token;
    __phaedrus_cursor = cursor + 1;
  } else {
    uint32_t *cursor = __phaedrus_cursor;
    *cursor = token;
    __phaedrus_cursor = cursor + 1;
  }
  in_slow_path = nested;
}

__attribute__((preserve_most)) void
__phaedrus_record_path_slow(uint32_t first, uint32_t second, uint32_t third) {
  int nested = enter_slow_path();
  uint32_t *cursor = __phaedrus_cursor;
  cursor[0] = first;
  cursor[1] = second;
  cursor[2] = third;
  __phaedrus_cursor =
      cursor + ((first & PHAEDRUS_PATH_KIND_MASK) == PHAEDRUS_PATH_SHORT
                    ? 1
                    : PHAEDRUS_PATH_RUN_WORDS);
  in_slow_path = nested;
}

static void write_end(uint32_t exit_kind, uint32_t signal_number) {
  uint32_t threads = 0;
  uint64_t events = 0;
  for (struct thread_state *t = rt.threads; t; t = t->next) {
    events += t->queued;
    threads += t->queued != 0;
  }
  struct phaedrus_end end = {events, exit_kind, signal_number, threads,
                             (uint32_t)rt.dropped};
  if (atomic_load(&rt.state) == TRACING)
    write_record(PHAEDRUS_TAG_ENDT, 0, &end, sizeof end, NULL, 0);
  atomic_store(&rt.state, FINISHED);
}

/* Normal exit: queue every thread's partial buffer, let the writer drain
 * the queue, then end the file. */
static void at_exit(void) {
  if (atomic_load(&rt.state) != TRACING)
    return;
  /* Not this process's trace: a vfork child (sharing the parent's memory)
   * that called exit() ended the parent's trace, and the parent recorded
   * nothing more (until 2026-11-28; found by a review). */
  if (getpid() != rt.owner)
    return;
  if (in_slow_path) {
    /* exit() from inside the runtime: a signal handler that interrupted
     * it, or a function of the program's that it called (its own malloc).
     * It may hold queue_lock, and taking it again would wait forever
     * (until 2026-11-28 a program whose SIGINT handler calls exit hung
     * about one run in five). The trace is left without its end. */
    rt.dropped = 1;
    disable("the program exited from inside the runtime (a signal handler "
            "that interrupted it, or its own malloc that it called), which "
            "cannot finish trace",
            EDEADLK);
    return;
  }
  pthread_mutex_lock(&rt.queue_lock);
  rt.retired = 1;
  for (struct thread_state *t = rt.threads; t; t = t->next) {
    uint32_t count = active_count(t);
    if (!count)
      continue;
    struct buffer *b = t->active;
    enqueue_locked(t, b, count);
    t->active = NULL; /* events after this point go to the scratch area */
    if (t == thread_state)
      use_scratch();
  }
  /* (The writer runs this itself when it ends the process: only_thread.) */
  int writing = rt.writer_pid == getpid() && !runtime_thread;
  rt.stop_writer = 1;
  pthread_cond_broadcast(&rt.work);
  pthread_mutex_unlock(&rt.queue_lock);
  if (writing) {
    ++runtime_work;
    pthread_join(rt.writer, NULL);
    --runtime_work;
    rt.writer_pid = 0;
  } else {
    /* No writer ever ran (a short run), or this is the writer: write the
     * queue here. */
    pthread_mutex_lock(&rt.write_lock);
    for (struct buffer *b = rt.queue_head; b; b = b->next)
      write_buffer(b, NULL);
    rt.queue_head = rt.queue_tail = NULL;
    pthread_mutex_unlock(&rt.write_lock);
  }
  write_end(PHAEDRUS_EXIT_NORMAL, 0);
}

/* Takes `m` if it comes free within about a second (1000 tries, 1 ms
 * apart): a signal handler must not wait for ever. */
static int lock_within_a_second(pthread_mutex_t *m) {
  for (int tries = 0; tries < 1000; ++tries) {
    if (pthread_mutex_trylock(m) == 0)
      return 1;
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
  return 0;
}

/* Fatal signal: stop the writer between two records, then write what is
 * queued and every thread's partial buffer uncompressed (no allocation in
 * a signal handler), and end the file. Best effort: other threads keep
 * running until the signal kills the process. */
static void on_fatal_signal(int signal_number) {
  int expected = 0;
  if (atomic_load(&rt.state) == TRACING &&
      atomic_compare_exchange_strong(&rt.signalled, &expected, 1)) {
    if (lock_within_a_second(&rt.write_lock)) {
      /* The queue too, so that no other thread queues a chunk while the
       * handler walks the queue and the threads (a chunk queued meanwhile
       * was skipped, and the next written with a later sequence number:
       * 3 of 12 crashes of a multi-threaded program left a trace the
       * reader refused until 2026-11-28; found by a review). Without it
       * (this thread crashed holding it) the walk is best effort. Held
       * until the signal ends the process. */
      (void)lock_within_a_second(&rt.queue_lock);
      rt.retired = 1;
      for (struct buffer *b = rt.queue_head; b; b = b->next)
        write_buffer(b, NULL);
      rt.queue_head = rt.queue_tail = NULL;
      for (struct thread_state *t = rt.threads; t; t = t->next) {
        uint32_t count = active_count(t);
        if (!count)
          continue;
        struct buffer *b = t->active;
        b->count = count;
        b->sequence = t->next_sequence++;
        t->queued += count;
        write_buffer(b, NULL);
        *t->cursor = b->tokens;
      }
      write_end(PHAEDRUS_EXIT_SIGNAL, (uint32_t)signal_number);
    }
  }
  for (size_t i = 0; i < NUM_FATAL_SIGNALS; ++i)
    if (fatal_signals[i] == signal_number)
      sigaction(signal_number, &previous_actions[i], NULL);
  raise(signal_number);
}

static void on_thread_exit(void *state) {
  struct thread_state *t = (struct thread_state *)state;
  /* The runtime's key is made first, so glibc runs its destructor before
   * the program's, whose events were discarded without a word (until
   * 2026-11-28; found by a review). Set again, it runs once more, after
   * theirs: the thread's buffer is taken then. */
  if (t->exit_passes++ == 0) {
    pthread_setspecific(rt.key, t);
    return;
  }
  pthread_mutex_lock(&rt.queue_lock);
  uint32_t count = active_count(t);
  if (count && atomic_load(&rt.state) == TRACING && !rt.retired) {
    start_writer_locked();
    enqueue_locked(t, t->active, count);
    t->active = NULL;
  }
  t->cursor = NULL; /* the thread's cursor goes away with it */
  /* Events after this point (other destructors, the frees below) go to the
   * scratch area. */
  use_scratch();
  /* Its buffers that are not queued go, and the queued ones once written
   * (give_back); its state stays, for the writer's records and the end
   * record's counts. Freed outside the lock: free may be the program's. */
  struct buffer *unused = t->free_list;
  t->free_list = NULL;
  if (t->active) {
    t->active->next = unused;
    unused = t->active;
    t->active = NULL;
  }
  for (struct buffer *b = unused; b; b = b->next)
    --t->buffers;
  pthread_mutex_unlock(&rt.queue_lock);
  while (unused) {
    struct buffer *b = unused;
    unused = b->next;
    runtime_free(b);
  }
  /* The signal stack, unless the program has put its own in its place. */
  stack_t current;
  if (t->signal_stack && sigaltstack(NULL, &current) == 0 &&
      current.ss_sp == t->signal_stack && !(current.ss_flags & SS_ONSTACK)) {
    stack_t off = {.ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0};
    if (sigaltstack(&off, NULL) == 0) {
      runtime_free(t->signal_stack);
      t->signal_stack = NULL;
    }
  }
}

/* fork(): no thread may be inside the queue or the file while the address
 * space is copied. */
static void before_fork(void) {
  pthread_mutex_lock(&rt.write_lock);
  pthread_mutex_lock(&rt.queue_lock);
}

static void after_fork_in_parent(void) {
  pthread_mutex_unlock(&rt.queue_lock);
  pthread_mutex_unlock(&rt.write_lock);
}

static void after_fork_in_child(void) {
  /* The parent writes its own queued and partial events; the child keeps
   * only the forking thread, starts a new file and, lazily, its own writer. */
  pthread_mutex_init(&rt.queue_lock, NULL);
  pthread_mutex_init(&rt.write_lock, NULL);
  pthread_cond_init(&rt.work, NULL);
  pthread_cond_init(&rt.returned, NULL);
  rt.queue_head = rt.queue_tail = NULL;
  rt.writer_pid = 0;
  rt.stop_writer = 0;
  if (atomic_load(&rt.state) != TRACING)
    return;
  struct thread_state *self = thread_state;
  rt.threads = self;
  rt.next_thread = 1;
  if (self) {
    self->next = NULL;
    self->index = 0;
    self->next_sequence = 0;
    self->queued = 0;
    /* Buffers that were queued in the parent are gone from the child's
     * point of view; allow fresh ones. */
    self->free_list = NULL;
    self->buffers = 1;
    if (self->active)
      point_cursor(self->active);
  }
  close(rt.fd);
  rt.fd = -1;
  /* The path is fixed now, in the directory the child starts in (it may
   * change directory before it writes). */
  if (trace_path(1) != 0) {
    atomic_store(&rt.state, DISABLED);
    return;
  }
  if (rt.path[0] != '/') {
    char cwd[sizeof rt.path];
    if (getcwd(cwd, sizeof cwd)) {
      char relative[sizeof rt.path];
      memcpy(relative, rt.path, sizeof relative);
      snprintf(rt.path, sizeof rt.path, "%s/%s", cwd, relative);
    }
  }
  /* The file is made when the child first writes: a child that execs
   * another program at once (a shell command, `cmd | getline` in awk)
   * would otherwise leave a file of its header and vocabulary (400 KB for
   * gawk) with no events and no end. */
  rt.child_unopened = 1;
  rt.owner = getpid();
}

void __phaedrus_register(const char *vocabulary, uint64_t vocabulary_size,
                         uint64_t fingerprint, uint32_t granularity) {
  if (atomic_load(&rt.state) != UNINITIALIZED)
    return;
  rt.vocabulary = vocabulary;
  rt.vocabulary_size = vocabulary_size;
  rt.fingerprint = fingerprint;
  rt.narrow = (granularity & PHAEDRUS_NARROW_EVENTS) != 0;
  rt.granularity = (int)(granularity & ~PHAEDRUS_NARROW_EVENTS);
  if (open_trace(0) != 0) {
    int expected = UNINITIALIZED;
    atomic_compare_exchange_strong(&rt.state, &expected, DISABLED);
    return;
  }
  if (pthread_key_create(&rt.key, on_thread_exit) != 0) {
    disable("cannot set up thread-exit flushing for", EAGAIN);
    return;
  }
  pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
  rt.owner = getpid();
  atexit(at_exit);
  for (size_t i = 0; i < NUM_FATAL_SIGNALS; ++i) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_fatal_signal;
    action.sa_flags = SA_ONSTACK; /* the thread's signal stack, if it has one */
    sigemptyset(&action.sa_mask);
    /* Leave alone signals the program (or its parent) chose to ignore. */
    if (sigaction(fatal_signals[i], NULL, &previous_actions[i]) == 0 &&
        previous_actions[i].sa_handler == SIG_DFL)
      sigaction(fatal_signals[i], &action, NULL);
  }
  atomic_store(&rt.state, TRACING);
}

const char *__phaedrus_trace_path(void) {
  return atomic_load(&rt.state) == UNINITIALIZED ? NULL : rt.path;
}
