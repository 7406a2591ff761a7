/* select.c - the entries of a knowledge base selected and counted by
 * their values (see select.h). */
#include <ctype.h>
#include <gmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/util.h"
#include "format/doc.h"
#include "kb/kbvalue.h"
#include "kb/select.h"
#include "values/canonprop.h"
#include "values/notation.h"
#include "values/rational.h"

/* How a kind's values compare. */
enum vtype { V_TEXT, V_GAME, V_NUMBER, V_BOOL };

static const char *const game_kinds[] = { "canon", "atomic", "rcf", NULL };
static const char *const number_kinds[] = { "birthday", "lstop", "rstop",
	"mean", "temp", "nimber", "misere-nimber", NULL };
static const char *const bool_kinds[] = { "number", "integer", "nus",
	"infinitesimal", "numberish", "switch", "uptimal", "zero", "allsmall",
	NULL };
/* kinds that come from a search only, never from a canonical form */
static const char *const search_kinds[] = { "misere", "misere-nimber",
	"genus", NULL };

/* A kind as expressions and output read it. */
struct col {
	char *name;
	enum vtype type;
	int stored;           /* the base's kind, or -1: from canon */
	uint32_t src;         /* the base's kind whose references index it */
	uint64_t nrefs;
	char **text;          /* computed values printed, by reference */
};

/* Outcomes of a comparison, as bits. */
enum { C_LT = 1, C_EQ = 2, C_GT = 4, C_CF = 8 };
#define C_NE (C_LT | C_GT | C_CF)

static const struct {
	const char *s;
	int mask;
} ops[] = {
	{ "==", C_EQ }, { "!=", C_NE }, { "<=", C_LT | C_EQ },
	{ ">=", C_GT | C_EQ }, { "<>", C_CF }, { "<|", C_LT | C_CF },
	{ "|>", C_GT | C_CF }, { "<", C_LT }, { ">", C_GT },
};
#define NOPS (sizeof ops / sizeof ops[0])

enum { E_OR, E_AND, E_NOT, E_ATOM };

struct enode {
	int op;
	uint32_t a, b;        /* operands */
	struct col *col;      /* E_ATOM: */
	int mask;             /* the outcomes that satisfy it; 0: alone */
	cg_game game;
	mpq_t q;
	int hasq;
	char *text;
	unsigned char *memo;  /* by reference: 0 unknown, 1 false, 2 true */
};

#define MAXCOLS 64
#define MAXNODES 4096
#define MAXDEPTH 256
#define NOPOS ((size_t)-1)

struct cg_kbsel {
	struct cg_kbfile *f;
	const struct cg_kb_meta *m;
	const char *expr;     /* NULL: every entry */
	size_t pos;
	int depth;
	struct enode *node;
	uint32_t nnode, cap, root;
	struct col *col[MAXCOLS];
	uint32_t ncol;
	int canon;            /* the base's canon kind, or -1 */
	struct cg_buf buf;
	char none[1];         /* a computed value that does not exist */
};

static int
listed(const char *const *list, const char *s)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

/* Does kind follow from a canonical form (cg_kbv_from_canon)? */
static int
computable(const char *kind)
{
	return strcmp(kind, "nimber") == 0 || cg_canon_property_known(kind);
}

static int
ident_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

/* A bad expression: exit 2 naming the column (at counts from 0). */
static void __attribute__((noreturn, format(printf, 3, 4)))
bad(struct cg_kbsel *s, size_t at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (at == NOPOS)
		cg_die(CG_EXIT_USAGE, "%s", msg);
	cg_die(CG_EXIT_USAGE, "expression '%s': column %zu: %s",
	    cg_quote_str(s->expr), at + 1, msg);
}

/* The token at p quoted for a message, or "the end". */
static const char *
token(const char *p)
{
	static char t[80];
	size_t n = 0;

	if (*p == '\0')
		return "the end";
	while (p[n] != '\0' && !isspace((unsigned char)p[n]) && n < 32)
		n++;
	snprintf(t, sizeof t, "'%s'", cg_quote(p, n));
	return t;
}

