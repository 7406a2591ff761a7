/* buf.c - host-owned byte buffers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"

void
cg_buf_init(struct cg_buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void
cg_buf_free(struct cg_buf *b)
{
	free(b->data);
	cg_buf_init(b);
}

/* Grow to hold extra more bytes plus a NUL; 0 or -1 (never exits). */
int
cg_buf_grow(struct cg_buf *b, size_t extra)
{
	size_t need, cap;
	unsigned char *p;

	if (extra > (size_t)-1 - b->len - 1)
		return -1;
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > (size_t)-1 / 2 ? need : cap * 2;
	p = realloc(b->data, cap);
	if (p == NULL)
		return -1;
	b->data = p;
	b->cap = cap;
	return 0;
}

void
cg_buf_reserve(struct cg_buf *b, size_t extra)
{
	if (cg_buf_grow(b, extra) < 0)
		cg_die(CG_EXIT_DATA, "out of memory (buffer of %zu bytes)",
		    b->len + extra);
}

void
cg_buf_add(struct cg_buf *b, const void *data, size_t len)
{
	cg_buf_reserve(b, len);
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
}

void
cg_buf_addc(struct cg_buf *b, int c)
{
	cg_buf_reserve(b, 1);
	b->data[b->len++] = (unsigned char)c;
}

void
cg_buf_addstr(struct cg_buf *b, const char *s)
{
	cg_buf_add(b, s, strlen(s));
}

int
cg_buf_vaddf(struct cg_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || cg_buf_grow(b, (size_t)n) < 0)
		return -1;
	vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
	return 0;
}

void
cg_buf_addf(struct cg_buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = cg_buf_vaddf(b, fmt, ap);
	va_end(ap);
	if (r < 0)
		cg_die(CG_EXIT_DATA, "out of memory");
}

const char *
cg_buf_str(struct cg_buf *b)
{
	cg_buf_reserve(b, 0);
	b->data[b->len] = '\0';
	return (const char *)b->data;
}
