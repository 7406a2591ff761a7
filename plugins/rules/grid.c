/*
 * grid.c - boards of cells: grids (CGSuite's "..|.#", rows separated by
 * '|') and strips (one row, "t..f").  Position bytes are plugins/lib/
 * grid.h's (rows, columns, the cells), so canonical forms, components
 * and symmetries are grid.h's too.
 *
 * A rule is a pattern read along a direction from an anchor cell (or the
 * edge just before the cell that begins a line): the elements in order,
 * each matching one cell (a class of characters), the first and the last
 * perhaps the edge beyond the board; groups repeat.  Every way the
 * pattern matches (match.h) is a move, fewer repetitions first, but the
 * ways of one anchor and direction that make the same move (splits of
 * the line among several groups) make it once; the rewrite gives each
 * matched cell its new character.  Options come anchor cell by
 * anchor cell in reading order, each cell's rules in file order and
 * each rule's directions as written ('order rules' turns this inside
 * out: each rule and direction over every cell).  A rule with conditions
 * applies only when each condition's pattern is found somewhere on the
 * board ('if') or nowhere ('unless'), each read once per board.
 *
 * Move names: the template's items (a matched cell by number, '$' the
 * last changed cell, '@' the direction), or the changed cells joined by
 * '-'; a grid cell is written in chess coordinates ("a1" bottom left), a
 * strip's square by its number from 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "match.h"
#include "bytes.h"

/* Rows longer than this in a file without components draw a warning. */
#define LONG_ROW 20

static const struct rules *
rules_of(const struct cg_context *cx)
{
	return ((const struct rstate *)cx->state)->r;
}

int
grid_hooks_parse(const struct cg_context *cx, const char *text, size_t len,
    struct cg_buf *out)
{
	const struct rules *r = rules_of(cx);
	size_t i;

	if (r->kind == BOARD_STRIP)
		for (i = 0; i < len; i++)
			if (text[i] == '|')
				return cx->host->error(cx->err, i + 1,
				    "a strip is one row (no '|')");
	return grid_parse_text(cx, text, len, (const char *)r->alias, out);
}

int
grid_hooks_print(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	return grid_print(cx, &rules_of(cx)->gg, pos, len, out);
}

/* ------------------------------------------------------------- match */

/*
 * The moves one match has made so far (one rule, one direction, one
 * starting square), so that a move found again by another split of the
 * line among the pattern's groups is made once: each move a key (the
 * squares it changes and its name, or the writes it collects), in a
 * table whose entries of earlier matches are told apart by a stamp.
 */
struct seen_slot {
	uint64_t hash;
	uint32_t off, len, stamp;
};

struct seen {
	struct seen_slot *tab;
	size_t cap, n;
	uint32_t stamp;
	unsigned char *keys;   /* this match's keys, end to end */
	size_t klen, kcap;
	unsigned char key[3 * MAX_MATCH + 128];   /* the key being made */
};

void
grid_seen_free(const struct cg_host *h, void *seen)
{
	struct seen *sn = seen;

	if (sn == NULL)
		return;
	h->free(sn->tab);
	h->free(sn->keys);
	h->free(sn);
}

/* A new match: its table empty. */
static struct seen *
seen_begin(const struct cg_context *cx)
{
	struct rstate *st = cx->state;
	struct seen *sn = st->seen;

	if (sn == NULL) {
		if ((sn = cx->host->alloc(sizeof *sn)) == NULL)
			return NULL;
		memset(sn, 0, sizeof *sn);
		st->seen = sn;
	}
	if (++sn->stamp == 0) {
		if (sn->tab != NULL)
			memset(sn->tab, 0, sn->cap * sizeof *sn->tab);
		sn->stamp = 1;
	}
	sn->n = 0;
	sn->klen = 0;
	return sn;
}

static struct seen_slot *
seen_slot(struct seen *sn, const unsigned char *key, size_t n, uint64_t h)
{
	size_t i;

	for (i = h & (sn->cap - 1); sn->tab[i].stamp == sn->stamp;
	    i = (i + 1) & (sn->cap - 1))
		if (sn->tab[i].hash == h && sn->tab[i].len == n &&
		    memcmp(sn->keys + sn->tab[i].off, key, n) == 0)
			break;
	return &sn->tab[i];
}

/* 1 when this match has not made the move of key yet (it is noted), 0
 * when it has, or CG_ENOMEM. */
static int
seen_add(const struct cg_host *hs, struct seen *sn, const unsigned char *key,
    size_t n)
{
	struct seen_slot *e;
	uint64_t h = rules_hash(key, n, 0);
	size_t i;

	if (2 * (sn->n + 1) > sn->cap) {
		struct seen_slot *old = sn->tab, *t;
		size_t oc = sn->cap, nc = oc ? 2 * oc : 64;

		if ((t = hs->alloc(nc * sizeof *t)) == NULL)
			return CG_ENOMEM;
		memset(t, 0, nc * sizeof *t);
		sn->tab = t;
		sn->cap = nc;
		for (i = 0; i < oc; i++) {
			size_t j;

			if (old[i].stamp != sn->stamp)
				continue;
			for (j = old[i].hash & (nc - 1); t[j].stamp ==
			    sn->stamp; j = (j + 1) & (nc - 1))
				;
			t[j] = old[i];
		}
		hs->free(old);
	}
	e = seen_slot(sn, key, n, h);
	if (e->stamp == sn->stamp)
		return 0;
	if (sn->klen + n > sn->kcap) {
		size_t nc = 2 * sn->kcap + n + 4096;
		unsigned char *k = hs->realloc(sn->keys, nc);

		if (k == NULL)
			return CG_ENOMEM;
		sn->keys = k;
		sn->kcap = nc;
	}
	memcpy(sn->keys + sn->klen, key, n);
	e->hash = h;
	e->off = (uint32_t)sn->klen;
	e->len = (uint32_t)n;
	e->stamp = sn->stamp;
	sn->klen += n;
	sn->n++;
	return 1;
}