static struct cg_kbsel *
sel_new(struct cg_kbfile *f)
{
	struct cg_kbsel *s = cg_xcalloc(1, sizeof *s);

	s->f = f;
	s->m = cg_kbfile_meta(f);
	s->canon = cg_kb_meta_kind(s->m, "canon");
	cg_buf_init(&s->buf);
	return s;
}

/* The column of kind name (len bytes), made on first use; at is where
 * the expression names it (NOPOS: elsewhere). */
static struct col *
col_get(struct cg_kbsel *s, const char *name, size_t len, size_t at)
{
	struct col *c;
	uint32_t i;
	int k;

	for (i = 0; i < s->ncol; i++)
		if (strlen(s->col[i]->name) == len &&
		    memcmp(s->col[i]->name, name, len) == 0)
			return s->col[i];
	if (s->ncol == MAXCOLS)
		bad(s, at, "more than %d value kinds", MAXCOLS);
	c = cg_xcalloc(1, sizeof *c);
	c->name = cg_xstrndup(name, len);
	c->type = listed(game_kinds, c->name) ? V_GAME :
	    listed(number_kinds, c->name) ? V_NUMBER :
	    listed(bool_kinds, c->name) ? V_BOOL : V_TEXT;
	if ((k = cg_kb_meta_kind(s->m, c->name)) >= 0) {
		c->stored = k;
		c->src = (uint32_t)k;
	} else if (!computable(c->name) && !listed(search_kinds, c->name)) {
		bad(s, at, "unknown value kind '%s' (canon, outcome, nimber, "
		    "misere, misere-nimber, genus, or a cg-canon property)",
		    cg_quote_str(c->name));
	} else if (!computable(c->name) || s->canon < 0) {
		cg_die(CG_EXIT_DATA, "%s: base holds no '%s' values%s",
		    cg_kbfile_path(s->f), c->name, computable(c->name) &&
		    strcmp(c->name, "canon") != 0 ?
		    ", nor canonical forms to compute them from" : "");
	} else {
		c->stored = -1;
		c->src = (uint32_t)s->canon;
	}
	c->nrefs = cg_kbfile_nrefs(s->f, c->src);
	if (c->stored < 0)
		c->text = cg_xcalloc(c->nrefs + 1, sizeof *c->text);
	s->col[s->ncol++] = c;
	return c;
}

static const char *
stored_text(struct cg_kbsel *s, uint32_t k, uint64_t ref)
{
	const char *t = cg_kbfile_text(s->f, k, ref);

	if (t == NULL)
		cg_die(CG_EXIT_DATA, "%s: a value of kind '%s' does not print",
		    cg_kbfile_path(s->f), s->m->kinds[k]);
	return t;
}

/* The game of a stored value: from the games dictionary, or read from
 * its text; CG_NO_GAME for "-" (no atomic weight). */
static cg_game
stored_game(struct cg_kbsel *s, uint32_t k, uint64_t ref)
{
	const char *t;

	if (cg_kbfile_games(s->f, k))
		return cg_kbfile_game(s->f, k, ref);
	t = stored_text(s, k, ref);
	if (strcmp(t, "-") == 0)
		return CG_NO_GAME;
	return cg_canon_value(t, strlen(t), "knowledge base value");
}

/* The value of column c for reference ref as text, or NULL when the
 * entry has none. */
static const char *
col_text(struct cg_kbsel *s, struct col *c, uint64_t ref)
{
	cg_game g;

	if (c->stored >= 0)
		return stored_text(s, (uint32_t)c->stored, ref);
	if (c->text[ref] == NULL) {
		g = stored_game(s, c->src, ref);
		s->buf.len = 0;
		if (g == CG_NO_GAME || !cg_kbv_from_canon(c->name, g, &s->buf))
			c->text[ref] = s->none;
		else
			c->text[ref] = cg_xstrdup(cg_buf_str(&s->buf));
	}
	return c->text[ref] == s->none ? NULL : c->text[ref];
}

