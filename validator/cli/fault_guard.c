/* fault_guard.c - a mapped input cut short under mdlcheck ends in "could not check", not a crash. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Inputs over a few pages are memory-mapped (core/input.c). When another process truncates such
 * a file while it is decoded, reading a page past the new end raises SIGBUS (BUS_ADRERR): the
 * default action killed mdlcheck with no word and exit 135, which a CI gate could read as
 * anything. No report can be trusted after that point (the decode stopped in the middle of a
 * read), so the only honest answer is the documented "input could not be read" exit with a line
 * saying why. Only write() and _exit() are called: both are async-signal-safe. A SIGBUS of any
 * other kind (one sent by kill, a misaligned access) keeps its default action. */
static void on_bus(int sig, siginfo_t *info, void *context)
{
  static const char msg[] =
    "mdlcheck: an input file could not be read while it was decoded (it shrank, or the disk failed:\n"
      "bus error); no verdict\n";
  (void)context;
  if (info && info->si_code == BUS_ADRERR) {
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)w;
    _exit(EXIT_IO);
  }
  signal(sig, SIG_DFL);
  raise(sig);
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
