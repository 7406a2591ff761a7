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

/* Parse a family name "N" (1 <= N <= max); 0 or -1. */
static inline int
family_n(const char *family, uint32_t max, uint32_t *n)
{
	size_t i = 0, len;

	if (family == NULL || !is_digit(family[0]))
		return -1;
	len = 0;
	while (family[len])
		len++;
	if (read_uint(family, len, &i, max, n) < 0 || i != len || *n == 0)
		return -1;
	return 0;
}

/* Parse a family name "RxC" (1 <= R, C <= max); 0 or -1. */
static inline int
family_rxc(const char *family, uint32_t max, uint32_t *r, uint32_t *c)
{
	size_t i = 0, len;

	if (family == NULL || !is_digit(family[0]))
		return -1;
	len = 0;
	while (family[len])
		len++;
	if (read_uint(family, len, &i, max, r) < 0 || *r == 0 || i == len ||
	    (family[i] != 'x' && family[i] != 'X'))
		return -1;
	i++;
	if (i == len || !is_digit(family[i]) ||
	    read_uint(family, len, &i, max, c) < 0 || *c == 0 || i != len)
		return -1;
	return 0;
}

#endif
