/* doc.c - reading and writing cgt documents (the format is in cgt(5)). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/doc.h"
#include "format/lineread.h"
#include "base/util.h"

/* ---- id -> node index map */

struct cg_idmap {
	uint64_t *key;
	uint32_t *val;
	size_t n, cap;   /* cap is a power of two */
};

static uint64_t
idhash(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static void idmap_put(struct cg_idmap *m, uint64_t id, uint32_t v);

static void
idmap_grow(struct cg_idmap *m)
{
	struct cg_idmap old = *m;
	size_t i;

	m->cap = m->cap ? m->cap * 2 : 256;
	m->key = cg_xcalloc(m->cap, sizeof *m->key);
	m->val = cg_xcalloc(m->cap, sizeof *m->val);
	m->n = 0;
	for (i = 0; i < old.cap; i++)
		if (old.key[i] != 0)
			idmap_put(m, old.key[i], old.val[i]);
	free(old.key);
	free(old.val);
}

/* ids are never 0, so 0 marks an empty slot */
static void
idmap_put(struct cg_idmap *m, uint64_t id, uint32_t v)
{
	size_t s;

	if ((m->n + 1) * 2 > m->cap)
		idmap_grow(m);
	s = idhash(id) & (m->cap - 1);
	while (m->key[s] != 0 && m->key[s] != id)
		s = (s + 1) & (m->cap - 1);
	if (m->key[s] == 0)
		m->n++;
	m->key[s] = id;
	m->val[s] = v;
}

static int64_t
idmap_get(const struct cg_idmap *m, uint64_t id)
{
	size_t s;

	if (m->cap == 0)
		return -1;
	s = idhash(id) & (m->cap - 1);
	while (m->key[s] != 0) {
		if (m->key[s] == id)
			return m->val[s];
		s = (s + 1) & (m->cap - 1);
	}
	return -1;
}

/* ---- building */

struct cg_doc *
cg_doc_new(void)
{
	struct cg_doc *d = cg_xcalloc(1, sizeof *d);

	d->ids = cg_xcalloc(1, sizeof *d->ids);
	d->file = "-";
	return d;
}

void
cg_doc_free(struct cg_doc *d)
{
	uint32_t i, k;
	int s;

	if (d == NULL)
		return;
	for (i = 0; i < d->n; i++) {
		struct cg_node *x = &d->node[i];

		free(x->text);
		free(x->pos);
		for (s = 0; s < 2; s++) {
			for (k = 0; k < x->nopt[s]; k++)
				free(x->opt[s][k].move);
			free(x->opt[s]);
		}
		free(x->joint);
		for (k = 0; k < x->nannot; k++) {
			free(x->annot[k].key);
			free(x->annot[k].value);
		}
		free(x->annot);
	}
	free(d->node);
	free(d->root);
	free(d->ids->key);
	free(d->ids->val);
	free(d->ids);
	free(d);
}

static uint32_t
new_node(struct cg_doc *d, uint64_t id)
{
	struct cg_node *x;

	if (d->n == UINT32_MAX)
		cg_die(CG_EXIT_DATA, "too many nodes in one document");
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 64;
		d->node = cg_xreallocarray(d->node, d->cap, sizeof *d->node);
	}
	x = &d->node[d->n];
	memset(x, 0, sizeof *x);
	x->id = id;
	if (id > d->max_id)
		d->max_id = id;
	idmap_put(d->ids, id, d->n);
	return d->n++;
}

/* A 32-bit capacity doubled (first from 0), refusing to wrap around. */
static uint32_t
grow32(uint32_t cap, uint32_t first, const char *what)
{
	if (cap == 0)
		return first;
	if (cap > UINT32_MAX / 2)
		cg_die(CG_EXIT_DATA, "too many %s on one node or document", what);
	return cap * 2;
}

uint32_t
cg_doc_add_node(struct cg_doc *d, struct cg_plugin *rs,
    const unsigned char *pos, size_t len, const char *text)
{
	uint32_t i;
	struct cg_node *x;

	if (d->max_id >= CG_MAX_ID)
		cg_die(CG_EXIT_DATA, "node ids exhausted (largest is %llu)",
		    (unsigned long long)d->max_id);
	i = new_node(d, d->max_id + 1);
	x = &d->node[i];

	x->rs = rs;
	if (pos != NULL) {
		x->pos = cg_xmalloc(len ? len : 1);
		memcpy(x->pos, pos, len);
		x->poslen = len;
	}
	if (text != NULL) {
		x->text = cg_xstrdup(text);
	} else if (rs != NULL && pos != NULL) {
		struct cg_buf b;

		cg_buf_init(&b);
		if (cg_rs_print(rs, pos, len, &b) < 0)
			cg_die(CG_EXIT_DATA, "ruleset '%s': %s", rs->name,
			    cg_rs_errmsg(rs));
		x->text = cg_xstrdup(cg_buf_str(&b));
		cg_buf_free(&b);
	}
	return i;
}

