/* doc.c - reading and writing cgt documents (the format is in cgt(5)). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "format/doc.h"
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
		x->capopt[side] = x->capopt[side] ? x->capopt[side] * 2 : 4;
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
		x->capjoint = x->capjoint ? x->capjoint * 2 : 4;
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
		d->caproot = d->caproot ? d->caproot * 2 : 16;
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
	x->annot = cg_xreallocarray(x->annot, x->nannot + 1, sizeof *x->annot);
	x->annot[x->nannot].key = cg_xstrdup(key);
	x->annot[x->nannot].value = cg_xstrdup(value);
	x->nannot++;
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

static void
write_node(FILE *out, const struct cg_doc *d, uint32_t i,
    struct ruleset_state *cur)
{
	const struct cg_node *x = &d->node[i];
	uint32_t k;
	int s;

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

/* Children before parents: an iterative post-order walk from every node
 * in index order, so no recursion depth limit applies. */
void
cg_doc_write(FILE *out, const struct cg_doc *d)
{
	unsigned char *state = cg_xcalloc(d->n ? d->n : 1, 1);
	struct frame { uint32_t node, next; } *stack;
	size_t sp, cap = 64;
	struct ruleset_state cur = { 0, NULL };
	uint32_t i, k;

	const char *name = out == stdout ? "standard output" : "output";

	stack = cg_xmalloc(cap * sizeof *stack);
	fprintf(out, "%s\t%d\n", CG_FORMAT_MAGIC, CG_FORMAT_MAJOR);
	for (i = 0; i < d->n; i++) {
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
			uint32_t nl = x->nopt[0], nr = x->nopt[1];
			uint32_t total = nl + nr + x->njoint, c;

			if (f->next >= total) {
				write_node(out, d, f->node, &cur);
				state[f->node] = 2;
				sp--;
				continue;
			}
			k = f->next++;
			c = k < nl ? x->opt[0][k].child : k < nl + nr ?
			    x->opt[1][k - nl].child : x->joint[k - nl - nr].child;
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
		cg_check_write(out, name);
	}
	for (i = 0; i < d->nroot; i++)
		fprintf(out, "root\t%llu\n",
		    (unsigned long long)d->node[d->root[i]].id);
	fputs("end\n", out);
	cg_check_write(out, name);
	free(stack);
	free(state);
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
	gzFile gz;
	char *name;
	const char *bare;        /* ruleset spec for bare position lines */
	unsigned long line;
	char *buf;               /* the current line, NUL-terminated */
	size_t cap;
	unsigned char in[1 << 16];
	size_t inpos, inlen;
	int eof, started;
	struct cg_doc *doc;      /* the document being read (freed by close) */
};

struct cg_reader *
cg_reader_open_fd(int fd, const char *name, const char *bare_ruleset)
{
	struct cg_reader *r = cg_xcalloc(1, sizeof *r);
	struct stat st;

	r->name = cg_xstrdup(name);
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		cg_die(CG_EXIT_DATA, "%s: %s", r->name, strerror(EISDIR));
	r->gz = gzdopen(fd, "rb");
	if (r->gz == NULL)
		cg_die(CG_EXIT_DATA, "%s: cannot open", r->name);
	r->bare = bare_ruleset;
	r->cap = 4096;
	r->buf = cg_xmalloc(r->cap);
	r->buf[0] = '\0';
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

void
cg_reader_close(struct cg_reader *r)
{
	if (r == NULL)
		return;
	gzclose(r->gz);
	cg_doc_free(r->doc);
	free(r->buf);
	free(r->name);
	free(r);
}

const char *
cg_reader_name(const struct cg_reader *r)
{
	return r->name;
}

/* zlib's message for the last error, without its "<fd:N>: " prefix. */
static const char *
gz_message(struct cg_reader *r, int *errnum)
{
	const char *msg = gzerror(r->gz, errnum), *colon;

	if (*errnum == Z_ERRNO)
		return strerror(errno);
	if (strncmp(msg, "<fd:", 4) == 0 && (colon = strstr(msg, ": ")) != NULL)
		msg = colon + 2;
	return msg;
}

/* Read one line into r->buf without its line end (LF, CRLF or trailing
 * CRs); 0 at end of input.  A last line without LF counts. */
static int
read_line(struct cg_reader *r)
{
	size_t len = 0, chunk;
	const unsigned char *start, *nl;
	int n, errnum, done = 0;

	if (r->eof)
		return 0;
	while (!done) {
		if (r->inpos == r->inlen) {
			n = gzread(r->gz, r->in, sizeof r->in);
			if (n <= 0) {
				/* a truncated gzip stream is reported at 0 */
				const char *msg = gz_message(r, &errnum);

				if (n < 0 || (errnum != Z_OK &&
				    errnum != Z_STREAM_END))
					cg_die_at(r->name, r->line + 1,
					    "read error: %s", msg);
			}
			if (n == 0) {
				r->eof = 1;
				if (len == 0)
					return 0;
				break;
			}
			r->inpos = 0;
			r->inlen = (size_t)n;
		}
		start = r->in + r->inpos;
		nl = memchr(start, '\n', r->inlen - r->inpos);
		chunk = nl ? (size_t)(nl - start) : r->inlen - r->inpos;
		if (memchr(start, '\0', chunk) != NULL)
			cg_die_at(r->name, r->line + 1, "NUL byte in input");
		if (len + chunk + 1 > r->cap) {
			while (len + chunk + 1 > r->cap)
				r->cap *= 2;
			r->buf = cg_xrealloc(r->buf, r->cap);
		}
		memcpy(r->buf + len, start, chunk);
		len += chunk;
		r->inpos += chunk + (nl != NULL);
		done = nl != NULL;
	}
	r->line++;
	while (len > 0 && r->buf[len - 1] == '\r')
		len--;
	r->buf[len] = '\0';
	return 1;
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
			    "bad escape '%.3s' (use %%25 for a literal %%)", s);
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
		cg_die_at(r->name, r->line, "bad %s '%s'", what, s);
	v = strtoull(t, &end, 10);
	while (*end == ' ')
		end++;
	if (errno != 0 || *end != '\0' || v == 0 || v > CG_MAX_ID)
		cg_die_at(r->name, r->line, "bad %s '%s'", what, s);
	return v;
}

