/*
 * read.c - read a rules file (cgr(5)) into struct rules.
 *
 * One directive a line, words separated by blanks, ';' to the end of the
 * line a comment.  Everything is checked here, once: an unknown word, a
 * character not in the alphabet, a pattern that cannot match, a rewrite
 * whose shape differs from its pattern, a symmetry the rules do not have,
 * a measure that some move does not decrease.  Each is an error naming
 * the line; nothing is left for play to discover except what measure.c
 * cannot prove (then play checks the measure move by move).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "bytes.h"

const int dir_dr[D_COUNT] = { -1, 0, 1, 0, -1, 1, 1, -1 };
const int dir_dc[D_COUNT] = { 0, 1, 0, -1, 1, 1, -1, -1 };
const char *const dir_name[D_COUNT] = { "n", "e", "s", "w", "ne", "se",
	"sw", "nw" };

#define MAX_TOKENS 128

/* Characters with a meaning in rules files or position texts, never
 * cells: blanks, comments, pattern syntax, row and heap separators. */
static const char reserved[] = ";|[]()*+=_->,:{}'\"\\";
/* and in graph notation */
static const char reserved_graph[] = "0";

struct reader {
	const struct cg_host *h;
	struct cg_error *err;
	struct rules *r;
	unsigned long line;
	char *tok[MAX_TOKENS];
	int ntok;
	const char *rest;      /* the line after the first word (summary) */
	char buf[4096];        /* the tokens of the line, NUL-separated */
	char raw[4096];
	int have_board, have_cells, have_measure, have_summary, have_version;
	int have_components, have_symmetry, have_order, have_family;
	char summary[256];
	char version[64];
};

int
rules_error(const struct cg_host *h, struct cg_error *err, unsigned long line,
    const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (h->struct_size >= offsetof(struct cg_host, error_at) +
	    sizeof h->error_at && h->error_at != NULL)
		return h->error_at(err, line, 0, "%s", msg);
	if (line > 0)
		return h->error(err, 0, "line %lu: %s", line, msg);
	return h->error(err, 0, "%s", msg);
}

#define ERR(rd, ...) rules_error((rd)->h, (rd)->err, (rd)->line, __VA_ARGS__)

/* ------------------------------------------------------------ tokens */

/* Split one line into words; "->" is always a word of its own.  The
 * rest of the line after the first word is kept for 'summary'. */
static int
tokenize(struct reader *rd, const char *s, size_t n)
{
	size_t i = 0, o = 0, start;
	int first = 1;

	rd->ntok = 0;
	rd->rest = "";
	if (n >= sizeof rd->raw)
		return ERR(rd, "line too long (at most %zu bytes)",
		    sizeof rd->raw - 1);
	memcpy(rd->raw, s, n);
	rd->raw[n] = '\0';
	for (i = 0; i < n; i++)
		if (rd->raw[i] == ';') {
			rd->raw[i] = '\0';
			n = i;
			break;
		}
	i = 0;
	for (;;) {
		while (i < n && (rd->raw[i] == ' ' || rd->raw[i] == '\t' ||
		    rd->raw[i] == '\r'))
			i++;
		if (!first && rd->ntok == 1)
			rd->rest = rd->raw + i;
		if (i == n)
			break;
		first = 0;
		start = i;
		while (i < n && rd->raw[i] != ' ' && rd->raw[i] != '\t' &&
		    rd->raw[i] != '\r') {
			if ((unsigned char)rd->raw[i] < ' ' ||
			    (unsigned char)rd->raw[i] >= 127)
				return ERR(rd, "bad character '\\x%02x' (rules "
				    "files are printable ASCII)",
				    (unsigned char)rd->raw[i]);
			/* "->" ends the word before it and is a word */
			if (rd->raw[i] == '-' && i + 1 < n &&
			    rd->raw[i + 1] == '>') {
				if (i == start)
					i += 2;
				break;
			}
			i++;
		}
		if (rd->ntok == MAX_TOKENS)
			return ERR(rd, "too many words on one line (at most "
			    "%d)", MAX_TOKENS);
		rd->tok[rd->ntok++] = rd->buf + o;
		memcpy(rd->buf + o, rd->raw + start, i - start);
		o += i - start;
		rd->buf[o++] = '\0';
	}
	/* rest: the raw text after the first word, blanks trimmed */
	if (rd->ntok > 0) {
		const char *p = strstr(rd->raw, rd->tok[0]);

		p = p ? p + strlen(rd->tok[0]) : rd->raw + n;
		while (*p == ' ' || *p == '\t')
			p++;
		rd->rest = p;
	}
	return CG_OK;
}

static int
is_cell(const struct rules *r, int c)
{
	return c > 0 && strchr(r->cells, c) != NULL;
}

/* Parse "1,3,5" or "1-4,9" (numbers from lo to hi) into a sorted set
 * without duplicates; *out is allocated. */
static int
parse_numbers(struct reader *rd, const char *s, uint32_t lo, uint32_t hi,
    uint32_t **out, size_t *n, const char *what)
{
	size_t len = strlen(s), i = 0, m, k;
	uint32_t a, b, v, *set;

	set = rd->h->alloc(MAX_SET * sizeof *set);
	if (set == NULL)
		return CG_ENOMEM;
	m = 0;
	for (;;) {
		if (i == len || !is_digit(s[i]) || read_uint(s, len, &i, hi,
		    &a) < 0 || a < lo) {
			rd->h->free(set);
			return ERR(rd, "bad %s '%s' (numbers %u..%u separated "
			    "by ',', or ranges such as 1-3)", what, s, lo, hi);
		}
		b = a;
		if (i < len && s[i] == '-') {
			i++;
			if (i == len || !is_digit(s[i]) || read_uint(s, len, &i,
			    hi, &b) < 0 || b < a) {
				rd->h->free(set);
				return ERR(rd, "bad range in %s '%s'", what, s);
			}
		}
		for (v = a; ; v++) {
			if (m == MAX_SET) {
				rd->h->free(set);
				return ERR(rd, "too many numbers in %s '%s' (at "
				    "most %d)", what, s, MAX_SET);
			}
			set[m++] = v;
			if (v == b)
				break;
		}
		if (i == len)
			break;
		if (s[i] != ',') {
			rd->h->free(set);
			return ERR(rd, "bad %s '%s': expected ',' after a "
			    "number", what, s);
		}
		i++;
	}
	/* sort (insertion: sets are small) and drop duplicates */
	for (k = 1; k < m; k++) {
		v = set[k];
		for (a = (uint32_t)k; a > 0 && set[a - 1] > v; a--)
			set[a] = set[a - 1];
		set[a] = v;
	}
	for (k = 0, a = 0; k < m; k++)
		if (a == 0 || set[a - 1] != set[k])
			set[a++] = set[k];
	*out = set;
	*n = a;
	return CG_OK;
}

/* -------------------------------------------------------- directives */

static int
need_board(struct reader *rd, const char *what)
{
	if (!rd->have_board)
		return ERR(rd, "'%s' before 'board' (say first what the board "
		    "is: board grid, strip, graph or heaps)", what);
	if (rd->r->kind != BOARD_HEAPS && !rd->have_cells &&
	    strcmp(what, "cells") != 0)
		return ERR(rd, "'%s' before 'cells' (list the characters of "
		    "the cells first)", what);
	return CG_OK;
}

