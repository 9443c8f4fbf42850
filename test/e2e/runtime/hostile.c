/* Programs that do what the runtime must survive without changing them:
 *   closefds FILE  close every descriptor from 3 to 1023 (a daemon's
 *                  closefrom), then write lines to FILE, opened anew
 *   dup2 FILE      open FILE and dup2 it onto descriptor 3
 *   stdout         print a line and fail if writing it fails (run with
 *                  standard output closed, as coreutils do)
 *   threads N MS   N threads still recording when main returns after MS ms
 *   crash N MS     the same, but main then raises SIGSEGV
 *   self N         N calls, run this program again through system(), then
 *                  N calls more; the second image makes 5,000 calls
 *   second         what the second image does
 *   wait           read a line from standard input, then make 1,000
 *                  calls and print a line
 *   vfork N        N calls, a vfork child that calls exit() (which POSIX
 *                  does not allow, and which does no harm uninstrumented),
 *                  then N calls more
 *   spawn N        N short threads one after another, 3 calls each
 *   overflow       recurse until the stack overflows (SIGSEGV)
 *   errors N       N items, every 10th of which raises an error with
 *                  longjmp out of the function that parses it
 *   cancel N MS    N threads recording, cancelled after MS ms (deferred
 *                  cancellation, at their pthread_testcancel)
 *   keys N         N threads, each with a thread-specific value whose
 *                  destructor makes 10 calls
 *   disposition    print whether SIGINT, SIGTERM, SIGHUP and SIGQUIT are
 *                  at their default, as ncurses and CPython ask
 *   mainexit       main starts a thread and ends with pthread_exit; the
 *                  thread works, prints and returns (the process exits
 *                  with its last thread) */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) unsigned step(unsigned x) {
  return x * 2654435761u + 1;
}
__attribute__((noinline)) unsigned other(unsigned x) { return (x >> 3) ^ x; }

static unsigned work(unsigned s, long n) {
  for (long i = 0; i < n; ++i)
    s = step(s);
  return s;
}

static int write_lines(int fd) {
  unsigned s = 1;
  for (int round = 0; round < 5; ++round) {
    s = work(s, 200000);
    char line[64];
    int n = snprintf(line, sizeof line, "round %d %u\n", round, s);
    if (write(fd, line, (size_t)n) != n)
      return 1;
  }
  close(fd);
  printf("s=%u\n", s);
  return 0;
}

static void *briefly(void *arg) {
  unsigned s = (unsigned)(long)arg;
  for (int i = 0; i < 3; ++i)
    s = step(s);
  return (void *)(long)s;
}

__attribute__((noinline)) static int deep(int n) {
  volatile char pad[256];
  pad[0] = (char)n;
  return deep(n + 1) + pad[0];
}

static void *last(void *arg) {
  (void)arg;
  printf("last %u\n", work(3, 100000));
  return NULL;
}

static volatile unsigned sink;

static void *spin_cancellable(void *arg) {
  unsigned s = (unsigned)(long)arg;
  for (unsigned long i = 1;; ++i) {
    s = step(s);
    if (!(i & 0xfffff))
      pthread_testcancel();
  }
  return NULL;
}

static pthread_key_t key;
static void clean(void *value) { sink = work((unsigned)(long)value, 10); }
static void *with_key(void *arg) {
  pthread_setspecific(key, arg);
  return NULL;
}

static jmp_buf on_error;
__attribute__((noinline)) static void parse(int k) {
  if (k % 10 == 9)
    longjmp(on_error, 1);
  sink = (unsigned)k;
}