/* The value of a column of games as a game, or CG_NO_GAME. */
static cg_game
col_game(struct cg_kbsel *s, struct col *c, uint64_t ref)
{
	cg_game g;

	if (c->stored >= 0)
		return stored_game(s, (uint32_t)c->stored, ref);
	g = stored_game(s, c->src, ref);
	if (g == CG_NO_GAME || strcmp(c->name, "canon") == 0)
		return g;
	if (strcmp(c->name, "atomic") == 0)
		return cg_canon_atomic_weight(g);
	return cg_canon_rcf(g);
}

/* ------------------------------------------------------------ parsing */

static void
skip_space(struct cg_kbsel *s)
{
	while (isspace((unsigned char)s->expr[s->pos]))
		s->pos++;
}

/* Is the word w next?  Then step over it. */
static int
word(struct cg_kbsel *s, const char *w)
{
	size_t n = strlen(w);
	const char *p = s->expr + s->pos;

	if (strncmp(p, w, n) != 0 || ident_char(p[n]))
		return 0;
	s->pos += n;
	return 1;
}

static uint32_t
new_node(struct cg_kbsel *s, int op, uint32_t a, uint32_t b)
{
	struct enode *x;

	if (s->nnode == MAXNODES)
		bad(s, s->pos, "more than %d terms", MAXNODES);
	if (s->nnode == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->node = cg_xreallocarray(s->node, s->cap, sizeof *s->node);
	}
	x = &s->node[s->nnode];
	memset(x, 0, sizeof *x);
	x->op = op;
	x->a = a;
	x->b = b;
	return s->nnode++;
}

/* A value runs to a space outside brackets, an unmatched ')' or the
 * end, so that game literals keep their braces and parentheses. */
static size_t
value_len(const char *p)
{
	size_t i;
	int depth = 0;

	for (i = 0; p[i] != '\0'; i++) {
		if (p[i] == '(' || p[i] == '{' || p[i] == '[')
			depth++;
		else if (p[i] == ')' || p[i] == '}' || p[i] == ']') {
			if (depth == 0)
				break;
			depth--;
		} else if (depth == 0 && isspace((unsigned char)p[i]))
			break;
	}
	return i;
}

/* Read the value of comparison x (len bytes at column at) as its kind
 * compares: a game literal, a number, or text. */
static void
bind_value(struct cg_kbsel *s, struct enode *x, int op, size_t opat,
    size_t at, size_t len)
{
	const char *v = s->expr + at, *name = x->col->name;
	char msg[256];
	size_t col;

	x->mask = ops[op].mask;
	x->text = cg_xstrndup(v, len);
	switch (x->col->type) {
	case V_GAME:
		if (cg_canon_parse(v, len, &x->game, msg, sizeof msg, &col) < 0)
			bad(s, at + col - 1, "bad game '%s': %s",
			    cg_quote(v, len), msg);
		break;
	case V_NUMBER:
		if (x->mask == C_CF)
			bad(s, opat, "'%s' is a number, never confused with "
			    "another: '<>' compares games (not equal is '!=')",
			    name);
		mpq_init(x->q);
		x->hasq = 1;
		if (cg_q_parse(x->q, x->text) < 0)
			bad(s, at, "bad number '%s' for '%s' (an integer or a "
			    "fraction n/d)", cg_quote(v, len), name);
		break;
	default:
		if (x->mask != C_EQ && x->mask != C_NE)
			bad(s, opat, "'%s' compares as text, with == and != "
			    "only", name);
		if (x->col->type == V_BOOL && strcmp(x->text, "true") != 0 &&
		    strcmp(x->text, "false") != 0)
			bad(s, at, "'%s' is true or false, not '%s'", name,
			    cg_quote(v, len));
	}
}