static int
args(struct reader *rd, int lo, int hi)
{
	int n = rd->ntok - 1;

	if (n < lo)
		return ERR(rd, "'%s' needs %s", rd->tok[0],
		    lo == 1 ? "a value" : "more values");
	if (n > hi)
		return ERR(rd, "unexpected '%s' after '%s'", rd->tok[hi + 1],
		    rd->tok[0]);
	return CG_OK;
}

static int
do_board(struct reader *rd)
{
	static const char *const kinds[] = { "grid", "strip", "graph",
		"heaps" };
	int k, rc;

	if (rd->have_board)
		return ERR(rd, "'board' given twice");
	if ((rc = args(rd, 1, 1)) < 0)
		return rc;
	for (k = 0; k < 4; k++)
		if (strcmp(rd->tok[1], kinds[k]) == 0) {
			rd->r->kind = BOARD_GRID + k;
			rd->have_board = 1;
			return CG_OK;
		}
	return ERR(rd, "unknown board '%s' (grid, strip, graph or heaps)",
	    rd->tok[1]);
}

static int
do_cells(struct reader *rd)
{
	struct rules *r = rd->r;
	size_t n = 0;
	int t, rc;
	const char *p;

	if ((rc = need_board(rd, "cells")) < 0)
		return rc;
	if (r->kind == BOARD_HEAPS)
		return ERR(rd, "heaps have no cells");
	if (rd->have_cells)
		return ERR(rd, "'cells' given twice");
	if ((rc = args(rd, 1, MAX_TOKENS)) < 0)
		return rc;
	for (t = 1; t < rd->ntok; t++)
		for (p = rd->tok[t]; *p; p++) {
			if (strchr(reserved, *p) != NULL ||
			    (r->kind == BOARD_GRAPH &&
			    strchr(reserved_graph, *p) != NULL))
				return ERR(rd, "'%c' cannot be a cell: it has "
				    "a meaning of its own", *p);
			if (strchr(r->cells, *p) != NULL)
				return ERR(rd, "cell '%c' listed twice", *p);
			if (n == MAX_CELLS)
				return ERR(rd, "too many cells (at most %d)",
				    MAX_CELLS);
			r->cells[n++] = *p;
			r->cells[n] = '\0';
			r->alias[(unsigned char)*p] = (unsigned char)*p;
		}
	rd->have_cells = 1;
	return CG_OK;
}

static int
do_alias(struct reader *rd)
{
	struct rules *r = rd->r;
	int t, rc;

	if ((rc = need_board(rd, "alias")) < 0)
		return rc;
	if (r->kind == BOARD_HEAPS || r->kind == BOARD_GRAPH)
		return ERR(rd, "'alias' is for grids and strips");
	if ((rc = args(rd, 2, MAX_TOKENS)) < 0)
		return rc;
	if ((rd->ntok - 1) % 2 != 0)
		return ERR(rd, "'alias' takes pairs: a character read, the "
		    "cell it stands for");
	for (t = 1; t < rd->ntok; t += 2) {
		const char *a = rd->tok[t], *b = rd->tok[t + 1];

		if (strlen(a) != 1 || strlen(b) != 1)
			return ERR(rd, "'alias' takes single characters, not "
			    "'%s'", strlen(a) != 1 ? a : b);
		if (!is_cell(r, b[0]))
			return ERR(rd, "'%c' is not a cell", b[0]);
		if (strchr(reserved, a[0]) != NULL)
			return ERR(rd, "'%c' cannot be read as a cell", a[0]);
		if (r->alias[(unsigned char)a[0]] != 0)
			return ERR(rd, "'%c' already reads as '%c'", a[0],
			    r->alias[(unsigned char)a[0]]);
		r->alias[(unsigned char)a[0]] = (unsigned char)b[0];
	}
	return CG_OK;
}

static int
find_param(const struct rules *r, const char *name)
{
	int i;

	for (i = 0; i < r->nparam; i++)
		if (strcmp(r->param[i].name, name) == 0)
			return i;
	return -1;
}

static int
do_param(struct reader *rd)
{
	static const char *const types[] = { "set", "number", "code" };
	struct rules *r = rd->r;
	struct param *p;
	const char *s;
	int t, rc;

	if ((rc = need_board(rd, "param")) < 0)
		return rc;
	if (r->kind != BOARD_HEAPS)
		return ERR(rd, "parameters are for heap games (they give the "
		    "amounts a move takes)");
	if ((rc = args(rd, 2, 4)) < 0)
		return rc;
	if (r->nparam == MAX_PARAMS)
		return ERR(rd, "too many parameters (at most %d)", MAX_PARAMS);
	s = rd->tok[1];
	if (!(s[0] >= 'a' && s[0] <= 'z') || strlen(s) >= sizeof p->name)
		return ERR(rd, "bad parameter name '%s' (a lower-case word)",
		    s);
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || is_digit(*s) || *s == '-'))
			return ERR(rd, "bad parameter name '%s'", rd->tok[1]);
	if (find_param(r, rd->tok[1]) >= 0 || strcmp(rd->tok[1], "any") == 0)
		return ERR(rd, "parameter '%s' declared twice or reserved",
		    rd->tok[1]);
	p = &r->param[r->nparam];
	memset(p, 0, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", rd->tok[1]);
	p->line = rd->line;
	p->dflt = -1;
	p->type = -1;
	for (t = 0; t < 3; t++)
		if (strcmp(rd->tok[2], types[t]) == 0)
			p->type = t;
	if (p->type < 0)
		return ERR(rd, "unknown parameter type '%s' (set, number or "
		    "code)", rd->tok[2]);
	if (rd->ntok == 4 || (rd->ntok == 5 && strcmp(rd->tok[3],
	    "default") != 0))
		return ERR(rd, "expected 'default VALUE' after the type");
	if (rd->ntok == 5) {
		int d = find_param(r, rd->tok[4]);

		if (d >= 0) {
			if (r->param[d].type != p->type)
				return ERR(rd, "'%s' defaults to '%s' of "
				    "another type", p->name, rd->tok[4]);
			p->dflt = d;
		} else {
			p->dflt_text = rd->h->alloc(strlen(rd->tok[4]) + 1);
			if (p->dflt_text == NULL)
				return CG_ENOMEM;
			strcpy(p->dflt_text, rd->tok[4]);
		}
	}
	r->nparam++;
	return CG_OK;
}

int
rules_next_term(const struct cg_host *h, struct cg_error *err,
    unsigned long line, const char *what, const char *text, size_t *i,
    int first, long *coef, char *word, size_t cap)
{
	size_t k = *i, w = 0;
	uint32_t v = 1;
	int sign = 1;

	while (text[k] == ' ')
		k++;
	if (text[k] == '\0') {
		*i = k;
		return 0;
	}
	if (text[k] == '+' || text[k] == '-') {
		if (first && text[k] == '+')
			return rules_error(h, err, line, "%s: a term, not '+', "
			    "comes first", what);
		sign = text[k] == '-' ? -1 : 1;
		for (k++; text[k] == ' '; k++)
			;
	} else if (!first) {
		return rules_error(h, err, line, "%s: expected '+' or '-' "
		    "between terms", what);
	}
	if (is_digit(text[k]) && (read_uint(text, strlen(text), &k, 1000,
	    &v) < 0 || v == 0 || text[k++] != '*'))
		return rules_error(h, err, line, "%s: a coefficient is a "
		    "number 1..1000 followed by '*'", what);
	while (text[k] != '\0' && text[k] != ' ' && text[k] != '+' &&
	    text[k] != '-' && w + 1 < cap)
		word[w++] = text[k++];
	word[w] = '\0';
	if (w == 0)
		return rules_error(h, err, line, "%s: missing term", what);
	*coef = sign * (long)v;
	*i = k;
	return 1;
}

