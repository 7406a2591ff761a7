/* test_huff.c - the entropy code of cgkb(5): lengths from counts (prefix
 * codes, limited, monotone in frequency), round trips of symbols and
 * numbers through bit streams, and malformed codes refused. */
#include <stdlib.h>
#include <string.h>

#include "base/varint.h"
#include "kb/huff.h"
#include "tap.h"

static uint64_t seed = 88172645463325252ull;

static uint64_t
rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

/* The Kraft sum of lengths, scaled by 2^32. */
static uint64_t
kraft(const uint8_t *len, size_t n)
{
	uint64_t k = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (len[i])
			k += (uint64_t)1 << (32 - len[i]);
	return k;
}

static void
roundtrip(const uint64_t *count, size_t n, unsigned maxlen, const char *what)
{
	uint8_t *len = malloc(n);
	struct cg_huff_enc e;
	struct cg_huff_dec d;
	struct cg_buf buf;
	struct cg_bitw w;
	struct cg_bitr r;
	size_t i, *msg = malloc(2000 * sizeof *msg), nm = 0, used = 0;
	int good = 1, mono = 1;

	cg_huff_lengths(count, n, maxlen, len);
	for (i = 0; i < n; i++) {
		if ((count[i] == 0) != (len[i] == 0))
			good = 0;
		used += count[i] != 0;
	}
	ok(good, "%s: a length exactly for the symbols that occur", what);
	ok(used < 2 || kraft(len, n) == (uint64_t)1 << 32,
	    "%s: a complete prefix code", what);
	for (i = 0; i < n; i++)
		if (len[i] > maxlen && (1ull << maxlen) >= used)
			good = 0;
	ok(good, "%s: no length over %u", what, maxlen);
	for (i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < n && mono; j++)
			if (count[i] && count[j] && count[i] > count[j] &&
			    len[i] > len[j])
				mono = 0;
	}
	ok(mono, "%s: a more frequent symbol never has a longer codeword",
	    what);
	cg_huff_enc_init(&e, len, n);
	ok(cg_huff_dec_init(&d, len, n) == 0, "%s: decoder", what);
	cg_buf_init(&buf);
	cg_bitw_init(&w, &buf);
	for (i = 0; i < 2000; i++) {
		size_t s;

		do
			s = rnd() % n;
		while (count[s] == 0);
		msg[nm++] = s;
		cg_huff_put(&w, &e, s);
		cg_bitw_put(&w, rnd() & 0x1f, 5);   /* interleaved raw bits */
	}
	cg_bitw_flush(&w);
	cg_bitr_init(&r, buf.data, buf.len);
	good = 1;
	for (i = 0; i < nm; i++) {
		if (cg_huff_get(&r, &d) != msg[i])
			good = 0;
		cg_bitr_get(&r, 5);
	}
	ok(good && !cg_bitr_overrun(&r), "%s: 2000 symbols read back", what);
	cg_huff_enc_free(&e);
	cg_huff_dec_free(&d);
	cg_buf_free(&buf);
	free(len);
	free(msg);
}

