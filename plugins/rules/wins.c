/*
 * wins.c - games that end in a result (cgr(5), "Results"): win
 * conditions, draws and payoffs on grids and strips, and the cg.result
 * extension (cg/result.h) that hands them to the host.
 *
 *   win left|right CONDITION   the game is over, won by that player
 *   draw CONDITION             the game is over, drawn
 *   nomove loses|wins|draw|payoff
 *                              what the player to move gets with no move
 *   payoff TERM [+|- TERM]...  Left's score, counted on the board
 *
 * A CONDITION is a pattern found somewhere on the board (read from any
 * cell along the directions given, as a rule's pattern is, without a
 * rewrite), or 'count CELLS OP N'.  A position is over when a condition
 * holds, whoever is to move: both players' wins at once are a draw, a
 * win beats a draw condition.  A position that is over has no moves
 * (grid.c asks ends_over() first), so play stops there.
 *
 * Such a game is one component: 'components' is refused with any of
 * these, and the declared symmetry must map each pattern condition onto
 * one of the same player's, as it maps rules onto rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "bytes.h"

#define ERRL(line, ...) rules_error(h, err, (line), __VA_ARGS__)

static int
is_cell(const struct rules *r, int c)
{
	return c > 0 && strchr(r->cells, c) != NULL;
}

static int
read_cells(const struct cg_host *h, struct cg_error *err, unsigned long line,
    const struct rules *r, const char *s, struct cellset *set)
{
	memset(set, 0, sizeof *set);
	for (; *s; s++) {
		if (!is_cell(r, *s))
			return ERRL(line, "'%c' is not a cell", *s);
		cs_add(set, (unsigned char)*s);
	}
	return CG_OK;
}

/* count CELLS OP N */
static int
read_count(const struct cg_host *h, struct cg_error *err, unsigned long line,
    const struct rules *r, char **tok, int ntok, struct endcond *ec)
{
	static const char *const ops[] = { "<", "<=", "=", ">=", ">" };
	size_t i = 0;
	uint32_t v;
	int k, rc;

	if (ntok != 4)
		return ERRL(line, "expected 'count CELLS OP N' (OP one of < "
		    "<= = >= >)");
	if ((rc = read_cells(h, err, line, r, tok[1], &ec->set)) < 0)
		return rc;
	ec->op = -1;
	for (k = 0; k < 5; k++)
		if (strcmp(tok[2], ops[k]) == 0)
			ec->op = k;
	if (ec->op < 0)
		return ERRL(line, "unknown comparison '%s' (< <= = >= >)",
		    tok[2]);
	if (!is_digit(tok[3][0]) || read_uint(tok[3], strlen(tok[3]), &i,
	    255 * 255, &v) < 0 || tok[3][i] != '\0')
		return ERRL(line, "count: '%s' is not a number 0..65025",
		    tok[3]);
	ec->count = 1;
	ec->n = (long)v;
	return CG_OK;
}

/* payoff TERM [+|- TERM]...: TERM is [COEF*]CELLS */
static int
read_payoff(const struct cg_host *h, struct cg_error *err, unsigned long line,
    struct rules *r, char **tok, int ntok)
{
	char text[1024], word[MAX_CELLS + 1];
	size_t n = 0, i = 0;
	long coef;
	int t, rc;

	for (t = 0; t < ntok && n + strlen(tok[t]) + 2 < sizeof text; t++)
		n += (size_t)snprintf(text + n, sizeof text - n, "%s ", tok[t]);
	while ((rc = rules_next_term(h, err, line, "payoff", text, &i,
	    r->npayoff == 0, &coef, word, sizeof word)) > 0) {
		struct term *tm;

		if (r->npayoff == MAX_TERMS)
			return ERRL(line, "payoff: too many terms (at most %d)",
			    MAX_TERMS);
		tm = &r->payoff[r->npayoff++];
		memset(tm, 0, sizeof *tm);
		tm->coef = coef;
		tm->dir = -1;
		if ((rc = read_cells(h, err, line, r, word, &tm->set)) < 0)
			return rc;
	}
	if (rc < 0)
		return rc;
	if (r->npayoff == 0)
		return ERRL(line, "payoff: no terms (say what Left scores, as "
		    "'x - o')");
	return CG_OK;
}

static void
note_line(struct rules *r, unsigned long line)
{
	if (r->result_line == 0)
		r->result_line = line;
}

