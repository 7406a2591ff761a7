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
/* Report a data error as cg_die_at does but go on: the program still
 * exits with status 1, when it ends through cg_close_stdout.  For input
 * whose records are independent (bare position lines), so that one bad
 * record costs only itself. */
void cg_error_at(const char *file, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Has cg_error_at reported an error? */
int cg_errors_reported(void);

/* When set, cg_die and cg_die_at call this with the exit status instead of
 * exit() (fuzzers and unit tests longjmp out of it).  If it returns, the
 * program exits as usual. */
extern void (*cg_exit_hook)(int status);

/* Allocation that exits with "out of memory" instead of returning NULL. */
void *cg_xmalloc(size_t n);
void *cg_xcalloc(size_t n, size_t size);
void *cg_xrealloc(void *p, size_t n);
void *cg_xreallocarray(void *p, size_t n, size_t size);
/* Array p of *cap elements of size bytes grown, when index i is past its
 * end, to hold i (at least doubling), the new elements zero; returns p. */
void *cg_xgrow_zero(void *p, size_t *cap, size_t i, size_t size);
char *cg_xstrdup(const char *s);
char *cg_xstrndup(const char *s, size_t n);

/*
 * Bad input quoted for a message: at most CG_QUOTE_MAX bytes of s, then
 * "..." if there is more.  Printable ASCII and whole, valid UTF-8
 * characters stay as they are; a backslash is written \\ and any other
 * byte (controls, DEL, C1 controls, bytes that are not valid UTF-8) as
 * \xNN, so a message never holds raw binary or half a character.  The
 * result is a static buffer reused after CG_QUOTE_SLOTS calls, so a
 * message may quote a few things at once.
 */
#define CG_QUOTE_MAX 64
#define CG_QUOTE_SLOTS 4
const char *cg_quote(const char *s, size_t len);
const char *cg_quote_str(const char *s);
/* Make a message of size bytes safe to print, in place: control bytes
 * (TAB aside) and bytes that are not valid UTF-8 become \xNN, and a message
 * cut short by its buffer ends on a whole character.  For messages made
 * elsewhere (plugins) that may quote raw input. */
void cg_sanitize_msg(char *msg, size_t size);

/*
 * The longest line a text reader accepts (cgt documents, bare positions,
 * .spr databases): CG_MAX_LINE_DEFAULT bytes, or the environment variable
 * CG_MAX_LINE (bytes, or with a suffix k, M or G for 2^10, 2^20, 2^30).
 * A bad CG_MAX_LINE is a usage error.
 */
#define CG_MAX_LINE_DEFAULT ((size_t)64 << 20)
size_t cg_max_line(void);

/* Check that everything written to stdout reached it; exit 1 if not
 * (or if cg_error_at reported an error). */
void cg_close_stdout(void);
/* Check a stream after writing a record: exit 1 with the error if it
 * failed (a full disk must not pass silently). */
void cg_check_write(FILE *fp, const char *name);

#endif
