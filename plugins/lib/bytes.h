/*
 * plugins/lib/bytes.h - small helpers shared by ruleset plugins
 * (header-only, static functions): little-endian 32-bit words and
 * decimal numbers in position text.
 */
#ifndef CG_PLUGIN_BYTES_H
#define CG_PLUGIN_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint32_t
get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline void
set32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

/*
 * Read a decimal number at text[*i] (which must be a digit) into *v.
 * Returns 0, or -1 when it exceeds max (then *i is left at its first
 * digit so the caller can report that column).
 */
static inline int
read_uint(const char *text, size_t len, size_t *i, uint32_t max, uint32_t *v)
{
	uint64_t x = 0;
	size_t j = *i;

	while (j < len && text[j] >= '0' && text[j] <= '9') {
		x = x * 10 + (uint64_t)(text[j] - '0');
		if (x > max)
			return -1;
		j++;
	}
	*v = (uint32_t)x;
	*i = j;
	return 0;
}

static inline int
is_digit(int c)
{
	return c >= '0' && c <= '9';
}

#endif
