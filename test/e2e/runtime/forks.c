/* A parent and its forked child call different functions; the child first
 * moves to another directory. A second child runs another program at once,
 * as a shell command does (it records nothing, and leaves no trace file). */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int in_child(int x) { return x + 1; }
__attribute__((noinline)) static int in_parent(int x) { return x + 2; }

int main(void) {
  int x = 0;
  pid_t pid = fork();
  if (pid == 0) {
    if (chdir("/") != 0)
      return 1;
    for (int i = 0; i < 10; ++i)
      x = in_child(x);
    printf("child %d\n", x);
    return 0;
  }
  pid_t runner = fork();
  if (runner == 0) {
    execl("/bin/true", "true", (char *)NULL);
    _exit(127);
  }
  for (int i = 0; i < 20; ++i)
    x = in_parent(x);
  int status, ran;
  waitpid(pid, &status, 0);
  waitpid(runner, &ran, 0);
  printf("parent %d, command %d\n", x, WEXITSTATUS(ran));
  return 0;
}
