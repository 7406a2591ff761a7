/* lineread.h - lines of text from a file descriptor, plain or gzip, for
 * every text reader (cgt documents, bare positions, .spr databases).
 *
 * Bounded and strict where silence would hide damage: a line longer than
 * cg_max_line() bytes, a NUL byte, a truncated or corrupt gzip stream and
 * bytes after the last gzip member (other than another member) are errors.
 * Concatenated gzip members are read as one stream, as gzip(1) does. */
#ifndef CG_LINEREAD_H
#define CG_LINEREAD_H

#include <stddef.h>

struct cg_lines;

/* Read from fd (taken over: closed by cg_lines_close); name is kept for
 * the caller's messages. */
struct cg_lines *cg_lines_open(int fd, const char *name);
void cg_lines_close(struct cg_lines *l);

/*
 * The next line without its line end (LF, CRLF, or trailing CRs),
 * NUL-terminated, in *line (valid until the next call) and its length in
 * *len.  Returns 1, 0 at the end of input, or -1 on an error: then
 * cg_lines_error() says what is wrong and cg_lines_number() is the number
 * of the line it is in.  A last line without LF counts as a line.
 */
int cg_lines_next(struct cg_lines *l, char **line, size_t *len);
/* Number of the line last returned (1-based; 0 before the first). */
unsigned long cg_lines_number(const struct cg_lines *l);
/* Did the line last returned end without LF (end of input)? */
int cg_lines_unterminated(const struct cg_lines *l);
const char *cg_lines_error(const struct cg_lines *l);
const char *cg_lines_name(const struct cg_lines *l);

#endif
