/* buf.h - growable byte buffers (struct cg_buf of the plugin ABI), host
 * side.  Allocation failures exit with "out of memory". */
#ifndef CG_BUF_H
#define CG_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "cg/ruleset.h"

void cg_buf_init(struct cg_buf *b);
void cg_buf_free(struct cg_buf *b);
void cg_buf_reserve(struct cg_buf *b, size_t extra);
void cg_buf_add(struct cg_buf *b, const void *data, size_t len);
void cg_buf_addc(struct cg_buf *b, int c);
void cg_buf_addstr(struct cg_buf *b, const char *s);
void cg_buf_addf(struct cg_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* NUL-terminate (not counted in len) and return data as a string. */
const char *cg_buf_str(struct cg_buf *b);

/* Make room for extra more bytes, or append printf output: 0, or -1 when
 * memory runs out (for callers that must not exit: the plugin services). */
int cg_buf_grow(struct cg_buf *b, size_t extra);
int cg_buf_vaddf(struct cg_buf *b, const char *fmt, va_list ap);

#endif