/* loopy: in place of a measure, the moves may come back to a position
 * (grids and strips: a heap or graph game is taken apart by its
 * measure's proofs and its components' values, which need an end). */
static int
do_loopy(struct reader *rd)
{
	int rc;

	if ((rc = need_board(rd, "loopy")) < 0)
		return rc;
	if (rd->have_measure)
		return ERR(rd, rd->r->loopy ? "'loopy' given twice" :
		    "'measure' and 'loopy' both given (a loopy game has no "
		    "measure)");
	if (rd->r->kind != BOARD_GRID && rd->r->kind != BOARD_STRIP)
		return ERR(rd, "'loopy' is for grid and strip boards");
	if ((rc = args(rd, 0, 0)) < 0)
		return rc;
	rd->have_measure = 1;
	rd->r->loopy = rd->line;
	return CG_OK;
}

/* measure TERM [+|- TERM]... */
static int
do_measure(struct reader *rd)
{
	struct rules *r = rd->r;
	char text[1024], word[128];
	size_t n = 0, i, w;
	int t, rc, sign, d;
	long coef;
	struct term *tm;
	char *colon;

	if ((rc = need_board(rd, "measure")) < 0)
		return rc;
	if (rd->have_measure)
		return ERR(rd, rd->r->loopy ? "'measure' and 'loopy' both "
		    "given (a loopy game has no measure)" :
		    "'measure' given twice");
	if ((rc = args(rd, 1, MAX_TOKENS)) < 0)
		return rc;
	for (t = 1; t < rd->ntok && n + strlen(rd->tok[t]) + 2 < sizeof text;
	    t++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s ",
		    rd->tok[t]);
	i = 0;
	while ((rc = rules_next_term(rd->h, rd->err, rd->line, "measure",
	    text, &i, r->nterm == 0, &coef, word, sizeof word)) > 0) {
		sign = coef < 0 ? -1 : 1;
		if (r->nterm == MAX_TERMS)
			return ERR(rd, "measure: too many terms (at most %d)",
			    MAX_TERMS);
		tm = &r->term[r->nterm++];
		memset(tm, 0, sizeof *tm);
		tm->coef = coef;
		tm->dir = -1;
		if (r->kind == BOARD_HEAPS) {
			if (strcmp(word, "counters") == 0)
				tm->what = 0;
			else if (strcmp(word, "heaps") == 0)
				tm->what = 1;
			else
				return ERR(rd, "measure: unknown term '%s' (a "
				    "heap game counts 'counters' and 'heaps')",
				    word);
			continue;
		}
		if (sign < 0)
			return ERR(rd, "measure: terms of a %s are added, "
			    "never subtracted", r->kind == BOARD_GRAPH ?
			    "graph" : "board");
		colon = strchr(word, ':');
		if (colon != NULL) {
			*colon = '\0';
			for (d = 0; d < 4; d++)
				if (strcmp(colon + 1, dir_name[d]) == 0)
					tm->dir = d;
			if (tm->dir < 0 || r->kind == BOARD_GRAPH ||
			    (r->kind == BOARD_STRIP && tm->dir != D_E &&
			    tm->dir != D_W))
				return ERR(rd, "measure: bad direction '%s' "
				    "(%s)", colon + 1, r->kind == BOARD_GRAPH ?
				    "graphs have none" : r->kind ==
				    BOARD_STRIP ? "e or w" : "n, e, s or w");
		}
		if (word[0] == '\0')
			return ERR(rd, "measure: which cells does '%s' count?",
			    colon ? colon + 1 : word);
		for (w = 0; word[w]; w++) {
			if (!is_cell(r, word[w]))
				return ERR(rd, "measure: '%c' is not a cell",
				    word[w]);
			cs_add(&tm->set, (unsigned char)word[w]);
		}
	}
	if (rc < 0)
		return rc;
	if (r->nterm == 0)
		return ERR(rd, "measure: no terms");
	rd->have_measure = 1;
	r->measure_line = rd->line;
	return CG_OK;
}

static int
do_components(struct reader *rd)
{
	struct rules *r = rd->r;
	int rc;

	if ((rc = need_board(rd, "components")) < 0)
		return rc;
	if (r->kind != BOARD_GRID && r->kind != BOARD_STRIP)
		return ERR(rd, "'components' is for grids and strips (graphs "
		    "and heaps split by themselves)");
	if (rd->have_components)
		return ERR(rd, "'components' given twice");
	if ((rc = args(rd, 1, 1)) < 0)
		return rc;
	rd->have_components = 1;
	if (strcmp(rd->tok[1], "frozen") == 0) {
		if (r->kind != BOARD_STRIP)
			return ERR(rd, "'components frozen' is for strips");
		r->frozen = 1;
		return CG_OK;
	}
	if (strlen(rd->tok[1]) != 1 || !is_cell(r, rd->tok[1][0]))
		return ERR(rd, "'components' names the one cell that "
		    "separates them, or 'frozen', not '%s'", rd->tok[1]);
	r->wall = (unsigned char)rd->tok[1][0];
	return CG_OK;
}

static int
do_symmetry(struct reader *rd)
{
	static const char *const names[] = { "none", "mirror", "flips",
		"all" };
	static const unsigned nsym[] = { 1, 2, 4, 8 };
	struct rules *r = rd->r;
	int k, rc;

	if ((rc = need_board(rd, "symmetry")) < 0)
		return rc;
	if (r->kind != BOARD_GRID && r->kind != BOARD_STRIP)
		return ERR(rd, "'symmetry' is for grids and strips (graphs "
		    "and heaps are compared up to relabelling anyway)");
	if (rd->have_symmetry)
		return ERR(rd, "'symmetry' given twice");
	if ((rc = args(rd, 1, 1)) < 0)
		return rc;
	for (k = 0; k < 4; k++)
		if (strcmp(rd->tok[1], names[k]) == 0) {
			if (r->kind == BOARD_STRIP && k > 1)
				return ERR(rd, "a strip's symmetry is 'none' "
				    "or 'mirror'");
			r->nsym = nsym[k];
			rd->have_symmetry = 1;
			return CG_OK;
		}
	return ERR(rd, "unknown symmetry '%s' (none, mirror, flips or all)",
	    rd->tok[1]);
}

static int
do_order(struct reader *rd)
{
	int rc;

	if (rd->have_order)
		return ERR(rd, "'order' given twice");
	if ((rc = args(rd, 1, 1)) < 0)
		return rc;
	if (strcmp(rd->tok[1], "cells") == 0)
		rd->r->order_rules = 0;
	else if (strcmp(rd->tok[1], "rules") == 0)
		rd->r->order_rules = 1;
	else
		return ERR(rd, "unknown order '%s' (cells or rules)",
		    rd->tok[1]);
	rd->have_order = 1;
	return CG_OK;
}