struct gm {
	const struct cg_context *cx;
	const struct rules *r;
	const struct rule *ru;
	const unsigned char *pos, *cells;
	size_t len;
	int rows, cols, d, dr, dc;
	int r0, c0;               /* the square the match starts on */
	struct match mt;
	unsigned char *child;     /* NULL: only find whether a move exists */
	cg_emit_fn emit;
	void *ctx;
	long m0;                  /* the position's measure, -1 not yet */
	int found, rc;            /* rc: CG_STOP or an error stops all */
	/* collecting moves (synchronized play): their writes */
	struct cg_buf *collect;
	/* with groups, two splits of the line may make one move */
	int dedupe;               /* this match's moves are made once */
	int nmade;                /* its moves so far */
	int first_n, first_elem[MAX_MATCH];   /* the first, kept aside */
	char first_name[128];
	struct seen *seen;        /* from the second on, every one */
	/* the conditions' patterns on this board: -1 not yet read, 0
	 * absent, 1 present */
	signed char occ[MAX_RULES];
};

/* The square of the match's j-th element. */
static int
cell_at(const struct gm *m, int j)
{
	return (m->r0 + j * m->dr) * m->cols + m->c0 + j * m->dc;
}

static size_t
cell_name(const struct gm *m, char *s, int k)
{
	int r = k / m->cols, c = k % m->cols;

	if (m->r->kind == BOARD_STRIP)
		return (size_t)snprintf(s, 8, "%d", c + 1);
	return grid_coord(s, r, c, m->rows);
}

static void
move_name(const struct gm *m, char *s, size_t cap)
{
	const struct rule *ru = m->ru;
	const struct match *mt = &m->mt;
	size_t w = 0;
	int j, last = -1, any = 0;

	for (j = 0; j < mt->n; j++)
		if (ru->e[mt->elem[j]].write >= 0)
			last = j;
	s[0] = '\0';
	if (ru->nname == 0) {
		for (j = 0; j < mt->n && w + 12 < cap; j++) {
			if (ru->e[mt->elem[j]].write < 0)
				continue;
			if (any++)
				s[w++] = '-';
			w += cell_name(m, s + w, cell_at(m, j));
		}
		s[w] = '\0';
		return;
	}
	for (j = 0; j < ru->nname && w + 20 < cap; j++) {
		const struct name_item *it = &ru->name[j];

		switch (it->kind) {
		case NT_TEXT:
			w += (size_t)snprintf(s + w, cap - w, "%s", it->text);
			break;
		case NT_CELL:
			if (it->cell < mt->n)
				w += cell_name(m, s + w, cell_at(m, it->cell));
			break;
		case NT_LAST:
			if (last >= 0)
				w += cell_name(m, s + w, cell_at(m, last));
			break;
		default:
			w += (size_t)snprintf(s + w, cap - w, "%s",
			    dir_name[m->d]);
			break;
		}
	}
	s[w < cap ? w : cap - 1] = '\0';
}

/* Collect the writes of a whole match: (cell, character) pairs, then a
 * terminator. */
static void
collect(struct gm *m)
{
	const struct cg_host *hs = m->cx->host;
	const struct rule *ru = m->ru;
	uint32_t rec[2];
	int j;

	for (j = 0; j < m->mt.n; j++) {
		int w = ru->e[m->mt.elem[j]].write;

		if (w < 0)
			continue;
		rec[0] = (uint32_t)cell_at(m, j);
		rec[1] = (uint32_t)w;
		if (hs->buf_put(m->collect, rec, sizeof rec) < 0) {
			m->rc = CG_ENOMEM;
			return;
		}
	}
	rec[0] = UINT32_MAX;
	rec[1] = 0;
	if (hs->buf_put(m->collect, rec, sizeof rec) < 0)
		m->rc = CG_ENOMEM;
}

/* The key of the move of a match (elements elem[0..n)): the squares of
 * the line it changes, each with its new character, then its name; or,
 * name NULL, every square it writes (a move collected).  Its length. */
static size_t
move_key(const struct gm *m, const int *elem, int n, const char *name,
    unsigned char *key)
{
	size_t w = 0, nl;
	int j, c;

	for (j = 0; j < n; j++) {
		if ((c = m->ru->e[elem[j]].write) < 0 ||
		    (name != NULL && c == m->cells[cell_at(m, j)]))
			continue;
		key[w++] = (unsigned char)(j & 0xff);
		key[w++] = (unsigned char)(j >> 8);
		key[w++] = (unsigned char)c;
	}
	if (name == NULL)
		return w;
	nl = strlen(name);
	memcpy(key + w, name, nl + 1);
	return w + nl + 1;
}