void
cg_doc_add_option(struct cg_doc *d, uint32_t parent, enum cg_side side,
    uint32_t child, const char *move)
{
	struct cg_node *x = &d->node[parent];

	if (x->nopt[side] == x->capopt[side]) {
		x->capopt[side] = grow32(x->capopt[side], 4, "options");
		x->opt[side] = cg_xreallocarray(x->opt[side], x->capopt[side],
		    sizeof *x->opt[side]);
	}
	x->opt[side][x->nopt[side]].child = child;
	x->opt[side][x->nopt[side]].move = move ? cg_xstrdup(move) : NULL;
	x->nopt[side]++;
}

void
cg_doc_add_joint(struct cg_doc *d, uint32_t parent, uint32_t i, uint32_t j,
    uint32_t child)
{
	struct cg_node *x = &d->node[parent];

	if (x->njoint == x->capjoint) {
		x->capjoint = grow32(x->capjoint, 4, "joint options");
		x->joint = cg_xreallocarray(x->joint, x->capjoint,
		    sizeof *x->joint);
	}
	x->joint[x->njoint].i = i;
	x->joint[x->njoint].j = j;
	x->joint[x->njoint].child = child;
	x->njoint++;
}

void
cg_doc_add_root(struct cg_doc *d, uint32_t node)
{
	if (d->nroot == d->caproot) {
		d->caproot = grow32(d->caproot, 16, "roots");
		d->root = cg_xreallocarray(d->root, d->caproot,
		    sizeof *d->root);
	}
	d->root[d->nroot++] = node;
}

void
cg_doc_annotate(struct cg_doc *d, uint32_t node, const char *key,
    const char *value)
{
	struct cg_node *x = &d->node[node];
	uint32_t k;

	for (k = 0; k < x->nannot; k++)
		if (strcmp(x->annot[k].key, key) == 0) {
			free(x->annot[k].value);
			x->annot[k].value = cg_xstrdup(value);
			return;
		}
	/* distinct keys per node are few; a cap keeps a document of many
	 * keys on one node from quadratic work */
	if (x->nannot == CG_MAX_ANNOTATIONS)
		cg_die(CG_EXIT_DATA, "more than %d annotation keys on node %llu",
		    CG_MAX_ANNOTATIONS, (unsigned long long)x->id);
	x->annot = cg_xreallocarray(x->annot, x->nannot + 1, sizeof *x->annot);
	x->annot[x->nannot].key = cg_xstrdup(key);
	x->annot[x->nannot].value = cg_xstrdup(value);
	x->nannot++;
}

void
cg_doc_annotate_props(struct cg_doc *d, uint32_t node, char *const *props,
    size_t nprops, char *const *cmps, const char *const *vals, size_t nv)
{
	char key[300];
	size_t i, j;

	for (i = 0; i < nv; i++) {
		if (i < nprops)
			snprintf(key, sizeof key, "%s", props[i]);
		else
			snprintf(key, sizeof key, "cmp %s", cmps[i - nprops]);
		for (j = 0; key[j]; j++)
			if (key[j] == '\t' || key[j] == '\n')
				key[j] = ' ';
		cg_doc_annotate(d, node, key, vals[i]);
	}
}

const char *
cg_doc_annotation(const struct cg_doc *d, uint32_t node, const char *key)
{
	const struct cg_node *x = &d->node[node];
	uint32_t k;

	for (k = 0; k < x->nannot; k++)
		if (strcmp(x->annot[k].key, key) == 0)
			return x->annot[k].value;
	return NULL;
}

int64_t
cg_doc_find(const struct cg_doc *d, uint64_t id)
{
	return idmap_get(d->ids, id);
}

/* ---- writing */

void
cg_escape(struct cg_buf *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': cg_buf_addstr(out, "%25"); break;
		case '\t': cg_buf_addstr(out, "%09"); break;
		case '\n': cg_buf_addstr(out, "%0A"); break;
		case '\r': cg_buf_addstr(out, "%0D"); break;
		default: cg_buf_addc(out, *s);
		}
	}
}

static void
put_escaped(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '%': fputs("%25", out); break;
		case '\t': fputs("%09", out); break;
		case '\n': fputs("%0A", out); break;
		case '\r': fputs("%0D", out); break;
		default: putc(*s, out);
		}
	}
}

/* What the last 'ruleset' record written said. */
struct ruleset_state {
	int kind;                    /* 0 none yet, 1 a ruleset, 2 labels */
	const struct cg_plugin *rs;
};

/* Node i's ruleset record when the ruleset changes, and its N record. */
static void
write_head(FILE *out, const struct cg_doc *d, uint32_t i,
    struct ruleset_state *cur)
{
	const struct cg_node *x = &d->node[i];

