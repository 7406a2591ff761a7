/* kbgames.h - a games dictionary of cgkb(5): canonical forms stored as
 * a DAG of records, one record per pair of a game and its negative.
 *
 * Values are referred to as 2 r + s: record r, negated when s is 1.  The
 * records of the values come first, the most frequent first, so that a
 * base's per-entry code is described by its counts alone; the records
 * the values are made of (and no value is) follow.  Records are read in
 * blocks of KB_GAMES_PER_BLOCK and made into games of the canonical
 * store only when a value is asked for, iteratively (no recursion,
 * however deep the DAG), each at most once per process. */
#ifndef CG_KBGAMES_H
#define CG_KBGAMES_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "values/canon.h"

/* ------------------------------------------------------------- writer */

struct kb_games_w {
	uint64_t nvalues;     /* value records */
	uint64_t nrecords;
	uint64_t *vidx;       /* per value given: its record */
	uint8_t *sign;        /* per value given: 1 when it is the negative */
	uint8_t *selfneg;     /* per value record: it is its own negative */
	uint64_t *count;      /* per value record: entries that use it */
	uint64_t checked;     /* bytes of the section before the records */
};

/* Records for games val[0..n-1] used count[i] times (0: not a value
 * of any entry, and not looked at), written as a SEC_GAMES section to
 * out. */
void kb_games_write(const cg_game *val, const uint64_t *count, size_t n,
    struct kb_games_w *w, struct cg_buf *out);
void kb_games_w_free(struct kb_games_w *w);

/* ------------------------------------------------------------- reader */

struct kb_games;
/* The section sec[0..len) (its first checked bytes already checked):
 * NULL with a message in err when its tables are malformed. */
struct kb_games *kb_games_open(const unsigned char *sec, uint64_t len,
    uint64_t checked, const char *path, char *err, size_t errlen);
void kb_games_free(struct kb_games *g);
uint64_t kb_games_nvalues(const struct kb_games *g);
uint64_t kb_games_nrecords(const struct kb_games *g);
/* Is value record v its own negative (no sign bit follows it)? */
int kb_games_selfneg(const struct kb_games *g, uint64_t v);
/* The game of reference ref: CG_NO_GAME with a message in err when the
 * records it needs are malformed.  Safe from several threads. */
cg_game kb_games_get(struct kb_games *g, uint64_t ref, char *err,
    size_t errlen);
/* Check every block of records against its checksum and decode it:
 * 0, or -1 with a message in err. */
int kb_games_check(struct kb_games *g, char *err, size_t errlen);
/* An upper bound of the printed size of ref (after kb_games_get). */
uint64_t kb_games_print_bound(struct kb_games *g, uint64_t ref);
/* Bytes of the section: tables, records. */
void kb_games_sizes(const struct kb_games *g, uint64_t *tables,
    uint64_t *records);

#endif
