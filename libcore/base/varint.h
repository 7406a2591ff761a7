/* varint.h - the integers of the binary files (cgkb(5), checkpoints):
 * unsigned LEB128 varints, zigzag varints for signed values (n as 2n,
 * -n-1 as 2n+1) and little-endian fixed-width integers, written to byte
 * buffers and read back through a bounded reader that never reads past
 * its end (a short or malformed field sets bad and reads as 0). */
#ifndef CG_VARINT_H
#define CG_VARINT_H

#include <stdint.h>
#include <string.h>

#include "base/buf.h"

static inline void
cg_put_varint(struct cg_buf *b, uint64_t v)
{
	unsigned char x[10];
	size_t n = 0;

	while (v >= 0x80) {
		x[n++] = (unsigned char)(v & 0x7f) | 0x80;
		v >>= 7;
	}
	x[n++] = (unsigned char)v;
	cg_buf_add(b, x, n);
}

static inline void
cg_put_zigzag(struct cg_buf *b, int64_t v)
{
	cg_put_varint(b, v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 :
	    (uint64_t)v << 1);
}

/* v's low bytes, little-endian, at p. */
static inline void
cg_store_le(unsigned char *p, uint64_t v, unsigned bytes)
{
	unsigned i;

	for (i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static inline void
cg_put_le(struct cg_buf *b, uint64_t v, unsigned bytes)
{
	unsigned char x[8];

	cg_store_le(x, v, bytes);
	cg_buf_add(b, x, bytes);
}

/* Patch a little-endian field already in b at off. */
static inline void
cg_patch_le(struct cg_buf *b, size_t off, uint64_t v, unsigned bytes)
{
	cg_store_le(b->data + off, v, bytes);
}

static inline uint64_t
cg_load_le(const unsigned char *p, unsigned bytes)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

struct cg_rd {
	const unsigned char *p, *end;
	int bad;
};

static inline void
cg_rd_init(struct cg_rd *r, const void *p, size_t len)
{
	r->p = p;
	r->end = r->p + len;
	r->bad = 0;
}

static inline size_t
cg_rd_left(const struct cg_rd *r)
{
	return (size_t)(r->end - r->p);
}

static inline uint64_t
cg_get_varint(struct cg_rd *r)
{
	uint64_t v = 0;
	int shift;

	for (shift = 0; shift < 64; shift += 7) {
		if (r->p >= r->end)
			break;
		v |= (uint64_t)(*r->p & 0x7f) << shift;
		if (!(*r->p++ & 0x80)) {
			/* the tenth byte holds one bit at most */
			if (shift == 63 && (r->p[-1] & 0x7e))
				break;
			return v;
		}
	}
	r->bad = 1;
	return 0;
}

static inline int64_t
cg_get_zigzag(struct cg_rd *r)
{
	uint64_t v = cg_get_varint(r);

	return (v & 1) ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1);
}

static inline uint64_t
cg_get_le(struct cg_rd *r, unsigned bytes)
{
	uint64_t v;

	if (cg_rd_left(r) < bytes) {
		r->bad = 1;
		r->p = r->end;
		return 0;
	}
	v = cg_load_le(r->p, bytes);
	r->p += bytes;
	return v;
}

/* n bytes of r (NULL, bad set, when fewer remain). */
static inline const unsigned char *
cg_get_bytes(struct cg_rd *r, size_t n)
{
	const unsigned char *p = r->p;

	if (cg_rd_left(r) < n) {
		r->bad = 1;
		r->p = r->end;
		return NULL;
	}
	r->p += n;
	return p;
}

#endif
