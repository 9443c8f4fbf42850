/*===- phaedrus_rt.c - Runtime of instrumented programs ------------------===//
 *
 * Records the whole program path of an instrumented program into a trace
 * file (docs/TraceFormat.md). Linked into the user's program, so it:
 *   - never aborts or changes what the program does: on any failure it says
 *     so once on stderr and stops tracing;
 *   - keeps one buffer per thread and writes full buffers as checksummed
 *     records, each with a single write, so a killed run keeps every record
 *     written before the kill;
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

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* Set by an instrumented call site just before a direct call: the call-site
 * token plus one. The callee's entry code consumes it. */
__thread uint32_t __phaedrus_site;

/* The hot path is inlined into instrumented code: while the cursor is below
 * the limit, store the token(s) there and advance the cursor; otherwise call
 * __phaedrus_record_slow. The limit stays one slot short of the buffer's end
 * so that a two-word path event fits whenever the test passes. Both start
 * NULL, so a thread's first event takes the slow path. */
__thread uint32_t *__phaedrus_cursor;
__thread uint32_t *__phaedrus_limit;

struct buffer {
  uint32_t **cursor;   /* the owning thread's __phaedrus_cursor; NULL after it exited */
  uint32_t thread_index;
  uint32_t sequence;
  uint64_t flushed;    /* events of this thread written so far */
  struct buffer *next; /* all buffers, for flushing at exit and on signals */
  uint32_t tokens[PHAEDRUS_CHUNK_TOKENS];
};

static __thread struct buffer *thread_buffer;

/* Where events go while tracing is off: overwritten, never written out. */
#define SCRATCH_TOKENS 1024u
static __thread uint32_t scratch[SCRATCH_TOKENS];

static uint32_t buffer_count(const struct buffer *b) {
  return b->cursor ? (uint32_t)(*b->cursor - b->tokens) : 0;
}

static struct {
  atomic_int state; /* enum state */
  int fd;
  pthread_mutex_t lock; /* guards fd writes and the buffer list */
  pthread_key_t key;    /* flushes a thread's buffer when it exits */
  struct buffer *buffers;
  uint32_t next_thread;
  int dropped;
  int granularity;
  uint64_t fingerprint;
  const char *vocabulary;
  uint64_t vocabulary_size;
  char path[4096];
} rt = {.fd = -1, .lock = PTHREAD_MUTEX_INITIALIZER};

enum state { UNINITIALIZED = 0, TRACING = 1, DISABLED = 2, FINISHED = 3 };

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE,  SIGILL,
                                    SIGABRT, SIGTERM, SIGINT, SIGHUP,
                                    SIGQUIT, SIGPIPE, SIGXCPU, SIGXFSZ};
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