int
main(void)
{
	uint64_t c[3000];
	size_t i;

	/* two symbols, one of them never used, a single one */
	c[0] = 5;
	c[1] = 9;
	roundtrip(c, 2, 24, "two symbols");
	c[0] = 0;
	c[1] = 7;
	c[2] = 0;
	roundtrip(c, 3, 24, "one symbol of three");
	/* Zipf-like counts over 3000 symbols */
	for (i = 0; i < 3000; i++)
		c[i] = 100000 / (i + 1) + (i % 5 == 0 ? 0 : 1);
	roundtrip(c, 3000, 24, "3000 symbols, Zipf");
	/* Fibonacci counts: unlimited lengths would reach 40 */
	c[0] = c[1] = 1;
	for (i = 2; i < 42; i++)
		c[i] = c[i - 1] + c[i - 2];
	roundtrip(c, 42, 12, "Fibonacci counts limited to 12 bits");
	{
		uint8_t len[42];
		unsigned mx = 0;

		cg_huff_lengths(c, 42, 12, len);
		for (i = 0; i < 42; i++)
			if (len[i] > mx)
				mx = len[i];
		is_int(mx, 12, "the limit is reached, not passed");
	}
	/* monotone codes described by counts per length */
	{
		uint8_t len[3000];
		struct cg_buf b;
		struct cg_rd rd;
		struct cg_huff_dec d;
		struct cg_huff_enc e;
		struct cg_bitw w;
		struct cg_bitr r;
		int good = 1;

		for (i = 0; i < 3000; i++)
			c[i] = 100000 / (i + 1) + 1;
		cg_huff_lengths(c, 3000, 24, len);
		cg_buf_init(&b);
		cg_huff_put_counts(&b, len, 3000);
		cg_rd_init(&rd, b.data, b.len);
		ok(cg_huff_get_counts(&rd, &d, 3000) == 0 && d.n == 3000,
		    "a code by counts per length");
		cg_huff_enc_init(&e, len, 3000);
		b.len = 0;
		cg_bitw_init(&w, &b);
		for (i = 0; i < 3000; i++)
			cg_huff_put(&w, &e, i);
		cg_bitw_flush(&w);
		cg_bitr_init(&r, b.data, b.len);
		for (i = 0; i < 3000; i++)
			if (cg_huff_get(&r, &d) != i)
				good = 0;
		ok(good, "every symbol of it read back");
		cg_huff_dec_free(&d);
		cg_huff_enc_free(&e);
		cg_buf_free(&b);
	}
	/* numbers of every size */
	{
		uint64_t cnt[CG_NUM_CLASSES] = { 0 }, v[400];
		uint8_t len[CG_NUM_CLASSES];
		struct cg_huff_enc e;
		struct cg_huff_dec d;
		struct cg_buf b;
		struct cg_bitw w;
		struct cg_bitr r;
		int good = 1, bad = 0;

		for (i = 0; i < 400; i++) {
			v[i] = i < 65 ? (i ? (uint64_t)1 << (i - 1) : 0) :
			    i < 129 ? ~(uint64_t)0 >> (i - 65) : rnd() >> (rnd() % 64);
			cnt[cg_num_class(v[i])]++;
		}
		cg_huff_lengths(cnt, CG_NUM_CLASSES, 24, len);
		cg_huff_enc_init(&e, len, CG_NUM_CLASSES);
		cg_huff_dec_init(&d, len, CG_NUM_CLASSES);
		cg_buf_init(&b);
		cg_bitw_init(&w, &b);
		for (i = 0; i < 400; i++)
			cg_num_put(&w, &e, v[i]);
		cg_bitw_flush(&w);
		cg_bitr_init(&r, b.data, b.len);
		for (i = 0; i < 400; i++)
			if (cg_num_get(&r, &d, &bad) != v[i])
				good = 0;
		ok(good && !bad, "numbers 0 to 2^64-1 read back");
		cg_bitr_get(&r, 32);
		cg_bitr_get(&r, 32);
		ok(cg_bitr_overrun(&r), "reading past the end is seen");
		cg_huff_enc_free(&e);
		cg_huff_dec_free(&d);
		cg_buf_free(&b);
	}
	/* malformed codes */
	{
		struct cg_huff_dec d;
		uint8_t over[3] = { 1, 1, 1 }, none[2] = { 0, 0 },
		    big[2] = { 33, 1 };

		ok(cg_huff_dec_init(&d, over, 3) < 0, "an over-full code is "
		    "refused");
		{
			struct cg_bitr r;
			unsigned char z[8] = { 0 };

			ok(cg_huff_dec_init(&d, none, 2) == 0, "a code of no "
			    "symbol is a code");
			cg_bitr_init(&r, z, 8);
			ok(cg_huff_get(&r, &d) == UINT32_MAX, "that reads "
			    "nothing");
			cg_huff_dec_free(&d);
		}
		ok(cg_huff_dec_init(&d, big, 2) < 0, "a length over 32 is "
		    "refused");
	}
	return tap_done();
}
