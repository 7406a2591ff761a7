/* build.h - building a knowledge base in process, on every core.
 *
 * The entries (a family the ruleset enumerates, or the roots of
 * documents) are keyed by their canonical bytes.  Canonical forms are
 * made bottom-up over one shared position graph: the components of the
 * entries are sorted by the ruleset's measure (which every move
 * decreases) and handed to the worker threads in that order, so a
 * component's options are nearly always known when it is reached; one
 * that is not is evaluated on the spot (two threads that meet it agree:
 * equal games are equal ids).  Kinds that follow from the canonical form
 * (outcome, nimber, the cg-canon properties) are read off it; the search
 * kinds (misere play, genus, or any kind without canon) come from one
 * search session per worker.  Values are checkpointed batch by batch
 * (values/ckpt.h); the base written depends only on the entries and their
 * values, so it is the same file for every --jobs, for a resumed build,
 * and for a merge of shards. */
#ifndef CG_KB_BUILD_H
#define CG_KB_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "format/doc.h"
#include "host/plugin.h"

struct cg_kb_build_options {
	const char *kinds;          /* comma-separated; NULL: canon,outcome */
	const char *family;         /* family text, or NULL */
	uint32_t shard_k, shard_n;  /* this shard; 1/1 for a whole base */
	int measured;               /* keep entries with measure in [lo, hi] */
	uint64_t measure_lo, measure_hi;
	uint32_t block_size;
	int text;                   /* canonical forms stored as text, not
	                             * as games (the default) */
	int all_nodes;              /* every document node, not just roots */
	int search_only;            /* search kinds by search, not from canon */
	int use_kb;                 /* -K bases were added (kb.h) */
	unsigned jobs;
	size_t batch;               /* values per checkpoint flush */
	int progress;
};

struct cg_kb_builder;

/* A builder for ruleset rs (NULL: the first document names it).  Bad
 * kinds, or kinds the ruleset cannot have, are a usage error (exit 2)
 * before any work. */
struct cg_kb_builder *cg_kb_builder_new(const struct cg_kb_build_options *o,
    struct cg_plugin *rs);
void cg_kb_builder_free(struct cg_kb_builder *b);

/* Entries: every position of the family (o->family), or the roots (or
 * nodes) of d with the values their annotations give. */
void cg_kb_builder_family(struct cg_kb_builder *b);
void cg_kb_builder_document(struct cg_kb_builder *b, struct cg_doc *d);
/* On standard error, what building the family will take in time and
 * memory, from a sample computed in about budget seconds. */
void cg_kb_builder_estimate(struct cg_kb_builder *b, double budget);
/* Entries so far, and positions offered before symmetry folded them. */
size_t cg_kb_builder_count(const struct cg_kb_builder *b);
size_t cg_kb_builder_seen(const struct cg_kb_builder *b);

/* Compute every missing value, resuming from and writing to the
 * checkpoint ckpt (NULL: none).  An interrupt or the memory limit stops
 * the build after saving the checkpoint (fatal, with the reason). */
void cg_kb_builder_compute(struct cg_kb_builder *b, const char *ckpt);
/* Write the base to path atomically ("-" for standard output). */
void cg_kb_builder_write(struct cg_kb_builder *b, const char *path);

/* Write a base to path, through a temporary file when path is not a
 * regular file (standard output, a pipe, a device).  Errors are
 * fatal. */
struct cg_kb_source;
struct cg_kb_meta;
void cg_kb_write_source(const struct cg_kb_source *src,
    struct cg_kb_meta *m, const char *path);
/* Write a base of the entries of s (rs ranks a base of slots) to path,
 * through a temporary file when path is not a regular file (standard
 * output, a pipe, a device).  Errors are fatal. */
struct cg_kbset;
struct cg_kb_meta;
void cg_kb_write_to(const struct cg_kbset *s, struct cg_kb_meta *m,
    struct cg_plugin *rs, const char *path);

/* Join shards (or whole bases) into out; refuse conflicts, missing or
 * duplicate shards.  games: store canonical forms as games. */
void cg_kb_merge(int n, char **paths, const char *out, int games,
    int verbose);
/* Check a base: checksums, order, canonical keys, and every entry's
 * values re-derived from its children's (batch: positions per round). */
void cg_kb_verify(const char *path, size_t batch, int verbose);
/* "path: N positions in S s, bytes, bits per position" on stderr. */
void cg_kb_report(const char *path, double secs);
/* A key as messages name it: the position as rs prints it (rs may be
 * NULL), else "key " and its bytes in hex; written to b, whose text it
 * returns. */
struct cg_buf;
const char *cg_kb_describe(struct cg_plugin *rs, const unsigned char *key,
    size_t len, struct cg_buf *b);

#endif
