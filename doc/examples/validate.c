/* validate.c - the smallest program over libmdlcheck: validate each file named on the command
 * line, print every diagnostic like a compiler, then the same file's report as JSON.
 *
 *   cc validate.c $(pkg-config --cflags --libs mdlcheck) -o validate           (shared library)
 *   cc -static validate.c $(pkg-config --static --cflags --libs mdlcheck) -o validate
 *
 * Exit status: 0 when every file is valid, 1 when one is not, 3 when one cannot be read. */
#include <mdlcheck.h>
#include <stdio.h>

static void print_diag(const mdl_diag *d, void *user)
{
  const char *path = user;
  /* the diagnostic's strings live only until this function returns: print or copy them now */
  if (d->line)
    printf("%s:%u:%u: ", path, d->line, d->column);
  else if (d->offset >= 0)
    printf("%s:%lld: ", path, d->offset);
  else
    printf("%s: ", path);
  printf("%s[%s]: %s\n", mdl_severity_name(d->severity), d->rule->id, d->message);
}

int main(int argc, char **argv)
{
  int rc = 0;
  for (int i = 1; i < argc; i++) {
    mdl_options options;
    mdl_result result;
    mdl_status status;
    char error[256];
    char *json;

    mdl_options_init(&options); /* sets the size this program was built with: the ABI check */
    mdl_result_init(&result);
    options.on_diag = print_diag;
    options.user = argv[i];
    if (mdl_validate_file(argv[i], &options, &result) != MDL_OK) {
      fprintf(stderr, "%s: cannot read\n", argv[i]);
      rc = 3;
      continue;
    }
    if (result.counts[MDL_FATAL] || result.counts[MDL_ERROR]) {
      printf("%s: invalid %s %s\n", argv[i], result.format, result.version);
      if (rc == 0)
        rc = 1;
    } else {
      printf("%s: valid %s %s\n", argv[i], result.format, result.version);
    }

    /* the same report as the CLI's JSON entry for this file, at most 20 diagnostics */
    json = mdl_validate_file_json(argv[i], (const char *const[]){"fail_on=error", "max_issues=20", NULL},
                                  &status, error, sizeof error);
    if (!json) {
      fprintf(stderr, "%s: %s\n", argv[i], status == MDL_EINVAL ? error : "out of memory");
      return 3;
    }
    printf("%s\n", json);
    mdl_string_free(json);
  }
  return rc;
}
