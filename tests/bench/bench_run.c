/* bench_run.c - run a command once and print its wall time in seconds, its peak resident set
 * in KiB (getrusage of the child), its exit status and its CPU time (user + system) in
 * seconds: "SECONDS MAXRSS_KIB STATUS CPU_SECONDS". CPU time is what the harness compares: on
 * a shared, loaded machine the wall time mostly measures the wait for a core.
 * The command's own output goes to /dev/null so printing does not count. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
  struct timespec t0, t1;
  struct rusage ru;
  pid_t pid;
  int status;

  if (argc < 2) {
    fprintf(stderr, "usage: bench_run COMMAND [ARG...]\n");
    return 2;
  }
  clock_gettime(CLOCK_MONOTONIC, &t0);
  pid = fork();
  if (pid < 0) {
    fprintf(stderr, "bench_run: fork: %s\n", strerror(errno));
    return 70;
  }
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
      dup2(null, 1);
      dup2(null, 2);
    }
    execvp(argv[1], argv + 1);
    _exit(127);
  }
  if (wait4(pid, &status, 0, &ru) < 0) {
    fprintf(stderr, "bench_run: wait: %s\n", strerror(errno));
    return 70;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%.6f %ld %d %.6f\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
         ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
         (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
             (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
  return 0;
}
