/* fault_guard.c - a mapped input cut short under mdlcheck ends in "could not check", not a crash. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Inputs over a few pages are memory-mapped (core/input.c). When another process truncates such
 * a file while mdlcheck reads it (or the disk fails under it), reading a page past the new end
 * raises SIGBUS (BUS_ADRERR): the default action killed mdlcheck with no word and exit 135, which
 * a CI gate could read as anything. No report can be trusted after that point (the decode stopped
 * in the middle of a read), so the only honest answer is the documented "input could not be read"
 * exit with a line saying which input and why. The signal is synchronous: it is delivered to the
 * thread that read, so each thread's own input (fault_guard_input) is the one to name. Only
 * write() and _exit() are called: both are async-signal-safe. A SIGBUS of any other kind (one
 * sent by kill, a misaligned access) keeps its default action. */
static __thread const char *guard_a, *guard_b;

void fault_guard_input(const char *a, const char *b)
{
  guard_a = a;
  guard_b = b;
}

/* s to stderr as it is */
static void say(const char *s)
{
  ssize_t w = write(STDERR_FILENO, s, strlen(s));
  (void)w;
}

/* a file name to stderr, its control bytes as '?' (the name is the repository's, issue 26: no
 * escape sequence of its may reach a terminal) */
static void say_name(const char *s)
{
  char buf[256];
  size_t n = 0;
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    buf[n++] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
    if (n == sizeof buf || !s[1]) {
      ssize_t w = write(STDERR_FILENO, buf, n);
      (void)w;
      n = 0;
    }
  }
}

static void on_bus(int sig, siginfo_t *info, void *context)
{
  (void)context;
  if (info && info->si_code == BUS_ADRERR) {
    say("mdlcheck: ");
    if (guard_a)
      say_name(guard_a);
    else
      say("an input file");
    if (guard_b) {
      say(" or ");
      say_name(guard_b);
    }
    say(": could not be read to the end (it shrank while it was read, or the disk failed: bus "
        "error); no verdict\n");
    _exit(EXIT_IO);
  }
  raise(sig); /* SA_RESETHAND made the action the default again: it ends the process as before */
}

void fault_guard_install(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_bus;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  (void)sigaction(SIGBUS, &sa, NULL); /* without it, a truncated input still crashes as before */
}