	if (x->rs != NULL && (cur->kind != 1 || x->rs != cur->rs)) {
		fprintf(out, "ruleset\t");
		put_escaped(out, x->rs->spec);
		putc('\n', out);
		cur->kind = 1;
		cur->rs = x->rs;
	} else if (x->rs == NULL && x->text != NULL && cur->kind != 2) {
		/* text of an abstract node is a label, not a position */
		fputs("ruleset\t\n", out);
		cur->kind = 2;
		cur->rs = NULL;
	}
	fprintf(out, "N\t%llu", (unsigned long long)x->id);
	if (x->text != NULL) {
		putc('\t', out);
		put_escaped(out, x->text);
	}
	putc('\n', out);
}

/* Node i's L, R, J, E and A records. */
static void
write_rest(FILE *out, const struct cg_doc *d, uint32_t i)
{
	const struct cg_node *x = &d->node[i];
	uint32_t k;
	int s;

	for (s = 0; s < 2; s++)
		for (k = 0; k < x->nopt[s]; k++) {
			fprintf(out, "%c\t%llu\t%llu", s == CG_LEFT ? 'L' : 'R',
			    (unsigned long long)x->id,
			    (unsigned long long)d->node[x->opt[s][k].child].id);
			if (x->opt[s][k].move != NULL) {
				putc('\t', out);
				put_escaped(out, x->opt[s][k].move);
			}
			putc('\n', out);
		}
	for (k = 0; k < x->njoint; k++)
		fprintf(out, "J\t%llu\t%u\t%u\t%llu\n",
		    (unsigned long long)x->id, x->joint[k].i, x->joint[k].j,
		    (unsigned long long)d->node[x->joint[k].child].id);
	if (x->expanded)
		fprintf(out, "E\t%llu\n", (unsigned long long)x->id);
	for (k = 0; k < x->nannot; k++) {
		fprintf(out, "A\t%llu\t", (unsigned long long)x->id);
		put_escaped(out, x->annot[k].key);
		putc('\t', out);
		put_escaped(out, x->annot[k].value);
		putc('\n', out);
	}
}

/* The children of node x, Left's options, then Right's, then joint
 * options, as one list: entry k. */
static uint32_t
nth_child(const struct cg_node *x, uint32_t k)
{
	uint32_t nl = x->nopt[0], nr = x->nopt[1];

	return k < nl ? x->opt[0][k].child : k < nl + nr ?
	    x->opt[1][k - nl].child : x->joint[k - nl - nr].child;
}

/*
 * An iterative depth-first walk from every node in index order (no
 * recursion depth limit applies).  With post not NULL, each node is
 * passed to post(ctx, node) once all its children were; the walk stops
 * at the first option that leads back to a node still on the stack,
 * which is returned in *at and *opt, and then the walk returns 1.
 */
static int
walk(const struct cg_doc *d, void (*post)(void *ctx, uint32_t node),
    void *ctx, uint32_t *at, uint32_t *opt)
{
	unsigned char *state = cg_xcalloc(d->n ? d->n : 1, 1);
	struct frame { uint32_t node, next; } *stack;
	size_t sp, cap = 64;
	uint32_t i, k;
	int found = 0;

	stack = cg_xmalloc(cap * sizeof *stack);
	for (i = 0; i < d->n && !found; i++) {
		if (state[i])
			continue;
		sp = 0;
		stack[sp].node = i;
		stack[sp].next = 0;
		sp++;
		state[i] = 1;
		while (sp > 0) {
			struct frame *f = &stack[sp - 1];
			const struct cg_node *x = &d->node[f->node];
			uint32_t total = x->nopt[0] + x->nopt[1] + x->njoint;
			uint32_t c;

			if (f->next >= total) {
				if (post != NULL)
					post(ctx, f->node);
				state[f->node] = 2;
				sp--;
				continue;
			}
			k = f->next++;
			c = nth_child(x, k);
			if (state[c] == 1) {
				found = 1;
				if (at != NULL)
					*at = f->node;
				if (opt != NULL)
					*opt = k;
				break;
			}
			if (state[c])
				continue;
			state[c] = 1;
			if (sp == cap) {
				cap *= 2;
				stack = cg_xreallocarray(stack, cap, sizeof *stack);
			}
			stack[sp].node = c;
			stack[sp].next = 0;
			sp++;
		}
	}
	free(stack);
	free(state);
	return found;
}

int
cg_doc_find_cycle(const struct cg_doc *d, uint32_t *at, uint32_t *opt)
{
	return walk(d, NULL, NULL, at, opt);
}

struct write_ctx {
	FILE *out;
	const struct cg_doc *d;
	struct ruleset_state cur;
};

static void
write_post(void *ctx, uint32_t node)
{
	struct write_ctx *w = ctx;

	write_head(w->out, w->d, node, &w->cur);
	write_rest(w->out, w->d, node);
	cg_check_write(w->out, w->out == stdout ? "standard output" :
	    "output");
}

/* Children before parents in version 1; a document with a cycle has no
 * such order, so version 2 defines every node first, in index order,
 * then gives the options and the rest. */
