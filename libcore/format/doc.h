/* doc.h - the cgt interchange format (see cgt(5)): reading and writing.
 *
 * A document is held in memory as an array of nodes.  Node i's options
 * are indices of other nodes.  The writer emits children before parents
 * whatever order nodes were added in, so tools may append nodes freely. */
#ifndef CG_DOC_H
#define CG_DOC_H

#include <stdint.h>
#include <stdio.h>

#include "host/plugin.h"

#define CG_FORMAT_MAGIC "cgt"
#define CG_FORMAT_MAJOR 1
/* Version 2 documents may have cycles (options that lead back). */
#define CG_FORMAT_LOOPY 2
/* Distinct annotation keys one node may carry. */
#define CG_MAX_ANNOTATIONS 4096
/* Node ids are 1 .. CG_MAX_ID (2^63 - 1). */
#define CG_MAX_ID 0x7fffffffffffffffull

struct cg_option {
	uint32_t child;
	uint32_t line;       /* of its L or R record (0 = made here) */
	char *move;          /* NULL when unnamed */
};

struct cg_joint {
	uint32_t i, j, child;
	unsigned long line;       /* of its J record (0 = made here) */
};

struct cg_annot {
	char *key, *value;
};

struct cg_node {
	uint64_t id;
	struct cg_plugin *rs;     /* ruleset in force; NULL for abstract nodes */
	char *text;               /* position text (unescaped) when rs is set;
	                           * for an abstract node a label or NULL */
	unsigned char *pos;       /* position bytes from the plugin, or NULL */
	size_t poslen;
	struct cg_option *opt[2]; /* CG_LEFT, CG_RIGHT */
	uint32_t nopt[2], capopt[2];
	struct cg_joint *joint;
	uint32_t njoint, capjoint;
	struct cg_annot *annot;
	uint32_t nannot;
	unsigned expanded : 1;    /* E record seen: option lists complete */
	unsigned long line;       /* where it was defined (0 = made here) */
};

struct cg_doc {
	struct cg_node *node;
	uint32_t n, cap;
	uint32_t *root;
	uint32_t nroot, caproot;
	uint64_t max_id;
	const char *file;         /* for messages */
	struct cg_idmap *ids;
	/* read from a version-2 document with a cycle: cycle_node has an
	 * option, defined on line cycle_line, that leads back to it */
	unsigned cyclic : 1;
	uint32_t cycle_node;
	unsigned long cycle_line;
};

struct cg_doc *cg_doc_new(void);
void cg_doc_free(struct cg_doc *d);

/* Add a node; text may be NULL (the plugin's printed form is used when
 * rs and pos are given).  Returns the node's index. */
uint32_t cg_doc_add_node(struct cg_doc *d, struct cg_plugin *rs,
    const unsigned char *pos, size_t len, const char *text);
void cg_doc_add_option(struct cg_doc *d, uint32_t parent, enum cg_side side,
    uint32_t child, const char *move);
void cg_doc_add_joint(struct cg_doc *d, uint32_t parent, uint32_t i,
    uint32_t j, uint32_t child);
void cg_doc_add_root(struct cg_doc *d, uint32_t node);
/* Set an annotation, replacing one with the same key. */
void cg_doc_annotate(struct cg_doc *d, uint32_t node, const char *key,
    const char *value);
const char *cg_doc_annotation(const struct cg_doc *d, uint32_t node,
    const char *key);
/* cg-canon's annotations of a node: vals[i] under props[i] for i <
 * nprops, then under "cmp " and cmps[i - nprops]; tabs and newlines in
 * a key become blanks. */
void cg_doc_annotate_props(struct cg_doc *d, uint32_t node,
    char *const *props, size_t nprops, char *const *cmps,
    const char *const *vals, size_t nv);
/* Index of the node with this id, or -1. */
int64_t cg_doc_find(const struct cg_doc *d, uint64_t id);

/* Does d have a cycle?  If so and at is not NULL, *at is a node on one
 * and *opt the index of its option (Left's, then Right's, then joint
 * options) that the cycle leaves it by.  O(nodes + options). */
