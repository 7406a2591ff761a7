/* util.h - error reporting, checked allocation and output for the tools. */
#ifndef CG_UTIL_H
#define CG_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Exit statuses shared by every tool. */
enum { CG_EXIT_OK = 0, CG_EXIT_DATA = 1, CG_EXIT_USAGE = 2 };

extern const char *cg_progname;

void cg_setprogname(const char *argv0);
/* "prog: message" on stderr, then exit(status). */
void cg_die(int status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* "prog: file:line: message" on stderr, then exit(1).  line 0 omits it. */
void cg_die_at(const char *file, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
void cg_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* When set, cg_die and cg_die_at call this with the exit status instead of
 * exit() (fuzzers and unit tests longjmp out of it).  If it returns, the
 * program exits as usual. */
extern void (*cg_exit_hook)(int status);

/* Allocation that exits with "out of memory" instead of returning NULL. */
void *cg_xmalloc(size_t n);
void *cg_xcalloc(size_t n, size_t size);
void *cg_xrealloc(void *p, size_t n);
void *cg_xreallocarray(void *p, size_t n, size_t size);
char *cg_xstrdup(const char *s);
char *cg_xstrndup(const char *s, size_t n);

/* Check that everything written to stdout reached it; exit 1 if not. */
void cg_close_stdout(void);
/* Check a stream after writing a record: exit 1 with the error if it
 * failed (a full disk must not pass silently). */
void cg_check_write(FILE *fp, const char *name);

#endif