static int
do_family(struct reader *rd)
{
	struct rules *r = rd->r;
	const char *p;
	int t, rc;

	if ((rc = need_board(rd, "family")) < 0)
		return rc;
	if (r->kind == BOARD_GRAPH)
		return ERR(rd, "graphs have no families to enumerate");
	if (rd->have_family)
		return ERR(rd, "'family' given twice");
	if (r->kind == BOARD_HEAPS && rd->ntok > 1)
		return ERR(rd, "a heap family is the heaps 1..N: 'family' "
		    "takes no cells");
	for (t = 1; t < rd->ntok; t++)
		for (p = rd->tok[t]; *p; p++) {
			if (!is_cell(r, *p))
				return ERR(rd, "'%c' is not a cell", *p);
			cs_add(&r->family_cells, (unsigned char)*p);
		}
	if (rd->ntok == 1 && r->kind != BOARD_HEAPS)
		for (p = r->cells; *p; p++)
			cs_add(&r->family_cells, (unsigned char)*p);
	r->family = 1;
	rd->have_family = 1;
	return CG_OK;
}

/* ----------------------------------------------------------- patterns */

/* Parse a line pattern (or, rewrite = 1, its rewrite) into elements and
 * groups; shape gets one 'a' per element and the group marks, so that a
 * pattern and its rewrite can be compared. */
static int
parse_line(struct reader *rd, const char *s, int rewrite, struct elem *e,
    int *ne, struct group *g, int *ng, int *gof, char *shape, size_t shcap)
{
	const struct rules *r = rd->r;
	const char *what = rewrite ? "rewrite" : "pattern";
	size_t sh = 0;
	int ingroup = -1, i;

	*ne = *ng = 0;
	for (i = 0; s[i] != '\0'; i++) {
		int c = (unsigned char)s[i];
		struct elem *x;

		if (sh + 3 >= shcap)
			return ERR(rd, "%s too long", what);
		if (c == '(') {
			if (ingroup >= 0)
				return ERR(rd, "%s '%s': groups cannot nest",
				    what, s);
			ingroup = *ng;
			g[*ng].first = *ne;
			g[*ng].count = 0;
			shape[sh++] = '(';
			continue;
		}
		if (c == ')') {
			if (ingroup < 0)
				return ERR(rd, "%s '%s': ')' without '('", what,
				    s);
			g[ingroup].count = *ne - g[ingroup].first;
			if (g[ingroup].count == 0)
				return ERR(rd, "%s '%s': empty group", what, s);
			if (s[i + 1] != '*' && s[i + 1] != '+')
				return ERR(rd, "%s '%s': a group is followed "
				    "by '*' (any number of times) or '+' (one "
				    "or more)", what, s);
			g[ingroup].min = s[i + 1] == '+';
			shape[sh++] = ')';
			shape[sh++] = s[++i];
			(*ng)++;
			ingroup = -1;
			continue;
		}
		if (c == '*' || c == '+') {
			if (*ne == 0 || (i > 0 && (s[i - 1] == '*' ||
			    s[i - 1] == '+' || s[i - 1] == ')')))
				return ERR(rd, "%s '%s': '%c' follows nothing "
				    "it can repeat", what, s, c);
			if (ingroup >= 0)
				return ERR(rd, "%s '%s': repetitions cannot "
				    "nest", what, s);
			g[*ng].first = *ne - 1;
			g[*ng].count = 1;
			g[*ng].min = c == '+';
			gof[*ne - 1] = *ng;
			(*ng)++;
			shape[sh++] = (char)c;
			continue;
		}
		if (*ne == MAX_ELEMS)
			return ERR(rd, "%s too long (at most %d elements)",
			    what, MAX_ELEMS);
		x = &e[*ne];
		memset(x, 0, sizeof *x);
		x->write = -1;
		gof[*ne] = ingroup;
		if (c == '[') {
			int j = i + 1;

			if (rewrite)
				return ERR(rd, "rewrite '%s': a class [...] "
				    "belongs in the pattern; write '=' to "
				    "keep a cell", s);
			for (; s[j] != '\0' && s[j] != ']'; j++) {
				if (s[j] == '|')
					x->edge = 1;
				else if (!is_cell(r, s[j]))
					return ERR(rd, "pattern '%s': '%c' is "
					    "not a cell", s, s[j]);
				else
					cs_add(&x->match,
					    (unsigned char)s[j]);
			}
			if (s[j] != ']')
				return ERR(rd, "pattern '%s': '[' without ']'",
				    s);
			if (j == i + 1)
				return ERR(rd, "pattern '%s': the empty class "
				    "[] matches nothing", s);
			i = j;
		} else if (c == '|') {
			x->edge = 1;
		} else if (c == '=' && rewrite) {
			x->write = -1;
		} else if (is_cell(r, c)) {
			if (rewrite)
				x->write = c;
			else
				cs_add(&x->match, (unsigned char)c);
		} else {
			return ERR(rd, "%s '%s': '%c' is not a cell", what, s,
			    c);
		}
		shape[sh++] = c == '|' ? '|' : 'a';
		(*ne)++;
	}
	if (ingroup >= 0)
		return ERR(rd, "%s '%s': '(' without ')'", what, s);
	shape[sh] = '\0';
	return CG_OK;
}

static int
edge_only(const struct elem *x)
{
	return x->edge && !x->match.bits[0] && !x->match.bits[1] &&
	    !x->match.bits[2] && !x->match.bits[3];
}

/* Fill ru->first, the cells a match may start on, and ru->lead, whether
 * it may start on the edge; return the fewest cells a match covers. */
static int
pattern_start(struct rule *ru)
{
	int i = 0, least = 0, k, g;

	memset(&ru->first, 0, sizeof ru->first);
	ru->lead = 0;
	while (i < ru->ne) {
		for (k = 0; k < 4; k++)
			ru->first.bits[k] |= ru->e[i].match.bits[k];
		g = ru->gof[i];
		if (g >= 0 && i == ru->g[g].first && ru->g[g].min == 0) {
			i += ru->g[g].count;  /* may be skipped */
			continue;
		}
		ru->lead = g < 0 && ru->e[i].edge;
		break;
	}
	for (i = 0; i < ru->ne; i++) {
		g = ru->gof[i];
		if (ru->e[i].edge)
			continue;       /* the edge, or a cell or the edge */
		least += g < 0 ? 1 : ru->g[g].min;
	}
	return least;
}

/* Can every element from i to j (j excluded, either way) match nothing,
 * as groups repeated no time do? */
static int
may_vanish(const struct rule *ru, int i, int j)
{
	int step = i <= j ? 1 : -1, g;

	for (; i != j; i += step) {
		g = ru->gof[i];
		if (g < 0 || ru->g[g].min > 0)
			return 0;
	}
	return 1;
}

/* Does the element leave every cell it matches as it was? */
static int
keeps(const struct elem *x)
{
	struct cellset only;

	if (x->write < 0)
		return 1;
	memset(&only, 0, sizeof only);
	cs_add(&only, (unsigned char)x->write);
	return memcmp(&only, &x->match, sizeof only) == 0;
}