/* Is the move of this match (named name, or NULL when collected) one
 * another split of the line has not made?  1 it is, 0 it is not, or
 * CG_ENOMEM.  Most matches make one move: the first is kept aside, and
 * a table made when a second comes. */
static int
move_new(struct gm *m, const char *name)
{
	const struct cg_host *hs;
	struct seen *sn;
	int rc;

	if (!m->dedupe)
		return 1;
	if (m->nmade++ == 0) {
		memcpy(m->first_elem, m->mt.elem, (size_t)m->mt.n *
		    sizeof *m->mt.elem);
		m->first_n = m->mt.n;
		if (name != NULL)   /* (move_name() writes under 128) */
			memcpy(m->first_name, name, strlen(name) + 1);
		return 1;
	}
	hs = m->cx->host;
	if (m->nmade == 2) {
		if ((sn = seen_begin(m->cx)) == NULL)
			return CG_ENOMEM;
		m->seen = sn;
		rc = seen_add(hs, sn, sn->key, move_key(m, m->first_elem,
		    m->first_n, name != NULL ? m->first_name : NULL, sn->key));
		if (rc < 0)
			return rc;
	}
	sn = m->seen;
	return seen_add(hs, sn, sn->key, move_key(m, m->mt.elem, m->mt.n,
	    name, sn->key));
}

/* A whole match: make the move (or just note one exists). */
static void
complete(struct gm *m)
{
	const struct rule *ru = m->ru;
	unsigned char *cells;
	char name[128];
	int j, rc;

	m->found = 1;
	if (m->child == NULL && m->collect == NULL) {
		m->rc = CG_STOP;
		return;
	}
	if (m->collect != NULL) {
		if ((rc = move_new(m, NULL)) > 0)
			collect(m);
		else
			m->rc = rc;
		return;
	}
	cells = m->child + GRID_HDR;
	for (j = 0; j < m->mt.n; j++)
		if (ru->e[m->mt.elem[j]].write >= 0)
			cells[cell_at(m, j)] =
			    (unsigned char)ru->e[m->mt.elem[j]].write;
	move_name(m, name, sizeof name);
	if ((rc = move_new(m, name)) <= 0) {
		m->rc = rc;
		goto undo;
	}
	if (ru->check) {
		long after = measure_cells(m->r, cells, m->rows, m->cols);

		if (m->m0 < 0)
			m->m0 = measure_cells(m->r, m->cells, m->rows,
			    m->cols);
		if (after >= m->m0) {
			m->rc = m->cx->host->error(m->cx->err, 0, "%s:%lu: the "
			    "move %s does not decrease the measure (line %lu: "
			    "from %ld to %ld), so the game could go on for "
			    "ever", m->r->file, ru->line, name,
			    m->r->measure_line, m->m0, after);
			return;
		}
	}
	if (m->emit(m->ctx, m->child, m->len, name))
		m->rc = CG_STOP;
undo:
	for (j = 0; j < m->mt.n; j++)
		cells[cell_at(m, j)] = m->cells[cell_at(m, j)];
}

/* The squares from cell (r0, c0) to the edge along direction d, the
 * cell included. */
static int
line_len(int rows, int cols, int r0, int c0, int d)
{
	int len = 255 + 1, dr = dir_dr[d], dc = dir_dc[d];

	if (dr != 0)
		len = dr > 0 ? rows - r0 : r0 + 1;
	if (dc > 0 && cols - c0 < len)
		len = cols - c0;
	if (dc < 0 && c0 + 1 < len)
		len = c0 + 1;
	return len;
}

/* Every match of rule ru along direction d from cell k, or (pre) from
 * the edge just before cell k. */
static void
try_at(struct gm *m, const struct rule *ru, int d, int k, int pre)
{
	char sq[8];
	int rc, len, step, j;

	m->ru = ru;
	m->d = d;
	m->dr = dir_dr[d];
	m->dc = dir_dc[d];
	m->r0 = k / m->cols;
	m->c0 = k % m->cols;
	len = line_len(m->rows, m->cols, m->r0, m->c0, d);
	step = m->dr * m->cols + m->dc;
	m->dedupe = 0;
	if (!pre) {
		/* most tries end in the elements before the first group:
		 * those first, quickly */
		for (j = 0; j < ru->ne && ru->gof[j] < 0 && j < len; j++)
			if (!cs_has(&ru->e[j].match, m->cells[k + j * step]))
				return;
		if (j == ru->ne) {
			/* no group, every element on the board: the one
			 * match */
			for (j = 0; j < ru->ne; j++)
				m->mt.elem[j] = j;
			m->mt.n = ru->ne;
			complete(m);
			return;
		}
	}
	m->dedupe = ru->ng > 0 && m->cx != NULL;
	m->nmade = 0;
	match_start(&m->mt, ru, m->cells, k, step, len, NULL, pre);
	while ((rc = match_next(&m->mt)) > 0) {
		complete(m);
		if (m->rc)
			return;
	}
	if (rc == 0)
		return;
	/* too many splits: a component with such a match is kept (the
	 * moves, when asked for, say why they cannot be made) */
	if (m->cx == NULL) {
		m->found = 1;
		m->rc = CG_STOP;
		return;
	}
	cell_name(m, sq, k);
	m->cx->host->error(m->cx->err, 0, "%s:%lu: the rule's pattern "
	    "splits the line from square %s along %s in more than %d ways",
	    m->r->file, ru->line, sq, dir_name[d], MATCH_SPLITS);
	m->rc = CG_ELIMIT;
}

