/* oom.h - the tool's answer to running out of memory: stop with exit 70. Only the tool may end
 * the process; the library returns MDL_ENOMEM (or a fatal MDL-MEM-001) and the tool maps it. */
#ifndef MDL_CLI_OOM_H
#define MDL_CLI_OOM_H

#include <stddef.h>

/* Say so on stderr and exit 70, the internal-error code. A report that lost a diagnostic must
 * never be printed as if it were complete. */
void oom_exit(void) __attribute__((noreturn));
/* grow_one (grow.h), ending the run when memory runs out. */
void grow_one_or_abort(void *items_ptr, size_t *cap, size_t count, size_t elem, size_t first);
/* malloc (zero: calloc), ending the run when memory runs out. */
void *alloc_or_exit(size_t size, int zero);

#endif