/* KIND [OP VALUE] */
static uint32_t
parse_comparison(struct cg_kbsel *s)
{
	const char *p = s->expr;
	size_t at = s->pos, end = s->pos, opat, vat, n;
	uint32_t x;
	unsigned op;

	if (!(p[at] >= 'a' && p[at] <= 'z'))
		bad(s, at, "expected a value kind, 'not' or '(' at %s",
		    token(p + at));
	while (ident_char(p[end]))
		end++;
	if ((end - at == 3 && memcmp(p + at, "and", 3) == 0) ||
	    (end - at == 2 && memcmp(p + at, "or", 2) == 0))
		bad(s, at, "expected a value kind before '%.*s'",
		    (int)(end - at), p + at);
	x = new_node(s, E_ATOM, 0, 0);
	s->node[x].col = col_get(s, p + at, end - at, at);
	s->pos = end;
	skip_space(s);
	opat = s->pos;
	if (p[opat] == '\0' || strchr("=<>!|", p[opat]) == NULL)
		return x;
	for (op = 0; op < NOPS; op++)
		if (strncmp(p + opat, ops[op].s, strlen(ops[op].s)) == 0)
			break;
	n = op == NOPS ? 0 : strlen(ops[op].s);
	if (op == NOPS || (p[opat + n] != '\0' &&
	    strchr("=<>!|", p[opat + n]) != NULL)) {
		n = strspn(p + opat, "=<>!|");
		bad(s, opat, "bad operator '%.*s' (==, !=, <, >, <=, >=, <>, "
		    "<| or |>)", (int)n, p + opat);
	}
	s->pos += n;
	skip_space(s);
	vat = s->pos;
	if ((n = value_len(p + vat)) == 0)
		bad(s, vat, "expected a value after '%s' at %s", ops[op].s,
		    token(p + vat));
	bind_value(s, &s->node[x], (int)op, opat, vat, n);
	s->pos = vat + n;
	return x;
}

static uint32_t parse_or(struct cg_kbsel *);

static uint32_t
parse_unary(struct cg_kbsel *s)
{
	uint32_t a;
	size_t open;

	skip_space(s);
	if (++s->depth > MAXDEPTH)
		bad(s, s->pos, "nested more than %d deep", MAXDEPTH);
	if (word(s, "not")) {
		a = parse_unary(s);
		a = new_node(s, E_NOT, a, 0);
	} else if (s->expr[s->pos] == '(') {
		open = s->pos++;
		a = parse_or(s);
		skip_space(s);
		if (s->expr[s->pos] != ')')
			bad(s, s->pos, "expected 'and', 'or' or ')' closing "
			    "column %zu at %s", open + 1,
			    token(s->expr + s->pos));
		s->pos++;
	} else {
		a = parse_comparison(s);
	}
	s->depth--;
	return a;
}

static uint32_t
parse_and(struct cg_kbsel *s)
{
	uint32_t a = parse_unary(s), b;

	for (;;) {
		skip_space(s);
		if (!word(s, "and"))
			return a;
		b = parse_unary(s);
		a = new_node(s, E_AND, a, b);
	}
}

static uint32_t
parse_or(struct cg_kbsel *s)
{
	uint32_t a = parse_and(s), b;

	for (;;) {
		skip_space(s);
		if (!word(s, "or"))
			return a;
		b = parse_and(s);
		a = new_node(s, E_OR, a, b);
	}
}

struct cg_kbsel *
cg_kbsel_new(struct cg_kbfile *f, const char *expr)
{
	struct cg_kbsel *s = sel_new(f);
	uint32_t i;

	s->expr = expr;
	s->root = parse_or(s);
	skip_space(s);
	if (expr[s->pos] != '\0')
		bad(s, s->pos, expr[s->pos] == ')' ? "')' without '('" :
		    "expected 'and', 'or' or the end at %s",
		    token(expr + s->pos));
	for (i = 0; i < s->nnode; i++)
		if (s->node[i].op == E_ATOM)
			s->node[i].memo = cg_xcalloc(s->node[i].col->nrefs + 1,
			    1);
	return s;
}