static void *spin(void *arg) {
  unsigned s = (unsigned)(long)arg;
  for (;;) {
    s = (s & 1) ? step(s) : other(s);
    if (!(s & 0xfffff))
      sink = s;
  }
  return NULL;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "closefds") && argc > 2) {
    for (int fd = 3; fd < 1024; ++fd)
      close(fd);
    return write_lines(open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644));
  }
  if (!strcmp(mode, "dup2") && argc > 2) {
    int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd != 3) {
      dup2(fd, 3);
      close(fd);
    }
    return write_lines(3);
  }
  if (!strcmp(mode, "stdout")) {
    printf("result %u\n", work(1, 1000));
    if (fflush(stdout) != 0 || ferror(stdout)) {
      fprintf(stderr, "hostile: write error on stdout: %s\n", strerror(errno));
      return 1;
    }
    return 0;
  }
  if ((!strcmp(mode, "threads") || !strcmp(mode, "crash")) && argc > 3) {
    pthread_t t;
    for (int i = 0; i < atoi(argv[2]); ++i)
      pthread_create(&t, NULL, spin, (void *)(long)(i + 1));
    usleep((useconds_t)atoi(argv[3]) * 1000);
    printf("main done\n");
    if (!strcmp(mode, "crash")) {
      fflush(stdout);
      raise(SIGSEGV);
    }
    return 0;
  }
  if (!strcmp(mode, "wait")) {
    char line[64];
    if (!fgets(line, sizeof line, stdin))
      return 3;
    printf("result %u\n", work(1, 1000));
    return 0;
  }
  if (!strcmp(mode, "vfork") && argc > 2) {
    long n = atol(argv[2]);
    unsigned s = work(1, n);
    pid_t child = vfork();
    if (child == 0)
      exit(0);
    int status;
    waitpid(child, &status, 0);
    printf("vfork %u\n", work(s, n));
    return 0;
  }
  if (!strcmp(mode, "spawn") && argc > 2) {
    unsigned long total = 0;
    for (int i = 0; i < atoi(argv[2]); ++i) {
      pthread_t t;
      void *result;
      if (pthread_create(&t, NULL, briefly, (void *)(long)i) != 0)
        return 4;
      pthread_join(t, &result);
      total += (unsigned long)result;
    }
    printf("spawn %lu\n", total);
    return 0;
  }
  if (!strcmp(mode, "overflow")) {
    printf("%u\n", work(1, 1000));
    fflush(stdout);
    return deep(0);
  }
  if (!strcmp(mode, "errors") && argc > 2) {
    volatile int i = 0, errors = 0;
    int n = atoi(argv[2]);
    if (setjmp(on_error)) {
      ++errors;
      ++i;
    }
    for (; i < n; ++i)
      parse(i);
    printf("errors %d\n", errors);
    return 0;
  }
  if (!strcmp(mode, "cancel") && argc > 3) {
    int n = atoi(argv[2]);
    pthread_t threads[64];
    for (int i = 0; i < n && i < 64; ++i)
      pthread_create(&threads[i], NULL, spin_cancellable, (void *)(long)(i + 1));
    usleep((useconds_t)atoi(argv[3]) * 1000);
    for (int i = 0; i < n && i < 64; ++i) {
      pthread_cancel(threads[i]);
      pthread_join(threads[i], NULL);
    }
    printf("cancelled %d\n", n);
    return 0;
  }
  if (!strcmp(mode, "keys") && argc > 2) {
    pthread_key_create(&key, clean);
    for (int i = 0; i < atoi(argv[2]); ++i) {
      pthread_t t;
      pthread_create(&t, NULL, with_key, (void *)(long)(i + 1));
      pthread_join(t, NULL);
    }
    printf("keys\n");
    return 0;
  }
  if (!strcmp(mode, "disposition")) {
    const int numbers[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (int i = 0; i < 4; ++i) {
      struct sigaction action;
      sigaction(numbers[i], NULL, &action);
      printf("%d %s\n", numbers[i],
             action.sa_handler == SIG_DFL ? "default" : "taken");
    }
    sink = work(1, 1000);
    return 0;
  }
  if (!strcmp(mode, "mainexit")) {
    pthread_t t;
    if (pthread_create(&t, NULL, last, NULL) != 0)
      return 4;
    pthread_exit(NULL);
  }
  if (!strcmp(mode, "second")) {
    printf("second %u\n", work(7, 5000));
    return 0;
  }
  if (!strcmp(mode, "self") && argc > 2) {
    long n = atol(argv[2]);
    unsigned s = work(1, n);
    char exe[4096], command[4200];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[k > 0 ? k : 0] = 0;
    snprintf(command, sizeof command, "'%s' second", exe);
    fflush(stdout);
    int status = system(command);
    printf("first %u status %d\n", work(s, n), status);
    return 0;
  }
  fprintf(stderr, "usage: hostile closefds FILE | dup2 FILE | stdout | "
                  "threads N MS | self N | wait | vfork N | spawn N | overflow | errors N | cancel N MS | keys N | disposition | mainexit\n");
  return 2;
}
