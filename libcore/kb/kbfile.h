/* kbfile.h - the cgkb(5) knowledge-base file: its metadata, an
 * in-memory entry set, the atomic writer and the mapped reader.
 *
 * A base maps positions of one ruleset with fixed parameters to up to
 * CG_KB_MAXKINDS values, one per value kind ("canon", "outcome", ...).
 * A base of a family the ruleset ranks (cg/rank.h) finds a position by
 * its slot and stores no keys; any other base stores the canonical
 * position bytes as keys.  The file depends only on the entries and the
 * metadata: a base built in one run or in shards that are merged gives
 * the same bytes.  Opening a base reads its header and index only; a
 * lookup reads one block, and a canonical form is made from the games
 * dictionary only when it is asked for. */
#ifndef CG_KBFILE_H
#define CG_KBFILE_H

#include <stddef.h>
#include <stdint.h>

#include "host/plugin.h"
#include "values/canon.h"

#define CG_KB_FORMAT 2
#define CG_KB_MAXKINDS 8
/* Writer defaults: entries per block, and a cap on a block's bytes. */
#define CG_KB_MEMBERS_DEFAULT 256
#define CG_KB_BLOCK_DEFAULT 4096
/* A value id or reference that is no value. */
#define CG_KB_NOVALUE UINT64_MAX