void
cg_kbsel_free(struct cg_kbsel *s)
{
	uint64_t r;
	uint32_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nnode; i++) {
		if (s->node[i].hasq)
			mpq_clear(s->node[i].q);
		free(s->node[i].text);
		free(s->node[i].memo);
	}
	free(s->node);
	for (i = 0; i < s->ncol; i++) {
		for (r = 0; s->col[i]->text && r < s->col[i]->nrefs; r++)
			if (s->col[i]->text[r] != s->none)
				free(s->col[i]->text[r]);
		free(s->col[i]->text);
		free(s->col[i]->name);
		free(s->col[i]);
	}
	cg_buf_free(&s->buf);
	free(s);
}

/* --------------------------------------------------------- evaluating */

static int
outcome_bit(int cmp)
{
	return cmp == 0 ? C_EQ : cmp == 1 ? C_GT : cmp == -1 ? C_LT : C_CF;
}

/* Does the value of reference ref satisfy comparison x? */
static int
test(struct cg_kbsel *s, const struct enode *x, uint64_t ref)
{
	struct col *c = x->col;
	const char *t;
	cg_game g;
	mpq_t q;
	int r;

	if (c->type == V_GAME) {
		if ((g = col_game(s, c, ref)) == CG_NO_GAME)
			return 0;
		return x->mask == 0 ||
		    (x->mask & outcome_bit(cg_canon_compare(g, x->game))) != 0;
	}
	if ((t = col_text(s, c, ref)) == NULL)
		return 0;
	if (c->type == V_NUMBER) {
		mpq_init(q);
		r = cg_q_parse(q, t) == 0;
		if (r && x->mask != 0)
			r = (x->mask & outcome_bit(mpq_cmp(q, x->q) < 0 ? -1 :
			    mpq_cmp(q, x->q) > 0)) != 0;
		mpq_clear(q);
		return r;
	}
	if (x->mask == 0)
		return c->type != V_BOOL || strcmp(t, "true") == 0;
	return (x->mask & (strcmp(t, x->text) == 0 ? C_EQ : C_NE)) != 0;
}

static int
eval(struct cg_kbsel *s, uint32_t n, const struct cg_kbentry *e)
{
	struct enode *x = &s->node[n];
	uint64_t ref;

	switch (x->op) {
	case E_OR:
		return eval(s, x->a, e) || eval(s, x->b, e);
	case E_AND:
		return eval(s, x->a, e) && eval(s, x->b, e);
	case E_NOT:
		return !eval(s, x->a, e);
	}
	ref = e->ref[x->col->src];
	if (ref >= x->col->nrefs)
		return 0;
	if (x->memo[ref] == 0)
		x->memo[ref] = 1 + (unsigned char)test(s, x, ref);
	return x->memo[ref] - 1;
}

int
cg_kbsel_match(struct cg_kbsel *s, const struct cg_kbentry *e)
{
	return s->expr == NULL || eval(s, s->root, e);
}

/* ----------------------------------------------------------- selecting */

struct selout {
	struct cg_kbsel *s;
	struct col *show[CG_KB_MAXKINDS];
	uint32_t nshow;
	struct cg_plugin *rs;
	int tsv;
	uint64_t id;
	struct cg_buf key, text, line;
	FILE *out;
};

/* The printed position of entry e; the key of a base of slots is made
 * here, for the entries selected only. */
static const char *
position(struct selout *o, const struct cg_kbentry *e)
{
	const struct cg_kb_meta *m = o->s->m;
	const char *path = cg_kbfile_path(o->s->f);
	const unsigned char *key = e->key;
	size_t len = e->len;
	char err[1024], spec[512];

	if (o->rs == NULL) {
		o->rs = cg_plugin_get(cg_kb_meta_spec(m, spec, sizeof spec),
		    CG_EXIT_DATA);
		if (*m->index_family && cg_kbfile_bind(o->s->f, o->rs, err,
		    sizeof err) < 0)
			cg_die(CG_EXIT_DATA, "%s", err);
	}
	if (*m->index_family) {
		o->key.len = 0;
		if (cg_rs_unrank(o->rs, m->index_family, e->slot, &o->key) < 0)
			cg_die(CG_EXIT_DATA, "%s: slot %llu holds no position: "
			    "%s", path, (unsigned long long)e->slot,
			    cg_rs_errmsg(o->rs));
		key = o->key.data;
		len = o->key.len;
	}
	o->text.len = 0;
	if (cg_rs_print(o->rs, key, len, &o->text) < 0)
		cg_die(CG_EXIT_DATA, "%s: entry %llu: %s", path,
		    (unsigned long long)o->id, cg_rs_errmsg(o->rs));
	return cg_buf_str(&o->text);
}