/* Is cell k the first of its line along direction d (the square before
 * it beyond the board)? */
static int
line_starts(const struct gm *m, int d, int k)
{
	int r = k / m->cols - dir_dr[d], c = k % m->cols - dir_dc[d];

	return r < 0 || r >= m->rows || c < 0 || c >= m->cols;
}

/* Every match of rule ru along direction d anchored at cell k: from the
 * edge before it (when k starts its line), then from k itself. */
static void
try_cell(struct gm *m, const struct rule *ru, int d, int k)
{
	if (ru->lead && line_starts(m, d, k)) {
		try_at(m, ru, d, k, 1);
		if (m->rc)
			return;
	}
	if (cs_has(&ru->first, m->cells[k]))
		try_at(m, ru, d, k, 0);
}

static void gm_init(struct gm *m, const struct cg_context *cx,
    const struct rules *r, const unsigned char *pos, size_t len, int rows,
    int cols);

/* A pattern without groups that does not start on the edge, read from
 * cell k along a line of len squares, step apart: does it match?  Only
 * its last element may be the edge (the reader allows no other). */
static int
plain_at(const struct rule *c, const unsigned char *cells, int k, int step,
    int len)
{
	int j;

	for (j = 0; j < c->ne; j++) {
		if (j >= len)
			return c->e[j].edge;
		if (!cs_has(&c->e[j].match, cells[k + j * step]))
			return 0;
	}
	return 1;
}

int
grid_pattern_occurs(const struct cg_context *cx, const struct rule *c,
    const unsigned char *pos, size_t len, int rows, int cols)
{
	const unsigned char *cells = pos + GRID_HDR;
	struct gm s;
	int N = rows * cols, k, j, d;

	/* the common case (a line of pieces) without the matcher's set-up:
	 * results are asked of every position of a search */
	if (c->ng == 0 && !c->lead) {
		for (k = 0; k < N; k++) {
			if (!cs_has(&c->first, cells[k]))
				continue;
			for (j = 0; j < c->ndirs; j++) {
				d = c->dirs[j];
				if (plain_at(c, cells, k, dir_dr[d] * cols +
				    dir_dc[d], line_len(rows, cols, k / cols,
				    k % cols, d)))
					return 1;
			}
		}
		return 0;
	}
	gm_init(&s, cx, rules_of(cx), pos, len, rows, cols);
	for (k = 0; k < N && !s.rc; k++)
		for (j = 0; j < c->ndirs && !s.rc; j++)
			try_cell(&s, c, c->dirs[j], k);
	return s.rc < 0 ? s.rc : s.found;
}

/* Does condition pattern c occur on m's board? */
static int
occurs(struct gm *m, const struct rule *c)
{
	int rc = grid_pattern_occurs(m->cx, c, m->pos, m->len, m->rows,
	    m->cols);

	if (rc < 0)
		m->rc = rc;
	return rc > 0;
}

/* Do rule ru's conditions hold on m's board? */
static int
allowed(struct gm *m, const struct rule *ru)
{
	int i, p;

	for (i = 0; i < ru->ncond && !m->rc; i++) {
		p = ru->cond[i].pat;
		if (m->occ[p] < 0)
			m->occ[p] = (signed char)occurs(m, &m->r->cond[p]);
		if (m->occ[p] == ru->cond[i].negate)
			return 0;
	}
	return !m->rc;
}

static int
side_bit(enum cg_side side)
{
	return side == CG_LEFT ? SIDE_LEFT : SIDE_RIGHT;
}

/* Run every rule of side over the board. */
static void
each_move(struct gm *m, enum cg_side side)
{
	const struct rules *r = m->r;
	int N = m->rows * m->cols, k, i, j, bit = side_bit(side);

	if (r->order_rules) {
		for (i = 0; i < r->nrule && !m->rc; i++) {
			const struct rule *ru = &r->rule[i];

			if (!(ru->side & bit) || (ru->ncond > 0 &&
			    !allowed(m, ru)))
				continue;
			for (j = 0; j < ru->ndirs && !m->rc; j++)
				for (k = 0; k < N && !m->rc; k++)
					try_cell(m, ru, ru->dirs[j], k);
		}
		return;
	}
	for (k = 0; k < N && !m->rc; k++)
		for (i = 0; i < r->nrule && !m->rc; i++) {
			const struct rule *ru = &r->rule[i];

			if (!(ru->side & bit) || (!ru->lead &&
			    !cs_has(&ru->first, m->cells[k])) ||
			    (ru->ncond > 0 && !allowed(m, ru)))
				continue;
			for (j = 0; j < ru->ndirs && !m->rc; j++)
				try_cell(m, ru, ru->dirs[j], k);
		}
}

