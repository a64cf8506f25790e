/* replay_main.c - run a fuzz target over files given on the command line (no fuzzer needed):
 * used by `make check` to replay seeds and kept crashers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
  int failures = 0;
  for (int i = 1; i < argc; i++) {
    struct mdl_input in;
    if (input_open(argv[i], &in, 0) != 0) {
      fprintf(stderr, "replay: cannot read %s\n", argv[i]);
      failures++;
      continue;
    }
    LLVMFuzzerTestOneInput(in.data, in.size);
    input_close(&in);
  }
  printf("replayed %d input(s)\n", argc - 1 - failures);
  return failures ? 1 : 0;
}
