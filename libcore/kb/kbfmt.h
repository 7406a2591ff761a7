/* kbfmt.h - the layout of a cgkb(5) file and its checksum, shared by
 * its writer (kbwrite.c), its reader (kbread.c) and the games dictionary
 * (kbgames.c).  man/man5/cgkb.5 is the description; the names here are
 * those it uses. */
#ifndef CG_KBFMT_H
#define CG_KBFMT_H

#include <stdint.h>
#include <zlib.h>

static const unsigned char cg_kb_magic[8] = {
	0x89, 'C', 'G', 'K', 'B', '\r', '\n', 0x1a
};

/* header flags */
#define KB_RANKED 1u

/* section types */
enum {
	SEC_INDEX = 1,      /* the blocks' first ranks or keys and offsets */
	SEC_BLOCKS = 2,     /* the entries */
	SEC_CODE = 3,       /* a kind's per-entry code; kind KB_NOKIND: the
	                     * membership code of a ranked base */
	SEC_TEXT = 4,       /* a kind's values as text */
	SEC_GAMES = 5,      /* a kind's values as games */
	SEC_COLUMN = 6      /* a kind's value for each value of another */
};
#define KB_NOKIND 0xffffu
#define KB_MAXSECTIONS 64

/* a kind's storage */
enum { STORE_ENTRY = 0, STORE_COLUMN = 1 };
/* a kind's dictionary */
enum { DICT_TEXT = 0, DICT_GAMES = 1 };

/* Records of a games dictionary per block.  A text dictionary's block
 * holds values up to KB_TEXT_BLOCK bytes, at least one value, at most
 * KB_TEXTS_PER_BLOCK; a value is at most KB_PRINT_MAX bytes. */
#define KB_GAMES_PER_BLOCK 64
#define KB_TEXT_BLOCK 65536
#define KB_TEXTS_PER_BLOCK 4096

/* Shapes of a games record: 0 a number-up-star; 1 + a * 17 + b a game
 * of a Left and b Right options (16: 16 or more, the rest as a number);
 * KB_SHAPE_BIGNUS a number-up-star whose numerator takes more than 64
 * bits (read as an error by this version). */
#define KB_SHAPE_NUS 0
#define KB_SHAPE_OPTS(a, b) (1 + (a) * 17 + (b))
#define KB_SHAPE_BIGNUS 290
#define KB_SHAPES 291

/* A block's entries: at most this many (the writer's default is
 * CG_KB_MEMBERS_DEFAULT). */
#define KB_MAX_MEMBERS 65536
/* A per-entry stream is marked every KB_STRIDE members when its codes
 * are long (kind descriptor's stride). */
#define KB_STRIDE 32

/* Keys: at most this long; a block's keys at most this many bytes
 * (cg-kb-build --block-size's range). */
#define KB_MAX_KEY 65535
#define KB_MAX_BLOCK_BYTES ((uint32_t)1 << 26)

/* A value whose print could exceed PRINT_MAX bytes is refused when
 * asked for: a games DAG of a few bytes can print to exabytes. */
#define KB_PRINT_MAX ((uint64_t)1 << 26)
#define KB_PRINT_CAP ((uint64_t)1 << 62)

/* The entry of a base's header for one section. */
struct kb_section {
	uint32_t type, kind;
	uint64_t off, len;   /* bytes of the file */
	uint64_t checked;    /* the first bytes of it covered by crc */
	uint32_t crc;
};
#define KB_SECTION_BYTES 36

/* The descriptor of a kind in the header. */
struct kb_kind {
	uint8_t dict;        /* DICT_TEXT or DICT_GAMES */
	uint8_t store;       /* STORE_ENTRY or STORE_COLUMN */
	uint16_t base;       /* STORE_COLUMN: the kind whose values index it */
	uint32_t stride;     /* STORE_ENTRY: 0, or KB_STRIDE */
	uint64_t nvalues;    /* values in the dictionary */
	uint64_t absent;     /* the symbol for no value, or UINT64_MAX */
};
#define KB_KIND_BYTES 24

/* The file's checksum of n bytes: zlib's CRC-32, fed at most 1 GiB a
 * call (its lengths are 32 bits). */
static inline uint32_t
kb_crc(const void *p, uint64_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);
	const unsigned char *b = p;

	while (n > 0) {
		uInt part = n > (1u << 30) ? 1u << 30 : (uInt)n;

		c = crc32(c, b, part);
		b += part;
		n -= part;
	}
	return (uint32_t)c;
}

#endif