static void
gm_init(struct gm *m, const struct cg_context *cx, const struct rules *r,
    const unsigned char *pos, size_t len, int rows, int cols)
{
	m->cx = cx;
	m->r = r;
	m->pos = pos;
	m->len = len;
	m->cells = pos + GRID_HDR;
	m->rows = rows;
	m->cols = cols;
	m->child = NULL;
	m->collect = NULL;
	m->m0 = -1;
	m->found = 0;
	m->rc = 0;
	if (r->ncond > 0)
		memset(m->occ, -1, (size_t)r->ncond);
}

int
grid_hooks_options(const struct cg_context *cx, const unsigned char *pos,
    size_t len, enum cg_side side, cg_emit_fn emit, void *ctx)
{
	struct rstate *st = cx->state;
	struct gm m;
	int rows, cols, rc;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	if (st->r->result) {
		/* a position that is over has no moves */
		int over;

		if ((rc = ends_over(cx, pos, len, &over)) < 0 || over)
			return rc;
	}
	if ((rc = state_child(cx, len)) < 0)
		return rc;
	/* Without components every position is searched whole, and long
	 * rows take exponential time: the user hears of it before (not for
	 * a file with conditions, whose positions cannot be split).  Asked
	 * here, not in parse(), so that only the tool that searches says
	 * it; the state's flag spares the host's list each later call. */
	if (cols > LONG_ROW && !st->warned_rows && st->r->wall < 0 &&
	    !st->r->frozen && st->r->ncond == 0 &&
	    CG_HOST_HAS(cx->host, warn) &&
	    cx->host->warn != NULL) {
		st->warned_rows = 1;
		cx->host->warn("%s: rows of more than %d cells and no "
		    "'components' line: each position is searched whole, in "
		    "time that grows exponentially with the row (see cgr(5), "
		    "Components and symmetry)", st->r->file, LONG_ROW);
	}
	gm_init(&m, cx, st->r, pos, len, rows, cols);
	m.child = st->child;
	memcpy(m.child, pos, len);
	m.emit = emit;
	m.ctx = ctx;
	each_move(&m, side);
	return m.rc;
}

/* grid.h's keep: does either player have a move in this component? */
int
grid_keep_rules(const struct grid_game *g, const unsigned char *board,
    size_t n)
{
	const struct rules *r = (const struct rules *)(const void *)
	    ((const char *)g - offsetof(struct rules, gg));
	struct gm m;
	int side, found = 0;

	(void)n;
	for (side = CG_LEFT; side <= CG_RIGHT && !found; side++) {
		gm_init(&m, NULL, r, board, GRID_HDR + (size_t)board[0] *
		    board[1], board[0], board[1]);
		each_move(&m, (enum cg_side)side);
		found = m.found;
	}
	return found;
}

int
grid_hooks_canonical(const struct cg_context *cx, const unsigned char *pos,
    size_t len, struct cg_buf *out)
{
	const struct rules *r = rules_of(cx);
	int rows, cols, rc;

	if (r->wall >= 0)
		return grid_canonical(cx, &r->gg, pos, len, out);
	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	return grid_put_min(cx, &r->gg, pos, out);
}

int
grid_hooks_decompose(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_fn emit, void *ctx)
{
	return grid_decompose(cx, &rules_of(cx)->gg, pos, len, emit, ctx);
}

/* ------------------------------------------------------------ family */

/* Every board of rows x cols over the family's cells, once up to the
 * symmetries: an odometer over the characters in byte order. */
static int
enum_boards(const struct cg_context *cx, const struct rules *r, int rows,
    int cols, cg_emit_fn emit, void *ctx)
{
	unsigned char alpha[MAX_CELLS], board[GRID_HDR + 255 * 16];
	int na = 0, c, N = rows * cols, k, digit[255 * 16];

	for (c = 1; c < 256; c++)
		if (cs_has(&r->family_cells, (unsigned char)c))
			alpha[na++] = (unsigned char)c;
	board[0] = (unsigned char)rows;
	board[1] = (unsigned char)cols;
	for (k = 0; k < N; k++) {
		digit[k] = 0;
		board[GRID_HDR + k] = alpha[0];
	}
	for (;;) {
		if (grid_sym_best(board, r->nsym) == 0 &&
		    emit(ctx, board, GRID_HDR + (size_t)N, NULL))
			return CG_STOP;
		for (k = N - 1; k >= 0 && digit[k] == na - 1; k--) {
			digit[k] = 0;
			board[GRID_HDR + k] = alpha[0];
		}
		if (k < 0)
			return CG_OK;
		board[GRID_HDR + k] = alpha[++digit[k]];
	}
	(void)cx;
}

/* Grids: "RxC", every board of at most R rows and C columns; strips:
 * "N", every strip of 1..N squares.  At most 2^24 boards. */
