/* path_key.h - the key a file is matched on between a saved JSON report (--baseline, diff) and
 * this run, whatever directory each was run from and however the path was spelled. */
#ifndef MDL_PATH_KEY_H
#define MDL_PATH_KEY_H

/* realpath(path, NULL): the canonical path when the file exists, else NULL. Running out of
 * memory ends the run (oom_exit) instead: read as "no such file", it would make a file that is
 * there missing (skipped, listed as unreferenced, matched against nothing). */
char *path_resolve(const char *path);

/* A path named on this run, relative to the working directory: its canonical absolute path when
 * the file exists (links resolved), else the lexically normalised absolute path; "-" (standard
 * input) stays "-". malloc'd; aborts when out of memory. */
char *path_key_here(const char *path);

/* A path a saved report recorded. Reports store paths as they were given, relative to a
 * directory the report does not record, so a relative path is tried against the report's own
 * directory, then each of its ancestors (a report written into a project from its parent, or
 * from the project into a subfolder), then the working directory: the first file that exists is
 * the key. When none exists the working directory's reading is kept (the file is gone; nothing
 * on this run can be it, unless it is gone here too). report_path "-": the report came from
 * standard input, only the working directory is tried. */
char *path_key_saved(const char *path, const char *report_path);

#endif