/* Writes one record with a single writev (retried on partial writes). */
static int write_record(uint32_t tag, uint32_t aux, const void *payload1,
                        size_t size1, const void *payload2, size_t size2) {
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
  int count = size2 ? 3 : (size1 ? 2 : 1);
  size_t remaining = sizeof header + size1 + size2;
  struct iovec *v = iov;
  while (remaining) {
    ssize_t written = writev(rt.fd, v, count);
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return errno;
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
  return 0;
}

/* Writes the buffer's events; caller holds rt.lock (or is a signal handler
 * that could not take it). */
static void flush_locked(struct buffer *b) {
  uint32_t count = buffer_count(b);
  if (!count)
    return;
  int error = write_record(PHAEDRUS_TAG_EVNT, b->thread_index, &b->sequence,
                           sizeof b->sequence, b->tokens,
                           (size_t)count * sizeof(uint32_t));
  if (error) {
    rt.dropped = 1;
    disable("cannot write trace", error);
  } else {
    b->flushed += count;
  }
  ++b->sequence;
  *b->cursor = b->tokens;
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

/* Opens the trace file and writes its fixed records. */
static int open_trace(int forked_child) {
  const char *pattern = getenv("PHAEDRUS_TRACE");
  if (pattern && strcmp(pattern, "off") == 0)
    return -1;
  if (!pattern || !*pattern)
    pattern = "phaedrus-%p.wpp";
  expand_path(rt.path, sizeof rt.path, pattern, forked_child);
  rt.fd = open(rt.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (rt.fd < 0) {
    disable("cannot create trace", errno);
    return -1;
  }
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  struct phaedrus_head head = {
      PHAEDRUS_TRACE_VERSION,   (uint32_t)rt.granularity, rt.fingerprint,
      (uint32_t)getpid(),       (uint32_t)getppid(),
      (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec};
  int error = 0;
  if (write(rt.fd, PHAEDRUS_TRACE_MAGIC, PHAEDRUS_TRACE_MAGIC_SIZE) !=
      PHAEDRUS_TRACE_MAGIC_SIZE)
    error = errno ? errno : EIO;
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

/* Flushes everything and writes the end record. */
static void finish(uint32_t exit_kind, uint32_t signal_number, int locked) {
  if (atomic_load(&rt.state) != TRACING)
    return;
  uint32_t threads = 0;
  uint64_t events = 0;
  for (struct buffer *b = rt.buffers; b; b = b->next) {
    flush_locked(b);
    events += b->flushed;
    threads += b->flushed != 0;
  }
  struct phaedrus_end end = {events, exit_kind,
                             signal_number, threads, (uint32_t)rt.dropped};
  if (atomic_load(&rt.state) == TRACING)
    write_record(PHAEDRUS_TAG_ENDT, 0, &end, sizeof end, NULL, 0);
  atomic_store(&rt.state, FINISHED);
  (void)locked;
}

static void at_exit(void) {
  pthread_mutex_lock(&rt.lock);
  finish(PHAEDRUS_EXIT_NORMAL, 0, 1);
  pthread_mutex_unlock(&rt.lock);
}

static void on_fatal_signal(int signal_number) {
  /* Best effort: take the lock if nobody holds it; a thread interrupted
   * inside a write may leave a partial record, which the reader drops. */
  int locked = pthread_mutex_trylock(&rt.lock) == 0;
  finish(PHAEDRUS_EXIT_SIGNAL, (uint32_t)signal_number, locked);
  if (locked)
    pthread_mutex_unlock(&rt.lock);
  for (size_t i = 0; i < NUM_FATAL_SIGNALS; ++i)
    if (fatal_signals[i] == signal_number)
      sigaction(signal_number, &previous_actions[i], NULL);
  raise(signal_number);
}

static void on_thread_exit(void *buffer) {
  struct buffer *b = (struct buffer *)buffer;
  pthread_mutex_lock(&rt.lock);
  if (atomic_load(&rt.state) == TRACING)
    flush_locked(b);
  b->cursor = NULL; /* the thread's cursor goes away with it */
  pthread_mutex_unlock(&rt.lock);
  /* Events after this point (other destructors) go to the scratch area. */
  __phaedrus_cursor = scratch;
  __phaedrus_limit = scratch + SCRATCH_TOKENS - 1;
}

static void in_forked_child(void) {
  /* The parent flushes its own unflushed events; the child starts afresh. */
  pthread_mutex_init(&rt.lock, NULL);
  if (atomic_load(&rt.state) != TRACING)
    return;
  /* Only the forking thread lives on in the child. */
  for (struct buffer *b = rt.buffers; b; b = b->next) {
    if (b == thread_buffer)
      *b->cursor = b->tokens;
    else
      b->cursor = NULL;
    b->sequence = 0;
    b->flushed = 0;
  }
  close(rt.fd);
  rt.fd = -1;
  if (open_trace(1) != 0)
    return;
}

void __phaedrus_register(const char *vocabulary, uint64_t vocabulary_size,
                         uint64_t fingerprint, uint32_t granularity) {
  if (atomic_load(&rt.state) != UNINITIALIZED)
    return;
  rt.vocabulary = vocabulary;
  rt.vocabulary_size = vocabulary_size;
  rt.fingerprint = fingerprint;
  rt.granularity = (int)granularity;
  if (open_trace(0) != 0) {
    int expected = UNINITIALIZED;
    atomic_compare_exchange_strong(&rt.state, &expected, DISABLED);
    return;
  }
  if (pthread_key_create(&rt.key, on_thread_exit) != 0) {
    disable("cannot set up thread-exit flushing for", EAGAIN);
    return;
  }
  pthread_atfork(NULL, NULL, in_forked_child);
  atexit(at_exit);
  for (size_t i = 0; i < NUM_FATAL_SIGNALS; ++i) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_fatal_signal;
    sigemptyset(&action.sa_mask);
    /* Leave alone signals the program (or its parent) chose to ignore. */
    if (sigaction(fatal_signals[i], NULL, &previous_actions[i]) == 0 &&
        previous_actions[i].sa_handler == SIG_DFL)
      sigaction(fatal_signals[i], &action, NULL);
  }
  atomic_store(&rt.state, TRACING);
}

/* Points the thread's cursor at the scratch area (tracing is off). */
static void use_scratch(void) {
  __phaedrus_cursor = scratch;
  __phaedrus_limit = scratch + SCRATCH_TOKENS - 1;
}

/* First event of a thread: give it a buffer. */
static void attach_thread(void) {
  if (atomic_load(&rt.state) != TRACING)
    return use_scratch();
  struct buffer *b = calloc(1, sizeof *b);
  if (!b) {
    disable("out of memory for the trace buffer of", ENOMEM);
    return use_scratch();
  }
  b->cursor = &__phaedrus_cursor;
  __phaedrus_cursor = b->tokens;
  __phaedrus_limit = b->tokens + PHAEDRUS_CHUNK_TOKENS - 1;
  pthread_mutex_lock(&rt.lock);
  b->thread_index = rt.next_thread++;
  b->next = rt.buffers;
  rt.buffers = b;
  pthread_mutex_unlock(&rt.lock);
  pthread_setspecific(rt.key, b);
  thread_buffer = b;
}

/* The cursor reached the limit: attach the thread, or write the full
 * buffer, or (tracing off) recycle the scratch area. */
static void make_room(void) {
  struct buffer *b = thread_buffer;
  if (!b) {
    attach_thread();
  } else if (atomic_load(&rt.state) == TRACING && b->cursor) {
    pthread_mutex_lock(&rt.lock);
    if (atomic_load(&rt.state) == TRACING)
      flush_locked(b);
    pthread_mutex_unlock(&rt.lock);
    if (atomic_load(&rt.state) != TRACING)
      use_scratch();
  } else {
    use_scratch();
  }
}

void __phaedrus_record_slow(uint32_t token) {
  make_room();
  *__phaedrus_cursor++ = token;
}

void __phaedrus_record2_slow(uint32_t first, uint32_t second) {
  make_room();
  __phaedrus_cursor[0] = first;
  __phaedrus_cursor[1] = second;
  __phaedrus_cursor += 2;
}

const char *__phaedrus_trace_path(void) {
  return atomic_load(&rt.state) == UNINITIALIZED ? NULL : rt.path;
}