static uint32_t
parse_index(struct cg_reader *r, const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (*s < '0' || *s > '9')
		cg_die_at(r->name, r->line, "bad %s '%s'", what, s);
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > UINT32_MAX)
		cg_die_at(r->name, r->line, "bad %s '%s'", what, s);
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

static void
set_position(struct cg_reader *r, struct cg_node *x, struct cg_plugin *rs,
    const char *text)
{
	struct cg_buf b;

	cg_buf_init(&b);
	if (cg_rs_parse(rs, text, strlen(text), &b) < 0) {
		cg_buf_free(&b);
		cg_die_at(r->name, r->line, "bad %s position '%s': %s",
		    rs->name, text, cg_rs_errmsg(rs));
	}
	x->rs = rs;
	x->pos = b.data ? b.data : cg_xmalloc(1);
	x->poslen = b.len;
	x->text = cg_xstrdup(text);
}

static struct cg_doc *
read_bare(struct cg_reader *r, char *first)
{
	struct cg_plugin *rs = cg_plugin_get(r->bare, CG_EXIT_USAGE);
	struct cg_doc *d;
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
			i = new_node(d, d->max_id + 1);
			d->node[i].line = r->line;
			set_position(r, &d->node[i], rs, text);
			cg_doc_add_root(d, i);
		}
		if (!read_line(r))
			break;
		text = r->buf;
	}
	r->doc = NULL;
	return d;
}

/* "cgt VERSION": accept major version 1 with any minor part. */
static void
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
		cg_die_at(r->name, r->line, "bad format version '%s'", v);
	if (*end == '.') {
		end++;
		while (*end >= '0' && *end <= '9')
			end++;
	}
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end != '\0')
		cg_die_at(r->name, r->line, "bad format version '%s'", v);
	if (major != CG_FORMAT_MAJOR)
		cg_die_at(r->name, r->line, "unsupported format version '%s' "
		    "(this program reads version %d)", v, CG_FORMAT_MAJOR);
}

/* The ruleset in force while reading: none declared yet, a plugin, or
 * labels (an empty 'ruleset' record: texts label abstract nodes). */
struct read_state {
	struct cg_plugin *rs;
	int labels;
};

static void
read_record(struct cg_reader *r, struct cg_doc *d, struct read_state *st,
    char **f, int n)
{
	uint32_t x, c;

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
			unescape(r, f[2]);
			if (st->rs != NULL)
				set_position(r, &d->node[x], st->rs, f[2]);
			else if (st->labels)
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
			cg_die_at(r->name, r->line, "option of node %s after "
			    "its 'E' record", f[1]);
		if (c >= x)
			cg_die_at(r->name, r->line, "option %s of node %s is "
			    "not defined before it (children come before "
			    "parents; a cycle is not a short game)", f[2], f[1]);
		if (n == 4)
			unescape(r, f[3]);
		cg_doc_add_option(d, x, f[0][0] == 'L' ? CG_LEFT : CG_RIGHT, c,
		    n == 4 ? f[3] : NULL);
	} else if (strcmp(f[0], "J") == 0) {
		uint32_t i, j;

		need_fields(r, n, 5, 5, "J");
		x = lookup(r, d, f[1], "node");
		/* move indices are 0-based */
		i = parse_index(r, f[2], "Left move index");
		j = parse_index(r, f[3], "Right move index");
		c = lookup(r, d, f[4], "option node");
		if (d->node[x].expanded)
			cg_die_at(r->name, r->line, "option of node %s after "
			    "its 'E' record", f[1]);
		if (c >= x)
			cg_die_at(r->name, r->line, "joint option %s of node %s "
			    "is not defined before it (children come before "
			    "parents)", f[4], f[1]);
		cg_doc_add_joint(d, x, i, j, c);
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
		cg_die_at(r->name, r->line, "unknown record type '%s'", f[0]);
	}
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

	/* find the magic line (or decide this is bare input) */
	do {
		if (!read_line(r))
			return NULL;   /* end of input: no more documents */
	} while (blank_or_comment(r->buf));
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
	check_magic(r);
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
			r->doc = NULL;
			return d;
		}
		read_record(r, d, &st, f, n);
	}
}