int
grid_hooks_enumerate(const struct cg_context *cx, const char *family,
    cg_emit_fn emit, void *ctx)
{
	const struct rules *r = rules_of(cx);
	uint32_t R = 1, C, na = 0;
	double total = 0;
	int i, j, c, rc;

	for (c = 1; c < 256; c++)
		na += cs_has(&r->family_cells, (unsigned char)c);
	if (r->kind == BOARD_STRIP) {
		if (family_n(family, 255, &C) < 0)
			return cx->host->error(cx->err, 0, "bad family '%s' "
			    "(expected a strip length N, 1..255)",
			    family ? family : "");
	} else if (family_rxc(family, 16, &R, &C) < 0) {
		return cx->host->error(cx->err, 0, "bad family '%s' (expected "
		    "a box RxC, at most 16x16)", family ? family : "");
	}
	for (i = 1; i <= (int)R; i++)
		for (j = 1; j <= (int)C; j++) {
			double b = 1;

			for (c = 0; c < i * j && b < 1e12; c++)
				b *= na;
			total += b;
		}
	if (total > (double)(1 << 24))
		return cx->host->error(cx->err, 0, "family '%s' has about "
		    "%.3g boards (at most %d)", family, total, 1 << 24);
	for (i = 1; i <= (int)R; i++)
		for (j = 1; j <= (int)C; j++)
			if (i * j <= 255 * 16 &&
			    (rc = enum_boards(cx, r, i, j, emit, ctx)) != CG_OK)
				return rc;
	return CG_OK;
}

/* ------------------------------------------------------ synchronized */

/* Joint options: Left's i-th and Right's j-th move made at once; a cell
 * both change must get the same character from both. */
int
grid_hooks_synch(const struct cg_context *cx, const unsigned char *pos,
    size_t len, cg_emit_joint_fn emit, void *ctx)
{
	struct rstate *st = cx->state;
	struct cg_buf mv[2] = { { 0 }, { 0 } };
	struct gm *m;
	size_t a, b, nl = 0, nr = 0, i, j;
	uint32_t *la, *lb;
	unsigned char *child = NULL;
	int rows, cols, rc, s;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	m = cx->host->alloc(sizeof *m);
	child = cx->host->alloc(len);
	if (m == NULL || child == NULL) {
		rc = CG_ENOMEM;
		goto done;
	}
	for (s = 0; s < 2; s++) {
		gm_init(m, cx, st->r, pos, len, rows, cols);
		m->collect = &mv[s];
		each_move(m, (enum cg_side)s);
		if (m->rc < 0) {
			rc = m->rc;
			goto done;
		}
	}
	/* move starts */
	for (a = 0; a < mv[0].len; a += 8)
		nl += ((uint32_t *)(void *)(mv[0].data + a))[0] == UINT32_MAX;
	for (a = 0; a < mv[1].len; a += 8)
		nr += ((uint32_t *)(void *)(mv[1].data + a))[0] == UINT32_MAX;
	rc = CG_OK;
	la = (uint32_t *)(void *)mv[0].data;
	for (i = 0; i < nl && rc == CG_OK; i++) {
		lb = (uint32_t *)(void *)mv[1].data;
		for (j = 0; j < nr && rc == CG_OK; j++) {
			memcpy(child, pos, len);
			for (a = 0; la[2 * a] != UINT32_MAX; a++)
				child[GRID_HDR + la[2 * a]] =
				    (unsigned char)la[2 * a + 1];
			for (b = 0; lb[2 * b] != UINT32_MAX; b++) {
				uint32_t k = lb[2 * b];

				for (a = 0; la[2 * a] != UINT32_MAX; a++)
					if (la[2 * a] == k && la[2 * a + 1] !=
					    lb[2 * b + 1]) {
						char nm[8];

						cell_name(m, nm, (int)k);
						rc = cx->host->error(cx->err, 0,
						    "%s: moves made at once "
						    "give cell %s two "
						    "characters",
						    st->r->file, nm);
					}
				child[GRID_HDR + k] =
				    (unsigned char)lb[2 * b + 1];
			}
			if (rc == CG_OK && emit(ctx, i, j, child, len))
				rc = CG_STOP;
			lb += 2 * (b + 1);
		}
		for (a = 0; la[2 * a] != UINT32_MAX; a++)
			;
		la += 2 * (a + 1);
	}
done:
	cx->host->free(m);
	cx->host->free(child);
	cx->host->free(mv[0].data);
	cx->host->free(mv[1].data);
	return rc;
}

/* ------------------------------------------------- decided positions */

/*
 * A decided position (at most one player can move) is worth the longest
 * run of moves its player can make alone, positive for Left: the value
 * cg-synch gives a decided node of a document too.  Runs are searched
 * depth first, component by component, remembered per state.
 */
struct memo_ent {
	uint64_t hash;
	uint32_t off, len;
	int64_t val;
};

struct memo {
	struct memo_ent *tab;
	size_t cap, n;
	unsigned char *arena;
	size_t alen, acap;
};

#define MEMO_MAX   (1u << 22)          /* positions remembered */
#define MEMO_BYTES ((size_t)1 << 26)  /* their bytes */

/* A position's memo key for side to move; 0 marks an empty slot. */
static inline uint64_t
memo_hash(const unsigned char *p, size_t n, int side)
{
	return rules_hash(p, n, (uint64_t)side) | 1;
}

