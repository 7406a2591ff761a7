/* services.c - the table of host services handed to every plugin.  These
 * report failure to the plugin instead of exiting. */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/plugin.h"
#include "base/util.h"


static int
host_buf_put(struct cg_buf *b, const void *data, size_t len)
{
	if (cg_buf_grow(b, len) < 0)
		return CG_ENOMEM;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	return CG_OK;
}

static int
host_buf_putc(struct cg_buf *b, int c)
{
	if (cg_buf_grow(b, 1) < 0)
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
	r = cg_buf_vaddf(b, fmt, ap);
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
	err->line = 0;
	err->set = 1;
	return CG_EPARSE;
}

static int
host_error_at(struct cg_error *err, unsigned long line, size_t column,
    const char *fmt, ...)
{
	va_list ap;

	if (err == NULL)
		return CG_EPARSE;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	err->column = column;
	err->line = line;
	err->set = 1;
	return CG_EPARSE;
}

/* The warnings given so far, by a hash of their text: a plugin may warn
 * from every call of a hook and every thread, and the user reads each
 * once.  A process meets a handful, so a short list does. */
static pthread_mutex_t warn_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t warned[64];
static size_t nwarned;

static void
host_warn(const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	uint64_t h = 1469598103934665603ull;
	size_t i;
	int seen = 0;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cg_sanitize_msg(msg, sizeof msg);
	for (i = 0; msg[i] != '\0'; i++) {
		h ^= (unsigned char)msg[i];
		h *= 1099511628211ull;
	}
	pthread_mutex_lock(&warn_lock);
	for (i = 0; i < nwarned && !seen; i++)
		seen = warned[i] == h;
	if (!seen && nwarned < sizeof warned / sizeof *warned)
		warned[nwarned++] = h;
	pthread_mutex_unlock(&warn_lock);
	if (!seen)
		cg_warn("warning: %s", msg);
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
	.error_at = host_error_at,
	.warn = host_warn,
};

const struct cg_host *
cg_host(void)
{
	return &host_table;
}