int cg_doc_find_cycle(const struct cg_doc *d, uint32_t *at, uint32_t *opt);

/* Stop with "file:line: node N is its own follower ..." when d has a
 * cycle: for the tools whose values are of games that end. */
void cg_doc_refuse_cycles(const struct cg_doc *d);

/* Write d as one document: version 1, or version 2 when d has a cycle. */
void cg_doc_write(FILE *out, const struct cg_doc *d);

/*
 * Reading.  A reader yields one document at a time from a file or stdin
 * ("-" or NULL), gzip-compressed or plain.  When the input does not start
 * with the magic line and bare_ruleset is not NULL, every non-blank,
 * non-comment line is a position of that ruleset and becomes a root of one
 * document.  Errors are fatal with "file:line: message".
 */
struct cg_reader;
struct cg_reader *cg_reader_open(const char *path, const char *bare_ruleset);
/* The same on an open descriptor (taken over and closed by close); name is
 * used in messages. */
struct cg_reader *cg_reader_open_fd(int fd, const char *name,
    const char *bare_ruleset);
/* Bare positions of ruleset only, even if the input looks like a
 * document (cg-parse): one document holding every good line (bad lines are
 * reported through cg_error_at), then NULL. */
struct cg_reader *cg_reader_open_bare(const char *path, const char *ruleset);
/* The same lines kept as the texts of abstract roots, not parsed, for a
 * reader of its own (cg-parse's loopy game literals). */
struct cg_reader *cg_reader_open_lines(const char *path);
/* The next document, or NULL at end of input.  The caller frees it with
 * cg_doc_free (a document left half-read by an error is freed by close). */
struct cg_doc *cg_reader_next(struct cg_reader *r);
void cg_reader_close(struct cg_reader *r);
const char *cg_reader_name(const struct cg_reader *r);

/* Percent-escaping of field text (%, TAB, CR, LF). */
void cg_escape(struct cg_buf *out, const char *s);

/* The label of a root for -t output: its text (escaped) or "#ID". */
void cg_doc_root_label(const struct cg_doc *d, uint32_t node,
    struct cg_buf *out);

/* Stop (cg_rs_refuse_result) at the first node of d whose ruleset ends
 * in a result (cg.result), saying why: for the tools whose values are
 * normal-play games. */
void cg_doc_refuse_results(const struct cg_doc *d, const char *why);

/* Stop (cg_rs_refuse_loopy) at the first node of d whose ruleset is
 * loopy, saying why. */
/* Has d a node that is a position of a loopy ruleset? */
int cg_doc_has_loopy(const struct cg_doc *d);
void cg_doc_refuse_loopy(const struct cg_doc *d, const char *why);

/* ---- the tools' loop */

/*
 * Call fn on each document read from the files argv[0..argc-1] (or stdin
 * when argc is 0; "-" is stdin).  With ruleset not NULL, input that is not
 * a cgt document is read as bare positions of that ruleset.  The document
 * is freed after fn returns.
 */
void cg_each_document(int argc, char **argv, const char *ruleset,
    void (*fn)(struct cg_doc *d, void *arg), void *arg);
/* The same; with CG_EACH_CYCLES, documents with cycles are passed to fn
 * (d->cyclic set), else they are refused (cg_doc_refuse_cycles) before
 * fn sees them. */
#define CG_EACH_CYCLES 1
/* With CG_EACH_LOOPY, positions of loopy rulesets (CG_LOOPY) are passed
 * to fn; else the first node of one stops the program
 * (cg_doc_refuse_loopy): the one check that keeps every engine that
 * needs games to end from meeting a loopy ruleset. */
#define CG_EACH_LOOPY 2
void cg_each_document_flags(int argc, char **argv, const char *ruleset,
    unsigned flags, void (*fn)(struct cg_doc *d, void *arg), void *arg);

/* One -t output line: the root's label, then each value, TAB-separated. */
void cg_tsv_row(FILE *out, const struct cg_doc *d, uint32_t root,
    const char *const *values, size_t nvalues);

#endif