static struct memo_ent *
memo_find(struct memo *mm, const unsigned char *p, size_t n, uint64_t h)
{
	size_t i;

	if (mm->cap == 0)
		return NULL;
	for (i = h & (mm->cap - 1); mm->tab[i].hash != 0;
	    i = (i + 1) & (mm->cap - 1))
		if (mm->tab[i].hash == h && mm->tab[i].len == n &&
		    memcmp(mm->arena + mm->tab[i].off, p, n) == 0)
			return &mm->tab[i];
	return &mm->tab[i];
}

static int
memo_put(const struct cg_host *hs, struct memo *mm, const unsigned char *p,
    size_t n, uint64_t h, int64_t val)
{
	struct memo_ent *e;
	size_t i;

	if (mm->n + 1 > MEMO_MAX || mm->alen + n > MEMO_BYTES)
		return CG_ELIMIT;
	if (2 * (mm->n + 1) > mm->cap) {
		struct memo_ent *old = mm->tab;
		size_t oc = mm->cap;

		mm->cap = oc ? 2 * oc : 1024;
		mm->tab = hs->alloc(mm->cap * sizeof *mm->tab);
		if (mm->tab == NULL) {
			mm->tab = old;
			mm->cap = oc;
			return CG_ENOMEM;
		}
		memset(mm->tab, 0, mm->cap * sizeof *mm->tab);
		for (i = 0; i < oc; i++)
			if (old[i].hash != 0) {
				size_t j = old[i].hash & (mm->cap - 1);

				while (mm->tab[j].hash != 0)
					j = (j + 1) & (mm->cap - 1);
				mm->tab[j] = old[i];
			}
		hs->free(old);
	}
	if (mm->alen + n > mm->acap) {
		size_t nc = (mm->acap ? 2 * mm->acap : 65536) + n;
		unsigned char *a;

		if (nc > MEMO_BYTES)
			nc = MEMO_BYTES;
		if ((a = hs->realloc(mm->arena, nc)) == NULL)
			return CG_ENOMEM;
		mm->arena = a;
		mm->acap = nc;
	}
	e = memo_find(mm, p, n, h);
	memcpy(mm->arena + mm->alen, p, n);
	e->hash = h;
	e->off = (uint32_t)mm->alen;
	e->len = (uint32_t)n;
	e->val = val;
	mm->alen += n;
	mm->n++;
	return CG_OK;
}

void
grid_memo_free(const struct cg_host *h, void *memo)
{
	struct memo *mm = memo;

	if (mm == NULL)
		return;
	h->free(mm->tab);
	h->free(mm->arena);
	h->free(mm);
}

/* Forget every position remembered. */
static void
memo_clear(struct memo *mm)
{
	if (mm->tab != NULL)
		memset(mm->tab, 0, mm->cap * sizeof *mm->tab);
	mm->n = 0;
	mm->alen = 0;
}

/*
 * The longest run of side's moves from pos, into *best: depth first, with
 * a stack of its own, as a run is as long as the board lets it be (on a
 * board of 4x255 squares, thousands of moves).  A frame is a position
 * and its moves not yet tried, kept end to end in one buffer (each
 * position padded to a multiple of 8 bytes, so its moves' records are
 * aligned); a position whose every move has been tried is remembered.
 */
struct lframe {
	size_t pos;            /* the position's offset in the buffer */
	size_t next, end;      /* its moves not yet tried */
	int64_t best;          /* the longest run from it so far */
};

#define LONGEST_BYTES ((size_t)1 << 28)   /* the frames' buffer at most */

static int
longest_limit(const struct cg_context *cx, enum cg_side side, const char *why)
{
	cx->host->error(cx->err, 0, "%s: the longest run of %s's moves is "
	    "beyond this search (%s)", ((struct rstate *)cx->state)->r->file,
	    side == CG_LEFT ? "Left" : "Right", why);
	return CG_ELIMIT;
}

static int
longest(const struct cg_context *cx, const unsigned char *pos, size_t len,
    enum cg_side side, int64_t *best)
{
	const struct cg_host *hs = cx->host;
	struct rstate *st = cx->state;
	struct memo *mm = st->memo;
	struct cg_buf stk = { 0 }, frames = { 0 };
	struct lframe fr, *f;
	struct memo_ent *e;
	struct gm *m;
	unsigned char *child;
	const uint32_t *w;
	size_t nf = 0, plen = (len + 7) & ~(size_t)7, cells = len - GRID_HDR;
	/* a run longer than cells squared (every piece moved across the
	 * board) never ends: the rules let a move come back to where it
	 * was (fuzz_rules) */
	size_t deepest = cells * cells + 1;
	static const unsigned char pad[8];
	char why[64];
	int64_t val;
	int rc;