static int
select_entry(void *ctx, const struct cg_kbentry *e)
{
	struct selout *o = ctx;
	struct cg_buf *b = &o->line;
	const char *t;
	uint64_t ref;
	uint32_t k;

	if (!cg_kbsel_match(o->s, e))
		return 0;
	o->id++;
	b->len = 0;
	if (!o->tsv)
		cg_buf_addf(b, "N\t%llu\t", (unsigned long long)o->id);
	cg_escape(b, position(o, e));
	if (!o->tsv)
		cg_buf_addc(b, '\n');
	for (k = 0; k < o->nshow; k++) {
		ref = e->ref[o->show[k]->src];
		t = ref < o->show[k]->nrefs ? col_text(o->s, o->show[k], ref) :
		    NULL;
		if (o->tsv) {
			cg_buf_addc(b, '\t');
			cg_escape(b, t ? t : "");
		} else if (t != NULL) {
			cg_buf_addf(b, "A\t%llu\t%s\t",
			    (unsigned long long)o->id, o->show[k]->name);
			cg_escape(b, t);
			cg_buf_addc(b, '\n');
		}
	}
	if (o->tsv)
		cg_buf_addc(b, '\n');
	fwrite(b->data, 1, b->len, o->out);
	cg_check_write(o->out, "standard output");
	return 0;
}

/* The columns shown: kinds, or every kind the base stores. */
static void
show_kinds(struct selout *o, const char *kinds)
{
	struct cg_kb_meta tmp;
	const struct cg_kb_meta *m = kinds ? &tmp : o->s->m;
	uint32_t k;

	cg_kb_meta_init(&tmp);
	if (kinds != NULL && cg_kb_meta_set_kinds(&tmp, kinds) < 0)
		cg_die(CG_EXIT_USAGE, "bad value kinds '%s'",
		    cg_quote_str(kinds));
	for (k = 0; k < m->nkinds; k++)
		o->show[o->nshow++] = col_get(o->s, m->kinds[k],
		    strlen(m->kinds[k]), NOPOS);
	cg_kb_meta_free(&tmp);
}

