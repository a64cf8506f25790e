/* assimp_load.c - load model files with libassimp's C API, each in its own process under a time
 * limit, and say what assimp did: load, reject, crash or hang (tests/loaders, the oracle of
 * --target=assimp).
 *
 * usage: assimp_load [--timeout=SECONDS] FILE...
 * prints one line per file: FILE<TAB>load|reject|crash|hang<TAB>detail
 * exit 0 when every file got an answer, 2 on a usage or system error.
 *
 * The import asks for aiProcess_ValidateDataStructure, assimp's own check that the scene it built
 * is sound (what an engine must ask for before it uses a scene); no other post-processing. */
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* In the child: import, write the answer to fd, exit. */
static void child(const char *path, int fd, unsigned timeout)
{
  const struct aiScene *scene;
  char line[512];
  struct rlimit mem = {(rlim_t)2 << 30, (rlim_t)2 << 30}; /* a huge count is a refusal, not swap */
  setrlimit(RLIMIT_AS, &mem);
  alarm(timeout + 1); /* belt and braces: the parent kills it at timeout anyway */
  scene = aiImportFile(path, aiProcess_ValidateDataStructure);
  if (scene) {
    snprintf(line, sizeof line, "load\t%u meshes, %u animations, %u materials", scene->mNumMeshes,
             scene->mNumAnimations, scene->mNumMaterials);
    aiReleaseImport(scene);
  } else {
    const char *e = aiGetErrorString();
    snprintf(line, sizeof line, "reject\t%s", e && *e ? e : "no scene");
  }
  for (char *p = line; *p; p++) /* one line per file */
    if (*p == '\n' || *p == '\r')
      *p = ' ';
  if (write(fd, line, strlen(line)) < 0)
    _exit(3);
  _exit(0);
}

static int run_one(const char *path, unsigned timeout)
{
  int fds[2], status = 0;
  pid_t pid;
  char buf[600];
  ssize_t n, got = 0;
  struct timespec start, now;
  if (pipe(fds) < 0)
    return -1;
  pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    close(fds[0]);
    child(path, fds[1], timeout);
  }
  close(fds[1]);
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (;;) { /* wait for the child, at most timeout seconds */
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid)
      break;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec >= (time_t)timeout) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      printf("%s\thang\tno answer within %u s\n", path, timeout);
      close(fds[0]);
      return 0;
    }
    usleep(2000);
  }
  while (got < (ssize_t)sizeof buf - 1 && (n = read(fds[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
    got += n;
  close(fds[0]);
  buf[got] = 0;
  if (WIFSIGNALED(status))
    printf("%s\t%s\tsignal %d (%s)\n", path, WTERMSIG(status) == SIGALRM ? "hang" : "crash",
           WTERMSIG(status), strsignal(WTERMSIG(status)));
  else if (WEXITSTATUS(status) != 0 || !got)
    printf("%s\tcrash\texit %d without an answer (an exception or abort)\n", path, WEXITSTATUS(status));
  else
    printf("%s\t%s\n", path, buf);
  return 0;
}

int main(int argc, char **argv)
{
  unsigned timeout = 10;
  int i = 1;
  if (i < argc && !strncmp(argv[i], "--timeout=", 10))
    timeout = (unsigned)atoi(argv[i++] + 10);
  if (i >= argc || !timeout) {
    fprintf(stderr, "usage: assimp_load [--timeout=SECONDS] FILE...\n");
    return 2;
  }
  for (; i < argc; i++) {
    fflush(stdout);
    if (run_one(argv[i], timeout) < 0) {
      fprintf(stderr, "assimp_load: %s: %s\n", argv[i], strerror(errno));
      return 2;
    }
    fflush(stdout);
  }
  return 0;
}