	e = memo_find(mm, pos, len, memo_hash(pos, len, side));
	if (e != NULL && e->hash != 0) {
		*best = e->val;
		return CG_OK;
	}
	m = hs->alloc(sizeof *m);
	child = hs->alloc(len);
	if (m == NULL || child == NULL) {
		rc = CG_ENOMEM;
		goto done;
	}
	memcpy(child, pos, len);
	for (;;) {
		/* push the child: its position, then its moves */
		if (nf > deepest || stk.len > LONGEST_BYTES) {
			snprintf(why, sizeof why, "more than %zu moves deep",
			    nf);
			rc = longest_limit(cx, side, why);
			goto done;
		}
		fr.pos = stk.len;
		if (hs->buf_put(&stk, child, len) < 0 ||
		    hs->buf_put(&stk, pad, plen - len) < 0) {
			rc = CG_ENOMEM;
			goto done;
		}
		gm_init(m, cx, st->r, child, len, child[0], child[1]);
		m->collect = &stk;
		each_move(m, side);
		if (m->rc < 0) {
			rc = m->rc;
			goto done;
		}
		fr.next = fr.pos + plen;
		fr.end = stk.len;
		fr.best = 0;
		if (hs->buf_put(&frames, &fr, sizeof fr) < 0) {
			rc = CG_ENOMEM;
			goto done;
		}
		nf++;
		/* the top frame's next move, to a position not remembered */
		for (;;) {
			f = (struct lframe *)(void *)frames.data + nf - 1;
			if (f->next == f->end) {
				/* every move tried: remember, pop */
				val = f->best;
				rc = memo_put(hs, mm, stk.data + f->pos, len,
				    memo_hash(stk.data + f->pos, len, side),
				    val);
				if (rc == CG_ELIMIT)
					rc = longest_limit(cx, side, "more "
					    "positions than it can remember");
				if (rc < 0)
					goto done;
				stk.len = f->pos;
				frames.len -= sizeof fr;
				if (--nf == 0) {
					*best = val;
					goto done;
				}
				f--;
				if (val + 1 > f->best)
					f->best = val + 1;
				continue;
			}
			memcpy(child, stk.data + f->pos, len);
			w = (const uint32_t *)(void *)(stk.data + f->next);
			for (; w[0] != UINT32_MAX; w += 2, f->next += 8)
				child[GRID_HDR + w[0]] = (unsigned char)w[1];
			f->next += 8;
			e = memo_find(mm, child, len, memo_hash(child, len,
			    side));
			if (e == NULL || e->hash == 0)
				break;
			if (e->val + 1 > f->best)
				f->best = e->val + 1;
		}
	}
done:
	hs->free(m);
	hs->free(child);
	hs->free(stk.data);
	hs->free(frames.data);
	return rc;
}

struct comp_sum {
	const struct cg_context *cx;
	enum cg_side side;
	int64_t total;
	int rc;
};

static int
add_component(void *arg, const unsigned char *pos, size_t len,
    const char *move)
{
	struct comp_sum *c = arg;
	int64_t v;

	(void)move;
	if ((c->rc = longest(c->cx, pos, len, c->side, &v)) < 0)
		return 1;
	c->total += v;
	return 0;
}

int
grid_hooks_decided(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *num, int64_t *den)
{
	struct rstate *st = cx->state;
	struct comp_sum c = { cx, CG_LEFT, 0, CG_OK };
	struct gm m;
	int rows, cols, rc, can[2], s;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	for (s = 0; s < 2; s++) {
		gm_init(&m, cx, st->r, pos, len, rows, cols);
		each_move(&m, (enum cg_side)s);
		if (m.rc < 0)
			return m.rc;
		can[s] = m.found;
	}
	if (can[0] && can[1]) {
		cx->host->error(cx->err, 0, "position is not decided (both "
		    "players can move)");
		return CG_EUNSUPPORTED;
	}
	*num = 0;
	*den = 1;
	if (!can[0] && !can[1])
		return CG_OK;
	if (st->memo == NULL) {
		st->memo = cx->host->alloc(sizeof(struct memo));
		if (st->memo == NULL)
			return CG_ENOMEM;
		memset(st->memo, 0, sizeof(struct memo));
	}
	/* a cache: each position's search has at least half of it */
	if (((struct memo *)st->memo)->n > MEMO_MAX / 2 ||
	    ((struct memo *)st->memo)->alen > MEMO_BYTES / 2)
		memo_clear(st->memo);
	c.side = can[0] ? CG_LEFT : CG_RIGHT;
	if (st->r->wall >= 0)
		rc = grid_decompose(cx, &st->r->gg, pos, len, add_component, &c);
	else
		rc = add_component(&c, pos, len, NULL) ? CG_STOP : CG_OK;
	if (c.rc < 0)
		return c.rc;
	if (rc < 0)
		return rc;
	*num = can[0] ? c.total : -c.total;
	return CG_OK;
}

/* Search order: smaller measures first (the measure bounds the moves
 * left, so small games are solved before big ones). */
int
grid_hooks_order_key(const struct cg_context *cx, const unsigned char *pos,
    size_t len, int64_t *key)
{
	int rows, cols, rc;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	*key = measure_cells(rules_of(cx), pos + GRID_HDR, rows, cols);
	return CG_OK;
}

/* The file's measure, for the engines' ordering (every move decreases
 * it, and a component cut out of the board has no more than in place:
 * cropping only shortens distances to the edge). */
int
grid_hooks_measure(const struct cg_context *cx, const unsigned char *pos,
    size_t len, uint64_t *m)
{
	int rows, cols, rc;

	if ((rc = grid_dims(cx, pos, len, &rows, &cols)) < 0)
		return rc;
	*m = (uint64_t)measure_cells(rules_of(cx), pos + GRID_HDR, rows, cols);
	return CG_OK;
}

