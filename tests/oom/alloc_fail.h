/* alloc_fail.h - allocation-failure injection for test programs linked with
 * -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=realpath,--wrap=getcwd
 * (tests/oom/local.mk). */
#ifndef ALLOC_FAIL_H
#define ALLOC_FAIL_H

/* Count allocations from now on and fail the nth (1-based; 0: fail none). The environment sets
 * the same at start: MDL_ALLOC_FAIL=N; MDL_ALLOC_COUNT=1 prints the count on stderr at exit;
 * MDL_ALLOC_TRACE=1 prints the failed allocation's call stack on stderr. */
void alloc_fail_arm(unsigned long nth);
/* Allocations counted since the last arm (or since start). */
unsigned long alloc_fail_count(void);

#endif