void
cg_doc_write(FILE *out, const struct cg_doc *d)
{
	struct write_ctx w = { out, d, { 0, NULL } };
	const char *name = out == stdout ? "standard output" : "output";
	uint32_t i;

	if (walk(d, NULL, NULL, NULL, NULL)) {
		fprintf(out, "%s\t%d\n", CG_FORMAT_MAGIC, CG_FORMAT_LOOPY);
		for (i = 0; i < d->n; i++)
			write_head(out, d, i, &w.cur);
		for (i = 0; i < d->n; i++)
			write_rest(out, d, i);
	} else {
		fprintf(out, "%s\t%d\n", CG_FORMAT_MAGIC, CG_FORMAT_MAJOR);
		walk(d, write_post, &w, NULL, NULL);
	}
	for (i = 0; i < d->nroot; i++)
		fprintf(out, "root\t%llu\n",
		    (unsigned long long)d->node[d->root[i]].id);
	fputs("end\n", out);
	cg_check_write(out, name);
}

void
cg_doc_root_label(const struct cg_doc *d, uint32_t node, struct cg_buf *out)
{
	const struct cg_node *x = &d->node[node];

	if (x->text != NULL)
		cg_escape(out, x->text);
	else
		cg_buf_addf(out, "#%llu", (unsigned long long)x->id);
}

/* ---- reading */

struct cg_reader {
	struct cg_lines *in;
	char *name;
	const char *bare;        /* ruleset spec for bare position lines */
	int bare_only;           /* never a document (cg-parse) */
	int raw;                 /* bare lines kept as text, not parsed */
	unsigned long line;
	char *buf;               /* the current line, NUL-terminated */
	int eof, started;
	int major;               /* of the document being read */
	int forward;             /* it has an option defined before its child */
	struct cg_doc *doc;      /* the document being read (freed by close) */
};

struct cg_reader *
cg_reader_open_fd(int fd, const char *name, const char *bare_ruleset)
{
	struct cg_reader *r = cg_xcalloc(1, sizeof *r);
	struct stat st;

	r->name = cg_xstrdup(name);
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		cg_die(CG_EXIT_DATA, "%s: %s", r->name, strerror(EISDIR));
	}
	r->in = cg_lines_open(fd, name);
	r->bare = bare_ruleset;
	r->buf = "";
	return r;
}

struct cg_reader *
cg_reader_open(const char *path, const char *bare_ruleset)
{
	int fd;

	if (path == NULL || strcmp(path, "-") == 0) {
		path = "-";
		fd = dup(STDIN_FILENO);
	} else {
		fd = open(path, O_RDONLY);
	}
	if (fd < 0)
		cg_die(CG_EXIT_DATA, "%s: %s", path, strerror(errno));
	return cg_reader_open_fd(fd, path, bare_ruleset);
}

struct cg_reader *
cg_reader_open_bare(const char *path, const char *ruleset)
{
	struct cg_reader *r = cg_reader_open(path, ruleset);

	r->bare_only = 1;
	return r;
}

struct cg_reader *
cg_reader_open_lines(const char *path)
{
	struct cg_reader *r = cg_reader_open(path, "");

	r->bare_only = 1;
	r->raw = 1;
	return r;
}

void
cg_reader_close(struct cg_reader *r)
{
	if (r == NULL)
		return;
	cg_lines_close(r->in);
	cg_doc_free(r->doc);
	free(r->name);
	free(r);
}

const char *
cg_reader_name(const struct cg_reader *r)
{
	return r->name;
}

/* Read one line into r->buf (see cg_lines_next); 0 at end of input. */
static int
read_line(struct cg_reader *r)
{
	size_t len;
	int n;

	if (r->eof)
		return 0;
	n = cg_lines_next(r->in, &r->buf, &len);
	r->line = cg_lines_number(r->in);
	if (n < 0)
		cg_die_at(r->name, r->line, "%s", cg_lines_error(r->in));
	if (n == 0) {
		r->eof = 1;
		r->buf = "";
	}
	return n;
}

static int
blank_or_comment(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0' || *s == '#';
}

/* In bare input '#' also starts positions (a filled square), so a comment
 * is '#' followed by a blank or the end of the line. */
