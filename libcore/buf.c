/* buf.c - host-owned byte buffers and the services table for plugins. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"
#include "util.h"

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
static int
grow(struct cg_buf *b, size_t extra)
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
	if (grow(b, extra) < 0)
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

static int
vaddf(struct cg_buf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0 || grow(b, (size_t)n) < 0)
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
	r = vaddf(b, fmt, ap);
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

/* ---- services for plugins: these report failure instead of exiting */

static int
host_buf_put(struct cg_buf *b, const void *data, size_t len)
{
	if (grow(b, len) < 0)
		return CG_ENOMEM;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	return CG_OK;
}

static int
host_buf_putc(struct cg_buf *b, int c)
{
	if (grow(b, 1) < 0)
		return CG_ENOMEM;
	b->data[b->len++] = (unsigned char)c;
	return CG_OK;
}

static int
host_buf_printf(struct cg_buf *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vaddf(b, fmt, ap);
	va_end(ap);
	return r < 0 ? CG_ENOMEM : CG_OK;
}

static int
host_error(struct cg_error *err, size_t column, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return CG_EPARSE;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	/* plugins quote the text they refuse: no raw bytes in messages */
	cg_sanitize_msg(err->msg, sizeof err->msg);
	err->column = column;
	err->set = 1;
	return CG_EPARSE;
}

/* malloc(0) and realloc(p, 0) may return NULL, which a plugin would take
 * for failure (and realloc(p, 0) frees p): ask for at least one byte. */
static void *
host_alloc(size_t size)
{
	return malloc(size ? size : 1);
}

static void *
host_realloc(void *ptr, size_t size)
{
	return realloc(ptr, size ? size : 1);
}

static const struct cg_host host_table = {
	.abi_version = CG_ABI_VERSION,
	.struct_size = sizeof(struct cg_host),
	.alloc = host_alloc,
	.realloc = host_realloc,
	.free = free,
	.buf_put = host_buf_put,
	.buf_putc = host_buf_putc,
	.buf_printf = host_buf_printf,
	.error = host_error,
};

const struct cg_host *
cg_host(void)
{
	return &host_table;
}
