/* report_tool.h - the report writers only the tool uses: SARIF, GitHub annotations and the
 * end-of-batch summary (the library writes text and JSON). */
#ifndef MDL_CLI_REPORT_TOOL_H
#define MDL_CLI_REPORT_TOOL_H

#include <stdio.h>

#include "report.h"

void report_write_sarif(FILE *out, const struct report *r);
/* GitHub Actions workflow commands (annotations). */
void report_write_github(FILE *out, const struct report *r);
/* The end-of-batch summary (text). */
void report_write_summary(FILE *out, const struct report *r);

#endif