static int
bare_blank_or_comment(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return *s == '\0' || (*s == '#' && (s[1] == '\0' || s[1] == ' ' ||
	    s[1] == '\t'));
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 32;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Undo percent-escaping in place. */
static void
unescape(struct cg_reader *r, char *s)
{
	char *w = s;
	int hi, lo;

	for (; *s; s++) {
		if (*s != '%') {
			*w++ = *s;
			continue;
		}
		hi = hexval((unsigned char)s[1]);
		lo = hi < 0 ? -1 : hexval((unsigned char)s[2]);
		if (lo < 0)
			cg_die_at(r->name, r->line,
			    "bad escape '%s' (use %%25 for a literal %%)",
			    cg_quote(s, strnlen(s, 3)));
		if (hi == 0 && lo == 0)
			cg_die_at(r->name, r->line, "escaped NUL byte (%%00)");
		*w++ = (char)(hi * 16 + lo);
		s += 2;
	}
	*w = '\0';
}

#define MAXFIELDS 8

/* Split at TABs into at most max fields; the last takes the rest.  The
 * record type may be surrounded by spaces. */
static int
split(char *s, char **f, int max)
{
	int n = 0;
	char *e;

	while (*s == ' ')
		s++;
	f[n++] = s;
	while (n < max && (s = strchr(s, '\t')) != NULL) {
		*s++ = '\0';
		f[n++] = s;
	}
	e = f[0] + strlen(f[0]);
	while (e > f[0] && e[-1] == ' ')
		*--e = '\0';
	return n;
}

static uint64_t
parse_id(struct cg_reader *r, const char *s, const char *what)
{
	char *end;
	unsigned long long v;
	const char *t = s;

	while (*t == ' ')
		t++;
	errno = 0;
	if (*t < '0' || *t > '9')
		cg_die_at(r->name, r->line, "bad %s '%s'", what,
		    cg_quote_str(s));
	v = strtoull(t, &end, 10);
	while (*end == ' ')
		end++;
	if (errno != 0 || *end != '\0' || v == 0 || v > CG_MAX_ID)
		cg_die_at(r->name, r->line, "bad %s '%s'", what,
		    cg_quote_str(s));
	return v;
}

static uint32_t
parse_index(struct cg_reader *r, const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (*s < '0' || *s > '9')
		cg_die_at(r->name, r->line, "bad %s '%s'", what,
		    cg_quote_str(s));
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > UINT32_MAX)
		cg_die_at(r->name, r->line, "bad %s '%s'", what,
		    cg_quote_str(s));
	return (uint32_t)v;
}

static uint32_t
lookup(struct cg_reader *r, struct cg_doc *d, const char *s, const char *what)
{
	uint64_t id = parse_id(r, s, what);
	int64_t i = cg_doc_find(d, id);

	if (i < 0)
		cg_die_at(r->name, r->line, "%s %llu is not defined (define "
		    "nodes before using them)", what, (unsigned long long)id);
	return (uint32_t)i;
}

static void
need_fields(struct cg_reader *r, int n, int min, int max, const char *type)
{
	if (n < min || n > max) {
		if (min == max)
			cg_die_at(r->name, r->line, "'%s' record needs %d "
			    "field%s after the type, not %d", type, min - 1,
			    min == 2 ? "" : "s", n - 1);
		cg_die_at(r->name, r->line, "'%s' record needs %d to %d "
		    "fields after the type, not %d", type, min - 1, max - 1,
		    n - 1);
	}
}

/* Parse text as a position of rs into b; 0, or -1 after reporting the
 * error through report (fatal or not). */
static int
parse_position(struct cg_reader *r, struct cg_plugin *rs, const char *text,
    struct cg_buf *b,
    void (*report)(const char *, unsigned long, const char *, ...))
{
	cg_buf_init(b);
	if (cg_rs_parse(rs, text, strlen(text), b) >= 0)
		return 0;
	cg_buf_free(b);
	report(r->name, r->line, "bad %s position '%s': %s", rs->name,
	    cg_quote_str(text), cg_rs_errmsg(rs));
	return -1;
}

static void
set_position(struct cg_reader *r, struct cg_node *x, struct cg_plugin *rs,
    const char *text, const struct cg_buf *b)
{
	x->rs = rs;
	x->pos = b->data ? b->data : cg_xmalloc(1);
	x->poslen = b->len;
	x->text = cg_xstrdup(text);
}

static void __attribute__((format(printf, 3, 4)))
report_fatal(const char *file, unsigned long line, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	cg_die_at(file, line, "%s", msg);
}

/*
 * Bare positions, one a line, each a root.  Lines are independent, so a
 * bad one is reported and skipped and the others go on (the program
 * exits 1 in the end, see cg_error_at).
 */
static struct cg_doc *
read_bare(struct cg_reader *r, char *first)
{
	struct cg_plugin *rs = r->raw ? NULL : cg_plugin_get(r->bare,
	    CG_EXIT_USAGE);
	struct cg_doc *d;
	struct cg_buf b;
	char *text = first;
	uint32_t i;

	d = r->doc = cg_doc_new();
	d->file = r->name;
	for (;;) {
		if (!bare_blank_or_comment(text)) {
			size_t len = strlen(text);

			/* surrounding blanks are not part of a position */
			while (len > 0 && (text[len - 1] == ' ' ||
			    text[len - 1] == '\t'))
				text[--len] = '\0';
			while (*text == ' ' || *text == '\t')
				text++;
			if (r->raw) {
				i = new_node(d, d->max_id + 1);
				d->node[i].line = r->line;
				d->node[i].text = cg_xstrdup(text);
				cg_doc_add_root(d, i);
			} else if (parse_position(r, rs, text, &b,
			    cg_error_at) == 0) {
				i = new_node(d, d->max_id + 1);
				d->node[i].line = r->line;
				set_position(r, &d->node[i], rs, text, &b);
				cg_doc_add_root(d, i);
			}
		}
		if (!read_line(r))
			break;
		text = r->buf;
	}
	r->doc = NULL;
	return d;
}

