/* A parent and its forked child call different functions. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int in_child(int x) { return x + 1; }
__attribute__((noinline)) static int in_parent(int x) { return x + 2; }

int main(void) {
  int x = 0;
  pid_t pid = fork();
  if (pid == 0) {
    for (int i = 0; i < 10; ++i)
      x = in_child(x);
    printf("child %d\n", x);
    return 0;
  }
  for (int i = 0; i < 20; ++i)
    x = in_parent(x);
  int status;
  waitpid(pid, &status, 0);
  printf("parent %d\n", x);
  return 0;
}
