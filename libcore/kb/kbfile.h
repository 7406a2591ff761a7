/* kbfile.h - the cgkb(5) knowledge-base file: an in-memory entry set,
 * the atomic writer and the checked, random-access reader.
 *
 * A base maps keys (canonical position bytes of one ruleset with fixed
 * parameters) to up to CG_KB_MAXKINDS values, one per value kind, stored
 * as text ("canon", "outcome", ...).  The file depends only on the set of
 * entries and the metadata: building a base in one run or in shards that
 * are merged gives the same bytes. */
#ifndef CG_KBFILE_H
#define CG_KBFILE_H

#include <stddef.h>
#include <stdint.h>

#include "values/canon.h"

#define CG_KB_FORMAT 1
#define CG_KB_MAXKINDS 8
#define CG_KB_BLOCK_DEFAULT 4096

struct cg_kb_meta {
	char *ruleset;        /* plugin name */
	char *params;         /* "" when none */
	char *plugin_version;
	char *family;         /* what the base covers: a family text or "" */
	uint32_t nkinds;
	char *kinds[CG_KB_MAXKINDS];
	uint32_t shard_k, shard_n; /* 1/1 for a whole base */
	uint32_t block_size;  /* target uncompressed bytes per block */
	uint64_t count;       /* entries (set by the writer and reader) */
	int games;            /* canonical forms stored as games (smaller file,
	                       * slower open); set by the reader */
};

void cg_kb_meta_init(struct cg_kb_meta *m);
void cg_kb_meta_free(struct cg_kb_meta *m);
void cg_kb_meta_copy(struct cg_kb_meta *dst, const struct cg_kb_meta *src);
/* Set the kinds from a comma-separated list; 0, or -1 for an empty,
 * repeated or too long list, or a kind that is not [a-z0-9-]+. */
int cg_kb_meta_set_kinds(struct cg_kb_meta *m, const char *list);
/* Index of kind in m, or -1. */
int cg_kb_meta_kind(const struct cg_kb_meta *m, const char *kind);
/* Do a and b describe the same base (all but shard_k and count)?  1 if
 * so; else 0 and what differs in why. */
int cg_kb_meta_same_base(const struct cg_kb_meta *a,
    const struct cg_kb_meta *b, char *why, size_t whylen);
/* "ruleset" or "ruleset:params". */
const char *cg_kb_meta_spec(const struct cg_kb_meta *m, char *buf,
    size_t len);

/* The shard (1..n) a key belongs to: crc32(key) mod n, plus 1. */
uint32_t cg_kb_shard_of(const unsigned char *key, size_t len, uint32_t n);

/* ------------------------------------------------------------ entry set */

struct cg_kbset;
struct cg_kbset *cg_kbset_new(uint32_t nkinds);
void cg_kbset_free(struct cg_kbset *s);
size_t cg_kbset_count(const struct cg_kbset *s);
/* Add an entry or fill in values of an existing one; values[k] NULL means
 * unknown.  Returns -1 when done, or the index k of a kind whose value
 * differs from the one already stored (*old is set to that value). */
int cg_kbset_add(struct cg_kbset *s, const unsigned char *key, size_t len,
    const char *const *values, const char **old);
/* Keep kind k's values as games (values/canon.h) rather than text: call
 * before any value is added.  The file stores them as a dictionary of
 * games. */
void cg_kbset_use_games(struct cg_kbset *s, uint32_t k);
/* The id of game g as a value of kind k (printed when k holds text). */
uint32_t cg_kbset_game_id(struct cg_kbset *s, uint32_t k, cg_game g);
/* Entries for n keys (key i is keys[off[i] .. off[i+1])) without values,
 * the table searched for all of them at once. */
void cg_kbset_add_keys(struct cg_kbset *s, const unsigned char *keys,
    const size_t *off, size_t n);
/* The entry of key, made without values if new. */
uint64_t cg_kbset_entry(struct cg_kbset *s, const unsigned char *key,
    size_t len);
/* The id of a value text of kind k (interned), and setting an entry's
 * value by id: 0, or -1 when it holds another value (*old). */
uint32_t cg_kbset_value_id(struct cg_kbset *s, uint32_t k, const char *text);
int cg_kbset_set(struct cg_kbset *s, uint64_t entry, uint32_t k, uint32_t id,
    const char **old);
/* Entry number of key or -1. */
int64_t cg_kbset_find(const struct cg_kbset *s, const unsigned char *key,
    size_t len);
const unsigned char *cg_kbset_key(const struct cg_kbset *s, uint64_t entry,
    size_t *len);
/* Value of kind k of an entry, or NULL. */
const char *cg_kbset_value(const struct cg_kbset *s, uint64_t entry,
    uint32_t k);
/* Write the set as a base: temporary file, fsync, rename over path.  On
 * failure nothing at path changes; returns -1 with a message in err. */
int cg_kbset_write(const struct cg_kbset *s, struct cg_kb_meta *m,
    const char *path, char *err, size_t errlen);

/* Threads compressing the blocks of a base being written (default:
 * every core); the file is the same whatever the number. */
void cg_kbfile_jobs(unsigned jobs);

/* --------------------------------------------------------------- reader */

struct cg_kbfile;
/* Map a base and check it: magic, version, sizes, the header CRC and
 * every block's CRC.  NULL with a message in err when it is unusable. */
struct cg_kbfile *cg_kbfile_open(const char *path, char *err, size_t errlen);
void cg_kbfile_close(struct cg_kbfile *f);
const struct cg_kb_meta *cg_kbfile_meta(const struct cg_kbfile *f);
const char *cg_kbfile_path(const struct cg_kbfile *f);
/* Value of kind k for key, or NULL when absent.  The string lives as long
 * as f.  A block that does not decode is a fatal error. */
const char *cg_kbfile_get(struct cg_kbfile *f, const unsigned char *key,
    size_t len, uint32_t k);
/* Visit every entry in key order (values[k] NULL when absent); also
 * checks that keys increase strictly and counts agree.  Returns 0, the
 * visitor's non-zero value, or -1 with a message in err. */
typedef int (*cg_kb_visit_fn)(void *ctx, const unsigned char *key,
    size_t len, const char *const *values);
int cg_kbfile_each(struct cg_kbfile *f, cg_kb_visit_fn fn, void *ctx,
    char *err, size_t errlen);

struct cg_kbfile_stats {
	uint64_t file_size, header_size, dict_size, data_size;
	uint64_t raw_size;          /* uncompressed bytes of all blocks */
	uint32_t nblocks;
	uint64_t ndistinct[CG_KB_MAXKINDS]; /* distinct values per kind */
};
void cg_kbfile_stats(const struct cg_kbfile *f, struct cg_kbfile_stats *st);

#endif