/* "cgt VERSION": accept major versions 1 and 2 with any minor part. */
static int
check_magic(struct cg_reader *r)
{
	const char *v = r->buf + 3;
	char *end;
	long major;

	while (*v == ' ' || *v == '\t')
		v++;
	errno = 0;
	major = (*v >= '0' && *v <= '9') ? strtol(v, &end, 10) : -1;
	if (major < 0 || errno != 0)
		cg_die_at(r->name, r->line, "bad format version '%s'",
		    cg_quote_str(v));
	if (*end == '.') {
		end++;
		while (*end >= '0' && *end <= '9')
			end++;
	}
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end != '\0')
		cg_die_at(r->name, r->line, "bad format version '%s'",
		    cg_quote_str(v));
	if (major != CG_FORMAT_MAJOR && major != CG_FORMAT_LOOPY)
		cg_die_at(r->name, r->line, "unsupported format version '%s' "
		    "(this program reads versions %d and %d)", cg_quote_str(v),
		    CG_FORMAT_MAJOR, CG_FORMAT_LOOPY);
	return (int)major;
}

/* The ruleset in force while reading: none declared yet, a plugin, or
 * labels (an empty 'ruleset' record: texts label abstract nodes). */
struct read_state {
	struct cg_plugin *rs;
	int labels;
};

/* A record type followed by a space instead of a TAB ("N 1 2")? */
static int
spaced_record(const char *type)
{
	static const char *const types[] = {
		"N", "L", "R", "J", "E", "A", "root", "ruleset", "end", "cgt"
	};
	size_t i, n = strcspn(type, " ");

	if (type[n] != ' ')
		return 0;
	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strlen(types[i]) == n && strncmp(type, types[i], n) == 0)
			return 1;
	return 0;
}

static void
read_record(struct cg_reader *r, struct cg_doc *d, struct read_state *st,
    char **f, int n)
{
	uint32_t x, c;
	enum cg_side side;

	if (strcmp(f[0], "N") == 0) {
		uint64_t id;

		need_fields(r, n, 2, 3, "N");
		id = parse_id(r, f[1], "node id");
		if (cg_doc_find(d, id) >= 0)
			cg_die_at(r->name, r->line, "node %llu defined twice",
			    (unsigned long long)id);
		x = new_node(d, id);
		d->node[x].line = r->line;
		if (n == 3) {
			struct cg_buf b;

			unescape(r, f[2]);
			if (st->rs != NULL) {
				parse_position(r, st->rs, f[2], &b,
				    report_fatal);
				set_position(r, &d->node[x], st->rs, f[2], &b);
			} else if (st->labels)
				d->node[x].text = cg_xstrdup(f[2]);
			else
				cg_die_at(r->name, r->line, "position text but "
				    "no 'ruleset' record before it");
		}
	} else if (strcmp(f[0], "L") == 0 || strcmp(f[0], "R") == 0) {
		need_fields(r, n, 3, 4, f[0]);
		x = lookup(r, d, f[1], "node");
		c = lookup(r, d, f[2], "option node");
		if (d->node[x].expanded)
			cg_die_at(r->name, r->line, "option of node %llu after "
			    "its 'E' record", (unsigned long long)d->node[x].id);
		if (c >= x && r->major == CG_FORMAT_MAJOR)
			cg_die_at(r->name, r->line, "option %llu of node %llu "
			    "is not defined before it (children come before "
			    "parents in version 1; a document with a cycle is "
			    "version 2)", (unsigned long long)d->node[c].id,
			    (unsigned long long)d->node[x].id);
		if (c >= x)
			r->forward = 1;
		if (n == 4)
			unescape(r, f[3]);
		side = f[0][0] == 'L' ? CG_LEFT : CG_RIGHT;
		cg_doc_add_option(d, x, side, c, n == 4 ? f[3] : NULL);
		d->node[x].opt[side][d->node[x].nopt[side] - 1].line =
		    r->line > UINT32_MAX ? UINT32_MAX : (uint32_t)r->line;
	} else if (strcmp(f[0], "J") == 0) {
		uint32_t i, j;

		need_fields(r, n, 5, 5, "J");
		x = lookup(r, d, f[1], "node");
		/* move indices are 0-based */
		i = parse_index(r, f[2], "Left move index");
		j = parse_index(r, f[3], "Right move index");
		c = lookup(r, d, f[4], "option node");
		if (d->node[x].expanded)
			cg_die_at(r->name, r->line, "option of node %llu after "
			    "its 'E' record", (unsigned long long)d->node[x].id);
		if (c >= x)
			cg_die_at(r->name, r->line, "joint option %llu of node "
			    "%llu is not defined before it (children come "
			    "before parents in joint options)", (unsigned long long)d->node[c].id,
			    (unsigned long long)d->node[x].id);
		cg_doc_add_joint(d, x, i, j, c);
		d->node[x].joint[d->node[x].njoint - 1].line = r->line;
	} else if (strcmp(f[0], "E") == 0) {
		need_fields(r, n, 2, 2, "E");
		x = lookup(r, d, f[1], "node");
		d->node[x].expanded = 1;
	} else if (strcmp(f[0], "A") == 0) {
		need_fields(r, n, 4, 4, "A");
		x = lookup(r, d, f[1], "node");
		unescape(r, f[2]);
		unescape(r, f[3]);
		if (*f[2] == '\0')
			cg_die_at(r->name, r->line, "empty annotation key");
		cg_doc_annotate(d, x, f[2], f[3]);
	} else if (strcmp(f[0], "root") == 0) {
		need_fields(r, n, 2, 2, "root");
		cg_doc_add_root(d, lookup(r, d, f[1], "root node"));
	} else if (strcmp(f[0], "ruleset") == 0) {
		need_fields(r, n, 2, 2, "ruleset");
		unescape(r, f[1]);
		st->labels = *f[1] == '\0';
		st->rs = NULL;
		if (!st->labels) {
			cg_plugin_where(r->name, r->line);
			st->rs = cg_plugin_get(f[1], CG_EXIT_DATA);
			cg_plugin_where(NULL, 0);
		}
	} else if (strcmp(f[0], "cgt") == 0) {
		cg_die_at(r->name, r->line, "'cgt' line inside a document "
		    "(previous document has no 'end' record)");
	} else {
		cg_die_at(r->name, r->line, "unknown record type '%s'%s",
		    cg_quote_str(f[0]), spaced_record(f[0]) ? " (fields are "
		    "separated by TABs, not spaces)" : "");
	}
}