static int
add_dir(struct reader *rd, struct rule *ru, int d)
{
	int n;

	if (rd->r->kind == BOARD_STRIP && d != D_E && d != D_W)
		return ERR(rd, "a strip has only the directions e and w");
	for (n = 0; n < ru->ndirs; n++)
		if (ru->dirs[n] == d)
			return ERR(rd, "direction '%s' given twice",
			    dir_name[d]);
	ru->dirs[ru->ndirs++] = d;
	if (d >= D_NE)
		rd->r->conn8 = 1;
	return CG_OK;
}

/* Directions in the order written; the words orthogonal (n e s w),
 * diagonal (ne se sw nw) and all (clockwise from n) stand for several. */
static int
parse_dirs(struct reader *rd, struct rule *ru, int t0, int t1)
{
	static const int orth[4] = { D_N, D_E, D_S, D_W };
	static const int diag[4] = { D_NE, D_SE, D_SW, D_NW };
	static const int all[8] = { D_N, D_NE, D_E, D_SE, D_S, D_SW, D_W,
		D_NW };
	const int *list;
	int t, k, n, rc;

	for (t = t0; t < t1; t++) {
		const char *w = rd->tok[t];
		int one = -1;

		if (strcmp(w, "orthogonal") == 0) {
			list = orth;
			n = 4;
		} else if (strcmp(w, "diagonal") == 0) {
			list = diag;
			n = 4;
		} else if (strcmp(w, "all") == 0) {
			list = all;
			n = 8;
		} else {
			for (k = 0; k < D_COUNT; k++)
				if (strcmp(w, dir_name[k]) == 0)
					one = k;
			if (one < 0)
				return ERR(rd, "unknown direction '%s' (n, e, "
				    "s, w, ne, se, sw, nw, orthogonal, "
				    "diagonal or all)", w);
			list = &one;
			n = 1;
		}
		for (k = 0; k < n; k++)
			if ((rc = add_dir(rd, ru, list[k])) < 0)
				return rc;
	}
	return CG_OK;
}

static int
parse_name(struct reader *rd, struct rule *ru, const char *s, int least)
{
	struct name_item *it;
	size_t i = 0, len = strlen(s), tl;
	uint32_t v;

	ru->nname = 0;
	while (i < len) {
		if (ru->nname == MAX_NAME_TPL)
			return ERR(rd, "move name '%s' too long", s);
		it = &ru->name[ru->nname++];
		memset(it, 0, sizeof *it);
		if (is_digit(s[i])) {
			if (read_uint(s, len, &i, MAX_MATCH, &v) < 0 || v == 0)
				return ERR(rd, "move name '%s': cells are "
				    "numbered from 1", s);
			if ((int)v > least)
				return ERR(rd, "move name '%s': a match may "
				    "cover only %d cell%s, not %u", s, least,
				    least == 1 ? "" : "s", v);
			it->kind = NT_CELL;
			it->cell = (int)v - 1;
			continue;
		}
		if (s[i] == '$' || s[i] == '@') {
			it->kind = s[i] == '$' ? NT_LAST : NT_DIR;
			i++;
			continue;
		}
		it->kind = NT_TEXT;
		for (tl = 0; i < len && !is_digit(s[i]) && s[i] != '$' &&
		    s[i] != '@' && tl + 1 < sizeof it->text; i++)
			it->text[tl++] = s[i];
	}
	return CG_OK;
}

static int
rule_keyword(const char *w)
{
	return strcmp(w, "along") == 0 || strcmp(w, "name") == 0 ||
	    strcmp(w, "if") == 0 || strcmp(w, "unless") == 0;
}

/* The edge never repeats, and stands alone only where a match can reach
 * it: at either end, past groups that may repeat no time. */
static int
check_edges(struct reader *rd, const struct rule *ru, const char *pat)
{
	int k;

	for (k = 0; k < ru->ne; k++) {
		const struct elem *x = &ru->e[k];

		if (x->edge && ru->gof[k] >= 0)
			return ERR(rd, "pattern '%s': the edge '|' cannot "
			    "repeat", pat);
		if (edge_only(x) && !may_vanish(ru, k - 1, -1) &&
		    !may_vanish(ru, k + 1, ru->ne))
			return ERR(rd, "pattern '%s': the edge '|' stands "
			    "between cells, where a line never has it", pat);
	}
	return CG_OK;
}

/* "if|unless PATTERN [along DIRS]" from token t: a precondition of ru;
 * the index of the first token after it, or an error. */
static int
condition(struct reader *rd, struct rule *ru, int t)
{
	struct rules *r = rd->r;
	char pat[1024] = "", sh[256];
	struct rule *c;
	size_t n = 0;
	int t1, k, rc, neg = strcmp(rd->tok[t], "unless") == 0;

	if (ru->ncond == MAX_CONDS)
		return ERR(rd, "too many conditions on one rule (at most %d)",
		    MAX_CONDS);
	if (r->ncond == MAX_RULES)
		return ERR(rd, "too many conditions (at most %d)", MAX_RULES);
	if (r->cond == NULL) {
		r->cond = rd->h->alloc(MAX_RULES * sizeof *r->cond);
		if (r->cond == NULL)
			return CG_ENOMEM;
	}
	c = &r->cond[r->ncond];
	memset(c, 0, sizeof *c);
	c->line = rd->line;
	for (t1 = t + 1; t1 < rd->ntok && !rule_keyword(rd->tok[t1]); t1++)
		if ((n += strlen(rd->tok[t1])) < sizeof pat)
			strcat(pat, rd->tok[t1]);
	if (pat[0] == '\0')
		return ERR(rd, "'%s' needs a pattern", rd->tok[t]);
	for (k = 0; k < MAX_ELEMS; k++)
		c->gof[k] = -1;
	if ((rc = parse_line(rd, pat, 0, c->e, &c->ne, c->g, &c->ng, c->gof,
	    sh, sizeof sh)) < 0 || (rc = check_edges(rd, c, pat)) < 0)
		return rc;
	if (pattern_start(c) == 0)
		return ERR(rd, "pattern '%s' can match no cell at all", pat);
	if (t1 < rd->ntok && strcmp(rd->tok[t1], "along") == 0) {
		t = t1++;
		while (t1 < rd->ntok && !rule_keyword(rd->tok[t1]))
			t1++;
		if (t1 == t + 1)
			return ERR(rd, "'along' needs directions");
		if ((rc = parse_dirs(rd, c, t + 1, t1)) < 0)
			return rc;
	}
	if (c->ndirs == 0)
		c->dirs[c->ndirs++] = D_E;
	ru->cond[ru->ncond].pat = r->ncond++;
	ru->cond[ru->ncond++].negate = neg;
	return t1;
}

/* left|right|both PATTERN -> REWRITE [along DIR...] [name TEMPLATE]
 * [if|unless PATTERN [along DIR...]]... */