int
ends_directive(const struct cg_host *h, struct cg_error *err,
    unsigned long line, struct rules *r, char **tok, int ntok)
{
	static const char *const stuck[] = { "loses", "wins", "draw",
		"payoff" };
	static const int stuck_res[] = { CG_RESULT_MOVER_LOSES,
		CG_RESULT_MOVER_WINS, CG_RESULT_DRAW, CG_RESULT_PAYOFF };
	struct endcond *ec;
	int k, i;

	if (r->kind != BOARD_GRID && r->kind != BOARD_STRIP)
		return ERRL(line, "'%s' is for grids and strips (a result is "
		    "read on the board)", tok[0]);
	note_line(r, line);
	if (strcmp(tok[0], "nomove") == 0) {
		if (r->have_stuck)
			return ERRL(line, "'nomove' given twice");
		if (ntok != 2)
			return ERRL(line, "'nomove' takes one word: loses, "
			    "wins, draw or payoff");
		for (k = 0; k < 4; k++)
			if (strcmp(tok[1], stuck[k]) == 0) {
				r->stuck = stuck_res[k];
				r->have_stuck = 1;
				r->stuck_line = line;
				return CG_OK;
			}
		return ERRL(line, "unknown 'nomove %s' (loses, wins, draw or "
		    "payoff)", tok[1]);
	}
	if (strcmp(tok[0], "payoff") == 0) {
		if (r->npayoff > 0)
			return ERRL(line, "'payoff' given twice");
		r->payoff_line = line;
		return read_payoff(h, err, line, r, tok + 1, ntok - 1);
	}
	/* win left|right CONDITION, draw CONDITION */
	i = 1;
	if (r->nend == MAX_ENDS)
		return ERRL(line, "too many conditions (at most %d)", MAX_ENDS);
	if (r->end == NULL) {
		r->end = h->alloc(MAX_ENDS * sizeof *r->end);
		if (r->end == NULL)
			return CG_ENOMEM;
	}
	ec = &r->end[r->nend];
	memset(ec, 0, sizeof *ec);
	if (strcmp(tok[0], "win") == 0) {
		if (ntok < 2 || (strcmp(tok[1], "left") != 0 &&
		    strcmp(tok[1], "right") != 0))
			return ERRL(line, "'win' names the winner: win left "
			    "CONDITION or win right CONDITION");
		ec->who = strcmp(tok[1], "left") == 0 ? END_LEFT : END_RIGHT;
		i = 2;
	} else {
		ec->who = END_DRAW;
	}
	if (i == ntok)
		return ERRL(line, "'%s' needs a condition: a pattern, or count "
		    "CELLS OP N", tok[0]);
	if (strcmp(tok[i], "count") == 0)
		k = read_count(h, err, line, r, tok + i, ntok - i, ec);
	else
		k = rules_read_pattern(h, err, line, r, tok + i, ntok - i,
		    &ec->pat);
	ec->pat.line = line;
	if (k == CG_OK)
		r->nend++;
	return k;
}

/* Each generator of the declared symmetries maps each direction of each
 * pattern condition onto a direction of one of the same kind. */
static int
check_symmetry(const struct cg_host *h, struct rules *r, struct cg_error *err)
{
	static const int gens[3] = { 1, 2, 4 };
	unsigned char key[RULES_KEY_MAX], k2[RULES_KEY_MAX];
	size_t klen, n2;
	int gi, i, j, i2, j2, rev, found;

	for (gi = 0; gi < 3 && (1u << (gi + 1)) <= r->nsym; gi++)
		for (i = 0; i < r->nend; i++) {
			const struct endcond *ec = &r->end[i];

			for (j = 0; !ec->count && j < ec->pat.ndirs; j++) {
				klen = rules_pattern_key(&ec->pat,
				    rules_sym_dir(gens[gi], ec->pat.dirs[j]),
				    0, key);
				found = 0;
				for (i2 = 0; i2 < r->nend && !found; i2++) {
					const struct endcond *e2 = &r->end[i2];

					if (e2->count || e2->who != ec->who)
						continue;
					for (j2 = 0; j2 < e2->pat.ndirs; j2++)
						for (rev = 0; rev < 2; rev++) {
							if (rev && e2->pat.e[
							    e2->pat.ne - 1].edge)
								continue;
							n2 = rules_pattern_key(
							    &e2->pat,
							    e2->pat.dirs[j2],
							    rev, k2);
							found |= n2 == klen &&
							    memcmp(k2, key,
							    n2) == 0;
						}
				}
				if (!found)
					return ERRL(ec->pat.line, "the symmetry "
					    "does not hold: it turns this "
					    "condition along %s into one along "
					    "%s, which is not given",
					    dir_name[ec->pat.dirs[j]],
					    dir_name[rules_sym_dir(gens[gi],
					    ec->pat.dirs[j])]);
			}
		}
	return CG_OK;
}

static int res_result(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int *res, int64_t *payoff);
static int res_payoff(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *payoff);