/* Joint options name moves by their index in the node's L and R lists,
 * so those must exist; checked at the end, when the lists are known. */
static void
check_joints(struct cg_reader *r, const struct cg_doc *d)
{
	uint32_t x, k;

	for (x = 0; x < d->n; x++) {
		const struct cg_node *nd = &d->node[x];

		for (k = 0; k < nd->njoint; k++)
			if (nd->joint[k].i >= nd->nopt[CG_LEFT] ||
			    nd->joint[k].j >= nd->nopt[CG_RIGHT])
				cg_die_at(r->name, nd->joint[k].line, "joint "
				    "option (%u, %u) of node %llu, which has %u "
				    "Left and %u Right options (indices are "
				    "0-based positions in its L and R lists)",
				    nd->joint[k].i, nd->joint[k].j,
				    (unsigned long long)nd->id,
				    nd->nopt[CG_LEFT], nd->nopt[CG_RIGHT]);
	}
}

struct order {
	uint32_t *perm, n;       /* old index -> new index */
};

static void
order_post(void *ctx, uint32_t node)
{
	struct order *o = ctx;

	o->perm[node] = o->n++;
}

/*
 * A version-2 document whose options may come before their children:
 * one with a cycle is marked (where the cycle leaves a node), one
 * without is put in the order of version 1, children first, so that
 * every tool may rely on that order.
 */
static void
settle_order(struct cg_doc *d)
{
	struct order o;
	struct cg_node *nn;
	uint32_t at, k, i;
	int s;

	if (cg_doc_find_cycle(d, &at, &k)) {
		const struct cg_node *x = &d->node[at];
		uint32_t nl = x->nopt[0], nr = x->nopt[1];

		d->cyclic = 1;
		d->cycle_node = at;
		d->cycle_line = k < nl ? x->opt[0][k].line : k < nl + nr ?
		    x->opt[1][k - nl].line : x->joint[k - nl - nr].line;
		return;
	}
	o.perm = cg_xcalloc(d->n ? d->n : 1, sizeof *o.perm);
	o.n = 0;
	walk(d, order_post, &o, NULL, NULL);
	nn = cg_xcalloc(d->cap ? d->cap : 1, sizeof *nn);
	for (i = 0; i < d->n; i++) {
		struct cg_node *x = &d->node[i];

		for (s = 0; s < 2; s++)
			for (k = 0; k < x->nopt[s]; k++)
				x->opt[s][k].child = o.perm[x->opt[s][k].child];
		for (k = 0; k < x->njoint; k++)
			x->joint[k].child = o.perm[x->joint[k].child];
		nn[o.perm[i]] = *x;
		idmap_put(d->ids, x->id, o.perm[i]);
	}
	for (i = 0; i < d->nroot; i++)
		d->root[i] = o.perm[d->root[i]];
	free(d->node);
	d->node = nn;
	free(o.perm);
}

void
cg_doc_refuse_cycles(const struct cg_doc *d)
{
	uint32_t at, k;

	if (d->cyclic) {
		cg_die_at(d->file, d->cycle_line, "node %llu is its own "
		    "follower: a loopy game (a cycle), which this program "
		    "does not take (cg-outcome solves it)",
		    (unsigned long long)d->node[d->cycle_node].id);
	}
	if (cg_doc_find_cycle(d, &at, &k))
		cg_die_at(d->file, d->node[at].line, "node %llu is its own "
		    "follower: a loopy game (a cycle), which this program "
		    "does not take (cg-outcome solves it)",
		    (unsigned long long)d->node[at].id);
}