static int
rule_line(struct reader *rd, struct rule *ru)
{
	char pat[1024] = "", rew[1024] = "", sh1[256], sh2[256];
	struct elem re[MAX_ELEMS];
	struct group rg[MAX_ELEMS];
	int rne, rng, rgof[MAX_ELEMS], t, arrow = -1, k, least, rc;
	size_t n;

	for (t = 1; t < rd->ntok; t++)
		if (strcmp(rd->tok[t], "->") == 0) {
			arrow = t;
			break;
		}
	if (arrow < 0)
		return ERR(rd, "expected PATTERN -> REWRITE after '%s'",
		    rd->tok[0]);
	if (arrow == 1)
		return ERR(rd, "missing pattern before '->'");
	for (t = 1, n = 0; t < arrow; t++)
		if ((n += strlen(rd->tok[t])) < sizeof pat)
			strcat(pat, rd->tok[t]);
	for (t = arrow + 1, n = 0; t < rd->ntok && !rule_keyword(rd->tok[t]);
	    t++)
		if ((n += strlen(rd->tok[t])) < sizeof rew)
			strcat(rew, rd->tok[t]);
	if (rew[0] == '\0')
		return ERR(rd, "missing rewrite after '->'");
	for (k = 0; k < MAX_ELEMS; k++)
		ru->gof[k] = rgof[k] = -1;
	if ((rc = parse_line(rd, pat, 0, ru->e, &ru->ne, ru->g, &ru->ng,
	    ru->gof, sh1, sizeof sh1)) < 0 ||
	    (rc = parse_line(rd, rew, 1, re, &rne, rg, &rng, rgof, sh2,
	    sizeof sh2)) < 0)
		return rc;
	if (strcmp(sh1, sh2) != 0)
		return ERR(rd, "rewrite '%s' does not have the shape of pattern "
		    "'%s' (one element for each, groups in the same places)",
		    rew, pat);
	if ((rc = check_edges(rd, ru, pat)) < 0)
		return rc;
	for (k = 0; k < ru->ne; k++) {
		struct elem *x = &ru->e[k];

		if (re[k].edge && !edge_only(x))
			return ERR(rd, "rewrite '%s': '|' stands only where the "
			    "pattern has the edge '|'", rew);
		if (sh2[0] != '\0' && re[k].write >= 0 && x->edge)
			return ERR(rd, "rewrite '%s': a cell that may be the "
			    "edge stays as it is (write '=' or '|')", rew);
		if (!x->edge && sh2[0] != '\0')
			x->write = re[k].write;
	}
	if (ru->ne == 1 && edge_only(&ru->e[0]))
		return ERR(rd, "pattern '%s' matches no cell", pat);
	for (k = 0; k < ru->ne && keeps(&ru->e[k]); k++)
		;
	if (k == ru->ne)
		return ERR(rd, "rewrite '%s' changes nothing", rew);
	least = pattern_start(ru);
	if (least == 0)
		return ERR(rd, "pattern '%s' can match no cell at all", pat);
	/* along ... name ... if ... unless ... */
	while (t < rd->ntok) {
		int t1 = t + 1;

		if (strcmp(rd->tok[t], "if") == 0 ||
		    strcmp(rd->tok[t], "unless") == 0) {
			if ((t = condition(rd, ru, t)) < 0)
				return t;
			continue;
		}
		while (t1 < rd->ntok && !rule_keyword(rd->tok[t1]))
			t1++;
		if (strcmp(rd->tok[t], "along") == 0) {
			if (ru->ncond > 0)
				return ERR(rd, "'along' after a condition's "
				    "pattern is the condition's: give the "
				    "rule's directions before 'if' or "
				    "'unless'");
			if (ru->ndirs > 0)
				return ERR(rd, "'along' given twice");
			if (t1 == t + 1)
				return ERR(rd, "'along' needs directions");
			if ((rc = parse_dirs(rd, ru, t + 1, t1)) < 0)
				return rc;
		} else {
			if (ru->nname > 0)
				return ERR(rd, "'name' given twice");
			if (t1 != t + 2)
				return ERR(rd, "'name' takes one template "
				    "(such as 1-2)");
			if ((rc = parse_name(rd, ru, rd->tok[t + 1], least)) < 0)
				return rc;
		}
		t = t1;
	}
	if (ru->ndirs == 0)
		ru->dirs[ru->ndirs++] = D_E;
	return CG_OK;
}

/* A graph rule: left|right|both TINT -> TINT [neighbours A->B ...] */
static int
graph_rule(struct reader *rd, struct rule *ru)
{
	const struct rules *r = rd->r;
	int t, c, changes;
	const char *p;

	for (c = 0; c < 256; c++)
		ru->nmap[c] = (unsigned char)c;
	if (rd->ntok < 4 || strcmp(rd->tok[2], "->") != 0)
		return ERR(rd, "expected TINT -> TINT after '%s' (a graph "
		    "rule colours one vertex)", rd->tok[0]);
	p = rd->tok[1];
	if (p[0] == '[') {
		size_t n = strlen(p);

		if (n < 3 || p[n - 1] != ']')
			return ERR(rd, "bad class '%s'", p);
		for (t = 1; t < (int)n - 1; t++) {
			if (!is_cell(r, p[t]))
				return ERR(rd, "'%c' is not a tint", p[t]);
			cs_add(&ru->vmatch, (unsigned char)p[t]);
		}
	} else if (strlen(p) == 1 && is_cell(r, p[0])) {
		cs_add(&ru->vmatch, (unsigned char)p[0]);
	} else {
		return ERR(rd, "'%s' is not a tint or a class of tints", p);
	}
	p = rd->tok[3];
	if (strcmp(p, "_") == 0)
		ru->vwrite = 0;
	else if (strlen(p) == 1 && is_cell(r, p[0]))
		ru->vwrite = (unsigned char)p[0];
	else
		return ERR(rd, "'%s' is not a tint, or '_' (the vertex goes)",
		    p);
	t = 4;
	if (t < rd->ntok) {
		if (strcmp(rd->tok[t], "neighbours") != 0)
			return ERR(rd, "unknown word '%s' (expected "
			    "'neighbours')", rd->tok[t]);
		t++;
		if (t == rd->ntok)
			return ERR(rd, "'neighbours' needs TINT -> TINT pairs");
		for (; t < rd->ntok; t += 3) {
			const char *a = rd->tok[t], *b;

			if (t + 2 >= rd->ntok || strcmp(rd->tok[t + 1], "->"))
				return ERR(rd, "'neighbours' takes TINT -> "
				    "TINT pairs");
			b = rd->tok[t + 2];
			if (strlen(a) != 1 || !is_cell(r, a[0]))
				return ERR(rd, "'%s' is not a tint", a);
			if (strcmp(b, "_") != 0 && (strlen(b) != 1 ||
			    !is_cell(r, b[0])))
				return ERR(rd, "'%s' is not a tint or '_'", b);
			if (ru->nmap[(unsigned char)a[0]] != a[0])
				return ERR(rd, "neighbour tint '%c' rewritten "
				    "twice", a[0]);
			ru->nmap[(unsigned char)a[0]] = b[0] == '_' ? 0 :
			    (unsigned char)b[0];
		}
	}
	changes = ru->vwrite == 0;
	for (c = 1; c < 256 && !changes; c++)
		if (cs_has(&ru->vmatch, (unsigned char)c) && c != ru->vwrite)
			changes = 1;
	for (c = 1; c < 256 && !changes; c++)
		if (ru->nmap[c] != c)
			changes = 1;
	if (!changes)
		return ERR(rd, "the rule changes nothing");
	return CG_OK;
}

/* A heap rule: left|right|both take AMOUNTS [leave COUNTS] [unequal|equal]
 * [from COUNTS] [same]; 'from' beyond 1 makes the positions tuples. */