struct cg_kb_meta {
	char *ruleset;        /* plugin name */
	char *params;         /* "" when none */
	char *plugin_version;
	char *family;         /* what the base covers: a family text or "" */
	char *index_family;   /* the family whose slots index the base, or ""
	                       * for a base of keys */
	uint32_t nkinds;
	char *kinds[CG_KB_MAXKINDS];
	uint32_t shard_k, shard_n; /* 1/1 for a whole base */
	uint32_t block_size;  /* writer: most bytes of a block's keys */
	uint32_t block_members; /* writer: entries per block */
	uint64_t count;       /* entries (set by the writer and reader) */
	uint64_t slots;       /* slots of the index (0 for keys) */
	int games;            /* canonical forms are stored as games */
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
 * before any value is added. */
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
/* The set as what a base is written from (cg_kbfile_write): its
 * entries in index order.  A base with m->index_family set is indexed
 * by the slots of rs's cg.rank (every key must have one, m->slots is
 * set).  NULL with a message in err. */
struct cg_kb_source;
struct cg_kb_source *cg_kbset_source(const struct cg_kbset *s,
    struct cg_kb_meta *m, struct cg_plugin *rs, char *err, size_t errlen);
void cg_kbset_source_free(struct cg_kb_source *src);

/* -------------------------------------------------------------- writer */

/* What a base is written from: n entries in index order (slots, or keys
 * bytewise, strictly increasing), each with a value id per kind. */
struct cg_kb_source {
	void *ctx;
	uint64_t n;
	/* the slot of entry i (a base indexed by slots) */
	uint64_t (*rank)(void *ctx, uint64_t i);
	/* the key of entry i (a base of keys) */
	const unsigned char *(*key)(void *ctx, uint64_t i, size_t *len);
	/* the value id of kind k of entry i, or CG_KB_NOVALUE */
	uint64_t (*value)(void *ctx, uint64_t i, uint32_t k);
	/* per kind: value ids 0 .. nvalues[k]-1, each a game (games[k])
	 * or a text */
	uint64_t nvalues[CG_KB_MAXKINDS];
	int games[CG_KB_MAXKINDS];
	cg_game (*game)(void *ctx, uint32_t k, uint64_t id);
	const char *(*text)(void *ctx, uint32_t k, uint64_t id);
};

/* Write a base atomically (temporary file, fsync, rename); -1 with a
 * message in err, nothing at path changed. */
int cg_kbfile_write(const struct cg_kb_source *src, struct cg_kb_meta *m,
    const char *path, char *err, size_t errlen);

/* --------------------------------------------------------------- reader */

struct cg_kbfile;
/* Map a base and check its header and index (the blocks are checked
 * when first read).  NULL with a message in err when it is unusable; a
 * base of format 1 is refused with the command that rebuilds it. */
struct cg_kbfile *cg_kbfile_open(const char *path, char *err, size_t errlen);
void cg_kbfile_close(struct cg_kbfile *f);
const struct cg_kb_meta *cg_kbfile_meta(const struct cg_kbfile *f);
const char *cg_kbfile_path(const struct cg_kbfile *f);
/* A base indexed by slots finds keys through its ruleset's cg.rank:
 * bind the plugin, which must be the base's ruleset with its
 * parameters and version.  0, or -1 with a message in err.  A base of
 * keys needs none (binding it only checks). */
int cg_kbfile_bind(struct cg_kbfile *f, struct cg_plugin *rs, char *err,
    size_t errlen);

/* The value of kind k of the entry with key (canonical position bytes),
 * as a reference (cg_kbfile_text, cg_kbfile_game), or CG_KB_NOVALUE when
 * the base has no such entry or it has no value of that kind.  A block
 * that does not decode is a fatal error.  Safe from several threads. */
uint64_t cg_kbfile_ref(struct cg_kbfile *f, const unsigned char *key,
    size_t len, uint32_t k);
/* The text of a reference (it lives as long as f), or NULL when its
 * print could exceed the bound cgkb(5) sets (err says so). */
const char *cg_kbfile_text(struct cg_kbfile *f, uint32_t k, uint64_t ref);
/* The game of a reference of a kind stored as games (CG_NO_GAME for a
 * kind of text).  A malformed dictionary is a fatal error. */
cg_game cg_kbfile_game(struct cg_kbfile *f, uint32_t k, uint64_t ref);
/* Is kind k stored as games? */
int cg_kbfile_games(const struct cg_kbfile *f, uint32_t k);
/* The number of references of kind k (they are 0 .. n-1). */
uint64_t cg_kbfile_nrefs(const struct cg_kbfile *f, uint32_t k);
/* cg_kbfile_text of cg_kbfile_ref, or NULL. */
const char *cg_kbfile_get(struct cg_kbfile *f, const unsigned char *key,
    size_t len, uint32_t k);

/* Visit every entry in index order; also checks that slots or keys
 * increase strictly and counts agree.  key is made (from the slot
 * through cg.rank, the base bound) only when keys is set.  Returns 0,
 * the visitor's non-zero value, or -1 with a message in err. */
struct cg_kbentry {
	uint64_t slot;                   /* bases of slots */
	const unsigned char *key;        /* when asked for */
	size_t len;
	uint64_t ref[CG_KB_MAXKINDS];    /* CG_KB_NOVALUE: none */
};
typedef int (*cg_kb_visit_fn)(void *ctx, const struct cg_kbentry *e);
int cg_kbfile_each(struct cg_kbfile *f, int keys, cg_kb_visit_fn fn,
    void *ctx, char *err, size_t errlen);

/* Check every block of the base against its checksum and decode it
 * (entries, text and games dictionaries, without making games): 0, or
 * -1 with a message in err. */
int cg_kbfile_check(struct cg_kbfile *f, char *err, size_t errlen);

struct cg_kbfile_stats {
	uint64_t file_size, header_size, index_size, data_size;
	uint64_t nblocks;
	uint64_t code_size;                     /* per-entry and index codes */
	uint64_t dict_size[CG_KB_MAXKINDS];     /* text or games */
	uint64_t dict_records[CG_KB_MAXKINDS];  /* games: records */
	uint64_t column_size[CG_KB_MAXKINDS];
	uint64_t nvalues[CG_KB_MAXKINDS];       /* distinct values per kind */
	int column_of[CG_KB_MAXKINDS];          /* the kind a column is on, or
	                                         * -1: stored per entry */
};
void cg_kbfile_stats(const struct cg_kbfile *f, struct cg_kbfile_stats *st);

#endif