void
cg_kb_select(struct cg_kbfile *f, const char *expr, const char *kinds,
    int tsv, FILE *out)
{
	struct selout o;
	const struct cg_kb_meta *m;
	char err[1024], spec[512];
	const char *p;
	uint64_t i;

	memset(&o, 0, sizeof o);
	o.s = expr ? cg_kbsel_new(f, expr) : sel_new(f);
	o.tsv = tsv;
	o.out = out;
	m = o.s->m;
	show_kinds(&o, kinds);
	cg_buf_init(&o.key);
	cg_buf_init(&o.text);
	cg_buf_init(&o.line);
	if (!tsv) {
		fputs("cgt\t1\n# selected by '", out);
		for (p = expr ? expr : ""; *p; p++)
			fputc(iscntrl((unsigned char)*p) ? ' ' : *p, out);
		fprintf(out, "' from a knowledge base of %llu entries",
		    (unsigned long long)m->count);
		if (*m->family)
			fprintf(out, ", family %s", m->family);
		fprintf(out, "\nruleset\t%s\n",
		    cg_kb_meta_spec(m, spec, sizeof spec));
	}
	if (cg_kbfile_each(f, 0, select_entry, &o, err, sizeof err) != 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	for (i = 1; !tsv && i <= o.id; i++)
		fprintf(out, "root\t%llu\n", (unsigned long long)i);
	if (!tsv)
		fputs("end\n", out);
	cg_check_write(out, "standard output");
	cg_buf_free(&o.key);
	cg_buf_free(&o.text);
	cg_buf_free(&o.line);
	cg_kbsel_free(o.s);
}

/* ------------------------------------------------------------ counting */

struct counter {
	struct cg_kbsel *s;
	struct col *c;
	uint64_t *n;          /* by reference; n[nrefs]: no value */
	uint64_t total;
};

static int
count_entry(void *ctx, const struct cg_kbentry *e)
{
	struct counter *c = ctx;
	uint64_t ref = e->ref[c->c->src];

	if (!cg_kbsel_match(c->s, e))
		return 0;
	c->n[ref < c->c->nrefs ? ref : c->c->nrefs]++;
	c->total++;
	return 0;
}

struct tally {
	const char *text;
	uint64_t n;
	int isnum;
	mpq_t q;
};

static int
by_text(const void *a, const void *b)
{
	return strcmp(((const struct tally *)a)->text,
	    ((const struct tally *)b)->text);
}

/* Most first, then numbers by size before other values as text. */
static int
by_count(const void *a, const void *b)
{
	const struct tally *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	if (x->isnum && y->isnum)
		return mpq_cmp(x->q, y->q) < 0 ? -1 : mpq_cmp(x->q, y->q) > 0;
	if (x->isnum != y->isnum)
		return x->isnum ? -1 : 1;
	return strcmp(x->text, y->text);
}

void
cg_kb_count(struct cg_kbfile *f, const char *kind, const char *expr,
    FILE *out)
{
	struct counter c;
	struct tally *t;
	struct cg_buf line;
	char err[1024];
	const char *v;
	uint64_t r, nt = 0, i, j;

	memset(&c, 0, sizeof c);
	c.s = expr ? cg_kbsel_new(f, expr) : sel_new(f);
	for (v = kind; *v && ident_char(*v); v++)
		;
	if (*kind == '\0' || *v != '\0')
		cg_die(CG_EXIT_USAGE, "bad value kind '%s'",
		    cg_quote_str(kind));
	c.c = col_get(c.s, kind, strlen(kind), NOPOS);
	c.n = cg_xcalloc(c.c->nrefs + 1, sizeof *c.n);
	if (cg_kbfile_each(f, 0, count_entry, &c, err, sizeof err) != 0)
		cg_die(CG_EXIT_DATA, "%s", err);
	/* values of several references can print alike (properties) */
	t = cg_xcalloc(c.c->nrefs + 1, sizeof *t);
	for (r = 0; r <= c.c->nrefs; r++) {
		if (c.n[r] == 0)
			continue;
		v = r < c.c->nrefs ? col_text(c.s, c.c, r) : NULL;
		t[nt].text = v ? v : "-";
		t[nt++].n = c.n[r];
	}
	qsort(t, nt, sizeof *t, by_text);
	for (i = 0, j = 0; i < nt; i++) {
		if (j > 0 && strcmp(t[j - 1].text, t[i].text) == 0) {
			t[j - 1].n += t[i].n;
			continue;
		}
		t[j] = t[i];
		mpq_init(t[j].q);
		t[j].isnum = c.c->type == V_NUMBER &&
		    cg_q_parse(t[j].q, t[j].text) == 0;
		j++;
	}
	qsort(t, j, sizeof *t, by_count);
	cg_buf_init(&line);
	for (i = 0; i < j; i++) {
		line.len = 0;
		cg_buf_addf(&line, "%llu\t", (unsigned long long)t[i].n);
		cg_escape(&line, t[i].text);
		cg_buf_addc(&line, '\n');
		fwrite(line.data, 1, line.len, out);
		cg_check_write(out, "standard output");
		mpq_clear(t[i].q);
	}
	fprintf(out, "total\t%llu\n", (unsigned long long)c.total);
	cg_check_write(out, "standard output");
	cg_buf_free(&line);
	free(t);
	free(c.n);
	cg_kbsel_free(c.s);
}