static int
heap_rule(struct reader *rd, struct rule *ru)
{
	struct rules *r = rd->r;
	uint32_t *counts = NULL;
	size_t nc, k;
	int t = 2, rc, p, have_leave = 0, have_from = 0;

	if (rd->ntok < 3 || strcmp(rd->tok[1], "take") != 0)
		return ERR(rd, "expected 'take AMOUNTS' after '%s'",
		    rd->tok[0]);
	ru->leave = 0x3;        /* the rest as one heap, or nothing */
	ru->from = 0x2;         /* one heap */
	if (strcmp(rd->tok[2], "any") == 0) {
		ru->amt_kind = AMT_ANY;
	} else if ((p = find_param(r, rd->tok[2])) >= 0) {
		ru->amt_kind = AMT_PARAM;
		ru->amt_param = p;
		if (r->param[p].type == PARAM_CODE)
			ru->leave_kind = LEAVE_CODE;
	} else if (is_digit(rd->tok[2][0])) {
		ru->amt_kind = AMT_LIST;
		if ((rc = parse_numbers(rd, rd->tok[2], 0, 1000000, &ru->amt,
		    &ru->namt, "amounts")) < 0)
			return rc;
	} else {
		return ERR(rd, "unknown word '%s' (amounts are numbers such "
		    "as 1,3 or 1-4, 'any', or a parameter)", rd->tok[2]);
	}
	for (t = 3; t < rd->ntok; t++) {
		const char *w = rd->tok[t];

		if (strcmp(w, "leave") == 0) {
			if (ru->leave_kind == LEAVE_CODE)
				return ERR(rd, "the digits of code '%s' say "
				    "how many heaps are left", rd->tok[2]);
			if (have_leave || t + 1 == rd->ntok)
				return ERR(rd, "'leave' takes one list, such as "
				    "0,1,2");
			if ((rc = parse_numbers(rd, rd->tok[++t], 0, 4, &counts,
			    &nc, "heap counts")) < 0)
				return rc;
			ru->leave = 0;
			for (k = 0; k < nc; k++)
				ru->leave |= 1u << counts[k];
			rd->h->free(counts);
			have_leave = 1;
		} else if (strcmp(w, "unequal") == 0 ||
		    strcmp(w, "equal") == 0) {
			if (ru->cons != CONS_NONE)
				return ERR(rd, "one of 'unequal' or 'equal'");
			ru->cons = w[0] == 'u' ? CONS_UNEQUAL : CONS_EQUAL;
		} else if (strcmp(w, "from") == 0) {
			if (have_from || t + 1 == rd->ntok)
				return ERR(rd, "'from' takes one list, such as "
				    "1,2");
			if ((rc = parse_numbers(rd, rd->tok[++t], 1, MAX_FROM,
			    &counts, &nc, "heap counts")) < 0)
				return rc;
			for (ru->from = 0, k = 0; k < nc; k++)
				ru->from |= 1u << counts[k];
			rd->h->free(counts);
			have_from = 1;
		} else if (strcmp(w, "same") == 0 && !ru->same) {
			ru->same = 1;
		} else {
			return ERR(rd, "unknown word '%s' (leave, unequal, "
			    "equal, from or same)", w);
		}
	}
	if (ru->same && ru->from == 0x2)
		return ERR(rd, "'same' is the same amount from several heaps: "
		    "say how many with 'from', such as 'from 2'");
	r->tuples |= (ru->from & ~0x2u) != 0;
	if (ru->amt_kind == AMT_LIST && ru->namt > 0 && ru->amt[0] == 0 &&
	    (ru->leave & 0x3))
		return ERR(rd, "taking 0 counters must split the heap: 'leave' "
		    "2 or more heaps");
	return CG_OK;
}

static int
do_rule(struct reader *rd)
{
	struct rules *r = rd->r;
	struct rule *ru;
	int rc;

	if ((rc = need_board(rd, rd->tok[0])) < 0)
		return rc;
	if (r->nrule == MAX_RULES)
		return ERR(rd, "too many rules (at most %d)", MAX_RULES);
	if (r->rule == NULL) {
		r->rule = rd->h->alloc(MAX_RULES * sizeof *r->rule);
		if (r->rule == NULL)
			return CG_ENOMEM;
	}
	ru = &r->rule[r->nrule];
	memset(ru, 0, sizeof *ru);
	ru->line = rd->line;
	ru->side = strcmp(rd->tok[0], "left") == 0 ? SIDE_LEFT :
	    strcmp(rd->tok[0], "right") == 0 ? SIDE_RIGHT : SIDE_BOTH;
	r->nrule++;   /* counted now, so rules_free sees its allocations */
	switch (r->kind) {
	case BOARD_GRAPH:
		return graph_rule(rd, ru);
	case BOARD_HEAPS:
		return heap_rule(rd, ru);
	default:
		return rule_line(rd, ru);
	}
}

static int
do_text(struct reader *rd, char *dst, size_t cap, int *have)
{
	if (*have)
		return ERR(rd, "'%s' given twice", rd->tok[0]);
	if (rd->ntok < 2)
		return ERR(rd, "'%s' needs a value", rd->tok[0]);
	if (strlen(rd->rest) >= cap)
		return ERR(rd, "'%s' too long (at most %zu characters)",
		    rd->tok[0], cap - 1);
	snprintf(dst, cap, "%s", rd->rest);
	/* trailing blanks */
	while (*dst && (dst[strlen(dst) - 1] == ' ' ||
	    dst[strlen(dst) - 1] == '\t'))
		dst[strlen(dst) - 1] = '\0';
	*have = 1;
	return CG_OK;
}

static int
directive(struct reader *rd)
{
	const char *w = rd->tok[0];

	if (strcmp(w, "summary") == 0)
		return do_text(rd, rd->summary, sizeof rd->summary,
		    &rd->have_summary);
	if (strcmp(w, "version") == 0) {
		int rc = do_text(rd, rd->version, sizeof rd->version,
		    &rd->have_version);

		if (rc == CG_OK && strchr(rd->version, ' ') != NULL)
			return ERR(rd, "a version is one word");
		return rc;
	}
	if (strcmp(w, "board") == 0)
		return do_board(rd);
	if (strcmp(w, "cells") == 0)
		return do_cells(rd);
	if (strcmp(w, "alias") == 0)
		return do_alias(rd);
	if (strcmp(w, "param") == 0)
		return do_param(rd);
	if (strcmp(w, "measure") == 0)
		return do_measure(rd);
	if (strcmp(w, "loopy") == 0)
		return do_loopy(rd);
	if (strcmp(w, "components") == 0)
		return do_components(rd);
	if (strcmp(w, "symmetry") == 0)
		return do_symmetry(rd);
	if (strcmp(w, "order") == 0)
		return do_order(rd);
	if (strcmp(w, "family") == 0)
		return do_family(rd);
	if (strcmp(w, "left") == 0 || strcmp(w, "right") == 0 ||
	    strcmp(w, "both") == 0)
		return do_rule(rd);
	if (strcmp(w, "win") == 0 || strcmp(w, "draw") == 0 ||
	    strcmp(w, "nomove") == 0 || strcmp(w, "payoff") == 0) {
		int rc = need_board(rd, w);

		return rc < 0 ? rc : ends_directive(rd->h, rd->err, rd->line,
		    rd->r, rd->tok, rd->ntok);
	}
	return ERR(rd, "unknown word '%s'", w);
}