static int
is_magic(const char *s)
{
	return strncmp(s, CG_FORMAT_MAGIC, 3) == 0 &&
	    (s[3] == '\t' || s[3] == ' ' || s[3] == '\0');
}

struct cg_doc *
cg_reader_next(struct cg_reader *r)
{
	struct cg_doc *d;
	struct read_state st = { NULL, 0 };
	char *f[MAXFIELDS];
	int n;

	/* Find the magic line, or decide this is bare input.  Before that is
	 * decided, a comment is what it is in bare input ('#' and a blank),
	 * since '#' may begin a position. */
	do {
		if (!read_line(r))
			return NULL;   /* end of input: no more documents */
	} while (r->bare != NULL && !r->started ?
	    bare_blank_or_comment(r->buf) : blank_or_comment(r->buf));
	if (r->bare_only) {
		if (r->started)
			return NULL;
		r->started = 1;
		return read_bare(r, r->buf);
	}
	if (!is_magic(r->buf)) {
		if (r->bare != NULL && !r->started) {
			r->started = 1;
			return read_bare(r, r->buf);
		}
		cg_die_at(r->name, r->line, r->started ?
		    "expected 'cgt' line starting the next document" :
		    "not a cgt document (no 'cgt 1' line; use -r NAME to read "
		    "bare positions)");
	}
	r->started = 1;
	r->major = check_magic(r);
	r->forward = 0;
	d = r->doc = cg_doc_new();
	d->file = r->name;
	for (;;) {
		if (!read_line(r))
			cg_die_at(r->name, r->line, "unexpected end of input "
			    "(missing 'end' record: truncated document?)");
		if (blank_or_comment(r->buf))
			continue;
		n = split(r->buf, f, MAXFIELDS);
		if (strcmp(f[0], "end") == 0) {
			need_fields(r, n, 1, 1, "end");
			check_joints(r, d);
			if (r->forward)
				settle_order(d);
			r->doc = NULL;
			return d;
		}
		read_record(r, d, &st, f, n);
	}
}

/* ---- the tools' loop */

void
cg_each_document(int argc, char **argv, const char *ruleset,
    void (*fn)(struct cg_doc *d, void *arg), void *arg)
{
	cg_each_document_flags(argc, argv, ruleset, 0, fn, arg);
}

void
cg_each_document_flags(int argc, char **argv, const char *ruleset,
    unsigned flags, void (*fn)(struct cg_doc *d, void *arg), void *arg)
{
	static char *stdin_only[] = { "-" };
	struct cg_reader *r;
	struct cg_doc *d;
	int i;

	if (argc == 0) {
		argc = 1;
		argv = stdin_only;
	}
	for (i = 0; i < argc; i++) {
		r = cg_reader_open(argv[i], ruleset);
		while ((d = cg_reader_next(r)) != NULL) {
			if (d->cyclic && !(flags & CG_EACH_CYCLES))
				cg_doc_refuse_cycles(d);
			if (!(flags & CG_EACH_LOOPY))
				cg_doc_refuse_loopy(d, "this program needs "
				    "every game to end (cg-outcome solves "
				    "loopy games)");
			fn(d, arg);
			cg_doc_free(d);
		}
		cg_reader_close(r);
	}
}

void
cg_tsv_row(FILE *out, const struct cg_doc *d, uint32_t root,
    const char *const *values, size_t nvalues)
{
	struct cg_buf b;
	size_t i;

	cg_buf_init(&b);
	cg_doc_root_label(d, root, &b);
	for (i = 0; i < nvalues; i++) {
		cg_buf_addc(&b, '\t');
		cg_escape(&b, values[i] ? values[i] : "");
	}
	cg_buf_addc(&b, '\n');
	fwrite(b.data, 1, b.len, out);
	cg_buf_free(&b);
	cg_check_write(out, "standard output");
}

void
cg_doc_refuse_results(const struct cg_doc *d, const char *why)
{
	uint32_t i;

	for (i = 0; i < d->n; i++)
		if (d->node[i].rs != NULL)
			cg_rs_refuse_result(d->node[i].rs, d->file,
			    d->node[i].line, why);
}

int
cg_doc_has_loopy(const struct cg_doc *d)
{
	uint32_t i;

	for (i = 0; i < d->n; i++)
		if (d->node[i].rs != NULL && cg_rs_loopy(d->node[i].rs))
			return 1;
	return 0;
}

void
cg_doc_refuse_loopy(const struct cg_doc *d, const char *why)
{
	uint32_t i;

	for (i = 0; i < d->n; i++)
		if (d->node[i].rs != NULL)
			cg_rs_refuse_loopy(d->node[i].rs, d->file,
			    d->node[i].line, why);
}
