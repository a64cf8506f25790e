/* config.c - PLACEHOLDER: YAML configuration loading is being written (see issue 2). */
#include <string.h>

#include "config_file.h"

void config_init(struct mdl_config *c)
{
  memset(c, 0, sizeof *c);
  c->fail_on = -1;
  c->strict = -1;
}

void config_free(struct mdl_config *c)
{
  mdl_policy_free(c->policy);
  c->policy = NULL;
}

int config_load(struct mdl_config *c, const char *path, mdl_diag_fn on_diag, void *user)
{
  (void)c; (void)path; (void)on_diag; (void)user;
  return -1;
}