int
ends_finish(const struct cg_host *h, struct rules *r, struct cg_error *err)
{
	int rc;

	r->result = r->nend > 0 || r->npayoff > 0 || (r->have_stuck &&
	    r->stuck != CG_RESULT_MOVER_LOSES);
	if (!r->have_stuck)
		r->stuck = r->npayoff > 0 ? CG_RESULT_PAYOFF :
		    CG_RESULT_MOVER_LOSES;
	if (!r->result)
		return CG_OK;
	if (r->stuck == CG_RESULT_PAYOFF && r->npayoff == 0)
		return ERRL(r->stuck_line, "'nomove payoff' needs a 'payoff' "
		    "(what Left scores)");
	if (r->wall >= 0 || r->frozen)
		return ERRL(r->result_line, "a game won, drawn or scored on "
		    "the board is one component: 'components' does not go "
		    "with 'win', 'draw', 'nomove' or 'payoff'");
	if (r->nsym > 1 && (rc = check_symmetry(h, r, err)) < 0)
		return rc;
	r->xres.struct_size = sizeof r->xres;
	r->xres.stuck = (uint32_t)r->stuck;
	r->xres.result = res_result;
	r->xres.payoff = r->npayoff > 0 ? res_payoff : NULL;
	return CG_OK;
}

/* ------------------------------------------------------------- play */

static long
count_cells(const struct cellset *set, const unsigned char *cells, int n)
{
	long c = 0;
	int k;

	for (k = 0; k < n; k++)
		c += cs_has(set, cells[k]);
	return c;
}

static int
holds(const struct cg_context *cx, const struct endcond *ec,
    const unsigned char *pos, size_t len, int rows, int cols)
{
	long c;

	if (!ec->count)
		return grid_pattern_occurs(cx, &ec->pat, pos, len, rows, cols);
	c = count_cells(&ec->set, pos + GRID_HDR, rows * cols);
	switch (ec->op) {
	case CMP_LT: return c < ec->n;
	case CMP_LE: return c <= ec->n;
	case CMP_EQ: return c == ec->n;
	case CMP_GE: return c >= ec->n;
	default: return c > ec->n;
	}
}

static int
res_result(const struct cg_context *cx, const unsigned char *pos, size_t len,
    int *res, int64_t *payoff)
{
	struct rstate *st = cx->state;
	const struct rules *r = st->r;
	int rows, cols, rc, i, met[3] = { 0, 0, 0 };

	*res = CG_RESULT_NONE;
	*payoff = 0;
	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	if (st->endpos != NULL && st->endlen == len &&
	    memcmp(st->endpos, pos, len) == 0) {
		*res = st->endres;
		return CG_OK;
	}
	for (i = 0; i < r->nend; i++) {
		const struct endcond *ec = &r->end[i];

		if (met[ec->who])
			continue;
		if ((rc = holds(cx, ec, pos, len, rows, cols)) < 0)
			return rc;
		met[ec->who] = rc;
	}
	if (met[END_LEFT] && met[END_RIGHT])
		*res = CG_RESULT_DRAW;
	else if (met[END_LEFT])
		*res = CG_RESULT_LEFT;
	else if (met[END_RIGHT])
		*res = CG_RESULT_RIGHT;
	else if (met[END_DRAW])
		*res = CG_RESULT_DRAW;
	/* kept for the options() that usually follows */
	if (len > st->endcap) {
		unsigned char *p = cx->host->realloc(st->endpos, len);

		if (p == NULL)
			return CG_OK;
		st->endpos = p;
		st->endcap = len;
	}
	memcpy(st->endpos, pos, len);
	st->endlen = len;
	st->endres = *res;
	return CG_OK;
}

static int
res_payoff(const struct cg_context *cx, const unsigned char *pos, size_t len,
    int64_t *payoff)
{
	const struct rules *r = ((const struct rstate *)cx->state)->r;
	int rows, cols, rc, i;
	int64_t v = 0;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	for (i = 0; i < r->npayoff; i++)
		v += r->payoff[i].coef * count_cells(&r->payoff[i].set,
		    pos + GRID_HDR, rows * cols);
	*payoff = v;
	return CG_OK;
}

int
ends_over(const struct cg_context *cx, const unsigned char *pos, size_t len,
    int *over)
{
	int64_t p;
	int res, rc;

	*over = 0;
	if ((rc = res_result(cx, pos, len, &res, &p)) < 0)
		return rc;
	*over = res != CG_RESULT_NONE;
	return CG_OK;
}

const void *
ends_extension(const struct cg_context *cx, const char *name)
{
	const struct rules *r = ((const struct rstate *)cx->state)->r;

	if (r->result && strcmp(name, CG_EXT_RESULT) == 0)
		return &r->xres;
	return NULL;
}