static int
reads_edge(const struct rule *ru)
{
	int k;

	for (k = 0; k < ru->ne; k++)
		if (ru->e[k].edge)
			return 1;
	return 0;
}

static int
finish(struct reader *rd)
{
	struct rules *r = rd->r;
	const struct cg_host *h = rd->h;
	int i, rc;

	rd->line = 0;
	if (!rd->have_board)
		return ERR(rd, "no 'board' (grid, strip, graph or heaps)");
	if (r->kind != BOARD_HEAPS && !rd->have_cells)
		return ERR(rd, "no 'cells'");
	if (r->nrule == 0)
		return ERR(rd, "no rules (lines starting 'left', 'right' or "
		    "'both')");
	if (!rd->have_measure)
		return ERR(rd, "no 'measure': every rules file names a "
		    "quantity each move decreases (cgr(5)), so no game can "
		    "go on for ever, or says 'loopy'");
	r->impartial = 1;
	for (i = 0; i < r->nrule; i++)
		if (r->rule[i].side != SIDE_BOTH)
			r->impartial = 0;
	for (i = 0; (r->wall >= 0 || r->frozen) && i < r->nrule; i++)
		if (r->rule[i].ncond > 0)
			return rules_error(h, rd->err, r->rule[i].line, "a "
			    "rule with a condition reads the whole board, "
			    "which 'components' would split: a position of "
			    "such a file is one component");
	if (r->wall >= 0 && (rc = rules_check_components(h, r, rd->err)) < 0)
		return rc;
	for (i = 0; r->frozen && i < r->nrule; i++)
		if (reads_edge(&r->rule[i]))
			return rules_error(h, rd->err, r->rule[i].line, "with "
			    "'components frozen', no pattern may look at the "
			    "edge (a part cut out of the strip would end "
			    "where it did not)");
	if (r->nsym > 1 && (rc = rules_check_symmetry(h, r, rd->err)) < 0)
		return rc;
	if ((rc = ends_finish(h, r, rd->err)) < 0)
		return rc;
	if (r->loopy && r->result)
		return rules_error(h, rd->err, r->loopy, "'loopy' with 'win', "
		    "'draw', 'nomove' or 'payoff': a loopy game is played to "
		    "the last move");
	for (i = 0; i < r->nparam; i++) {
		int used = 0, k;

		for (k = 0; k < r->nrule; k++)
			used |= r->rule[k].amt_kind == AMT_PARAM &&
			    r->rule[k].amt_param == i;
		if (!used)
			return rules_error(h, rd->err, r->param[i].line,
			    "parameter '%s' is never used", r->param[i].name);
	}
	switch (r->loopy ? -1 : r->kind) {
	case BOARD_GRID:
	case BOARD_STRIP:
		rc = measure_check_lines(h, r, rd->err);
		break;
	case BOARD_GRAPH:
		rc = measure_check_graph(h, r, rd->err);
		break;
	default:
		rc = CG_OK;   /* amounts may come with the parameters */
		break;
	}
	if (rc < 0)
		return rc;
	snprintf(r->summary, sizeof r->summary, "%s", rd->have_summary ?
	    rd->summary : "(a rules file without a summary)");
	snprintf(r->version, sizeof r->version, "%s", rd->have_version ?
	    rd->version : "0");
	r->gg.wall = (char)(r->wall >= 0 ? r->wall : 0);
	r->gg.alphabet = r->cells;
	r->gg.nsym = r->nsym;
	r->gg.conn8 = r->conn8;
	r->gg.keep_with = grid_keep_rules;
	return CG_OK;
}

/* ------------------------------------------------- for wins.c */

int
rules_read_pattern(const struct cg_host *h, struct cg_error *err,
    unsigned long line, struct rules *r, char **tok, int ntok,
    struct rule *ru)
{
	struct reader *rd;
	char pat[1024] = "", sh[256];
	size_t n = 0;
	int t, k, rc;

	rd = h->alloc(sizeof *rd);
	if (rd == NULL)
		return CG_ENOMEM;
	memset(rd, 0, sizeof *rd);
	rd->h = h;
	rd->err = err;
	rd->r = r;
	rd->line = line;
	for (t = 0; t < ntok && t < MAX_TOKENS; t++)
		rd->tok[t] = tok[t];
	rd->ntok = t;
	memset(ru, 0, sizeof *ru);
	ru->line = line;
	for (k = 0; k < MAX_ELEMS; k++)
		ru->gof[k] = -1;
	for (t = 0; t < rd->ntok && strcmp(rd->tok[t], "along") != 0; t++)
		if ((n += strlen(rd->tok[t])) < sizeof pat)
			strcat(pat, rd->tok[t]);
	if (t == 0) {
		rc = ERR(rd, "expected a pattern after '%s'", tok[-1]);
		goto out;
	}
	if ((rc = parse_line(rd, pat, 0, ru->e, &ru->ne, ru->g, &ru->ng,
	    ru->gof, sh, sizeof sh)) < 0)
		goto out;
	if ((rc = check_edges(rd, ru, pat)) < 0)
		goto out;
	if (pattern_start(ru) == 0) {
		rc = ERR(rd, "pattern '%s' can match no cell at all", pat);
		goto out;
	}
	if (t < rd->ntok) {
		if (t + 1 == rd->ntok) {
			rc = ERR(rd, "'along' needs directions");
			goto out;
		}
		if ((rc = parse_dirs(rd, ru, t + 1, rd->ntok)) < 0)
			goto out;
	}
	if (ru->ndirs == 0)
		ru->dirs[ru->ndirs++] = D_E;
	rc = CG_OK;
out:
	h->free(rd);
	return rc;
}

int
rules_read(const struct cg_host *h, const char *file, const char *text,
    size_t len, struct rules *r, struct cg_error *err)
{
	struct reader *rd;
	size_t i = 0, end;
	int rc = CG_OK;

	rd = h->alloc(sizeof *rd);
	if (rd == NULL)
		return CG_ENOMEM;
	memset(rd, 0, sizeof *rd);
	rd->h = h;
	rd->err = err;
	rd->r = r;
	r->file = file;
	r->wall = -1;
	r->nsym = 1;
	while (i < len && rc == CG_OK) {
		rd->line++;
		end = i;
		while (end < len && text[end] != '\n')
			end++;
		if (memchr(text + i, '\0', end - i) != NULL)
			rc = ERR(rd, "NUL byte (a rules file is text)");
		else if ((rc = tokenize(rd, text + i, end - i)) == CG_OK &&
		    rd->ntok > 0)
			rc = directive(rd);
		i = end + 1;
	}
	if (rc == CG_OK)
		rc = finish(rd);
	h->free(rd);
	return rc;
}

void
rules_free(const struct cg_host *h, struct rules *r)
{
	int i;

	for (i = 0; i < r->nrule; i++)
		h->free(r->rule[i].amt);
	h->free(r->rule);
	h->free(r->cond);
	r->cond = NULL;
	r->ncond = 0;
	for (i = 0; i < r->nparam; i++)
		h->free(r->param[i].dflt_text);
	r->rule = NULL;
	r->nrule = 0;
	r->nparam = 0;
	h->free(r->end);
	r->end = NULL;
	r->nend = 0;
}
