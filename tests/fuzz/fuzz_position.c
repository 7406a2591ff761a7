/*
 * fuzz_position.c - libFuzzer target for one ruleset's hooks, built with
 * the plugin's sources compiled in (-DCG_STATIC_PLUGIN) and
 * -DFUZZ_ENTRY=cg_ruleset_entry_NAME.
 *
 * Input: an optional first line ":PARAMS" (passed to init), then the
 * position text.  When parse accepts the text, the ABI's promises are
 * checked and a broken one aborts (a finding):
 *   - an error names a column inside the text (1 .. len + 1) or none;
 *   - parse(print(p)) == p;
 *   - canonical(canonical(p)) == canonical(p), and it prints and parses;
 *   - every option (the first few hundred) prints and parses back;
 *   - every component of decompose() prints and parses back;
 *   - cg.move-counts: safe <= sure <= most, sure <= first <= most, a
 *     side sure of a move has an option and a side with an option has
 *     most > 0;
 *   - cg.search-order emits what options emits (names and children), in
 *     any order;
 *   - cg.value answers a value or "none", never an error;
 *   - cg.bit-search: a position it packs has as many options as
 *     options() gives, none of them a zero mask, bounds in the order of
 *     the move counts' (most no less than the counts' sure), and
 *     unpacks to bytes that print.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgx/bitsearch.h"
#include "cg/conjugate.h"
#include "cgx/movecounts.h"
#include "cgx/searchorder.h"
#include "cg/ruleset.h"
#include "cg/value.h"
#include "host/plugin.h"

#include "abi_promises.h"

const struct cg_ruleset *FUZZ_ENTRY(uint32_t host_abi,
    const struct cg_host *host);

#define MAX_EMITS 300

static const struct cg_ruleset *rs;
static struct cg_error err;
static struct cg_context cx;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	rs = FUZZ_ENTRY(CG_ABI_VERSION, cg_host());
	if (rs == NULL || rs->abi_version != CG_ABI_VERSION) {
		fprintf(stderr, "fuzz_position: ruleset refuses the host\n");
		abort();
	}
	cx.host = cg_host();
	cx.err = &err;
	return 0;
}

/* The promises of the ruleset under test (abi_promises.h). */
static const struct promises pr = { &rs, &cx, &err, NULL };
#define fail(what, pos, len) promise_broken(&pr, what, pos, len)
#define check_print(pos, len, what) promise_print(&pr, pos, len, what)
#define HAS(field) promise_has(&pr, \
	offsetof(struct cg_ruleset, field), sizeof rs->field, \
	(const void *)rs->field)


struct emits {
	int n;
	const char *what;
};

static int
on_emit(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct emits *e = ctx;

	if (move != NULL && (strchr(move, '\t') || strchr(move, '\n')))
		fail("move name with a TAB or newline", pos, len);
	check_print(pos, len, e->what);
	return ++e->n >= MAX_EMITS;
}

/* Every emission as one string, move name then child bytes. */
struct listing {
	char **item;
	size_t n, cap;
};

#define MAX_LISTED 4000

static int
on_list(void *ctx, const unsigned char *pos, size_t len, const char *move)
{
	struct listing *l = ctx;
	size_t ml = move ? strlen(move) : 0;
	char *it;

	if (l->n == MAX_LISTED)
		return 1;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->item = realloc(l->item, l->cap * sizeof *l->item);
	}
	it = malloc(ml + 2 * len + 2);
	memcpy(it, move ? move : "", ml);
	it[ml] = '\t';
	for (size_t i = 0; i < len; i++) {   /* hex: no NUL inside */
		it[ml + 1 + 2 * i] = "0123456789abcdef"[pos[i] >> 4];
		it[ml + 2 + 2 * i] = "0123456789abcdef"[pos[i] & 15];
	}
	it[ml + 1 + 2 * len] = '\0';
	l->item[l->n++] = it;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
listing_free(struct listing *l)
{
	while (l->n > 0)
		free(l->item[--l->n]);
	free(l->item);
}

/* The search order's options(s) and options(s) emit the same multiset. */
static void
check_search_order(const struct cg_search_order *so, const struct cg_buf *pos)
{
	struct listing a, b;
	size_t i;
	int s, ra, rb;

	for (s = 0; s < 2; s++) {
		memset(&a, 0, sizeof a);
		memset(&b, 0, sizeof b);
		ra = rs->options(&cx, pos->data, pos->len, (enum cg_side)s,
		    on_list, &a);
		rb = so->options(&cx, pos->data, pos->len, (enum cg_side)s,
		    on_list, &b);
		if (ra == CG_OK && rb == CG_OK && a.n < MAX_LISTED &&
		    b.n < MAX_LISTED) {
			if (a.n > 1)
				qsort(a.item, a.n, sizeof *a.item, cmp_str);
			if (b.n > 1)
				qsort(b.item, b.n, sizeof *b.item, cmp_str);
			if (a.n != b.n)
				fail("search order: another number of "
				    "options", pos->data, pos->len);
			for (i = 0; i < a.n; i++)
				if (strcmp(a.item[i], b.item[i]) != 0)
					fail("search order: another "
					    "option", pos->data, pos->len);
		} else if ((ra == CG_OK) != (rb == CG_OK))
			fail("search order fails where options does not",
			    pos->data, pos->len);
		listing_free(&a);
		listing_free(&b);
	}
}

/* The host's verdict on one component's bounds with side x to move
 * (cgx/movecounts.h): 1 x wins, 0 x loses, -1 neither. */
static int
bounds_verdict(const struct cg_move_bounds *b, int x)
{
	int y = !x, room = (b->flags & CG_BOUNDS_ROOM) != 0;
	uint64_t first = (b->flags & CG_BOUNDS_FIRST) && b->first[x] >
	    b->sure[x] ? b->first[x] : b->sure[x];

	if (first > b->most[y] || (room && 2 * (uint64_t)b->sure[x] +
	    cg_bounds_room_lead(b, x) > b->room[x]))
		return 1;
	if (b->sure[y] >= b->most[x] || (room && 2 * (uint64_t)b->sure[y] +
	    1 > b->room[y]))
		return 0;
	return -1;
}

/* swap(): an image whose swap is the state again, where each side has
 * the options and the verdicts the other has in the state (the players
 * trade places). */
static void
check_swap(const struct cg_bit_search *bx, const struct cg_context *c,
    const struct cg_bit_shape *sh, const uint64_t *st, const long nopt[2],
    const struct cg_buf *pos)
{
	uint64_t img[CG_BIT_WORDS], again[CG_BIT_WORDS], *masks;
	int s, n;

	if (bx->swap(c, sh, st, img) != 1)
		return;
	if (bx->swap(c, sh, img, again) != 1 || memcmp(again, st, sh->words *
	    sizeof *st) != 0)
		fail("bit search: swap twice is not the state", pos->data,
		    pos->len);
	masks = malloc((size_t)sh->max_options * sh->words * sizeof *masks);
	for (s = 0; s < 2; s++) {
		n = bx->options(c, sh, img, (enum cg_side)!s, masks);
		if (nopt[s] >= 0 && nopt[s] < MAX_EMITS && n != nopt[s])
			fail("bit search: the swapped state's other side has "
			    "not as many options", pos->data, pos->len);
		if (bx->struct_size >= offsetof(struct cg_bit_search, settle) +
		    sizeof bx->settle && bx->settle != NULL &&
		    bx->settle(c, sh, st, (enum cg_side)s) != bx->settle(c, sh,
		    img, (enum cg_side)!s))
			fail("bit search: settle differs on the swapped state "
			    "with the other side to move", pos->data, pos->len);
	}
	free(masks);
}

/* conjugate(): a position where each side has the options the other
 * has in pos, and whose conjugate is pos again (as canonical bytes). */
static void
check_conjugate(const struct cg_conjugate *cj, const struct cg_buf *pos,
    const long nopt[2])
{
	struct cg_buf once, twice, a, b;
	struct emits e;
	int s;

	cg_buf_init(&once);
	cg_buf_init(&twice);
	cg_buf_init(&a);
	cg_buf_init(&b);
	if (cj->conjugate(&cx, pos->data, pos->len, &once) != CG_OK ||
	    cj->conjugate(&cx, once.data, once.len, &twice) != CG_OK)
		fail("conjugate fails", pos->data, pos->len);
	else if (HAS(canonical) && (rs->canonical(&cx, pos->data, pos->len,
	    &a) < 0 || rs->canonical(&cx, twice.data, twice.len, &b) < 0 ||
	    a.len != b.len || memcmp(a.data, b.data, a.len) != 0))
		fail("conjugate twice is not the position", pos->data,
		    pos->len);
	else
		for (s = 0; s < 2; s++) {
			memset(&e, 0, sizeof e);
			e.what = "conjugate's option";
			if (rs->options(&cx, once.data, once.len,
			    (enum cg_side)!s, on_emit, &e) >= 0 &&
			    nopt[s] >= 0 && nopt[s] < MAX_EMITS &&
			    (long)e.n != nopt[s])
				fail("the conjugate's other side has not as "
				    "many options", pos->data, pos->len);
		}
	cg_buf_free(&once);
	cg_buf_free(&twice);
	cg_buf_free(&a);
	cg_buf_free(&b);
}

/* The cg.bit-search promises for pos packed as one component. */
static void
check_bit_search(const struct cg_bit_search *bx, const struct cg_buf *pos,
    const long nopt[2], const struct cg_move_bounds *counts)
{
	const unsigned char *comp = pos->data;
	struct cg_bit_shape sh;
	struct cg_move_bounds b;
	struct cg_buf out;
	uint64_t st[CG_BIT_WORDS], *masks;
	size_t j, k;
	int s, n, zero;

	memset(&sh, 0, sizeof sh);
	if (bx->pack(&cx, &comp, &pos->len, 1, &sh, st) != CG_OK)
		return;
	if (sh.words == 0 || sh.words > CG_BIT_WORDS || sh.max_options == 0 ||
	    sh.max_options > 1u << 16) {
		fail("bit search: a shape out of bounds", pos->data, pos->len);
		return;
	}
	sh.flags |= CG_BIT_FIRST_ROOM;   /* as the host: b reaches first_room */
	masks = malloc((size_t)sh.max_options * sh.words * sizeof *masks);
	for (s = 0; s < 2; s++) {
		n = bx->options(&cx, &sh, st, (enum cg_side)s, masks);
		if (n < 0 || (uint32_t)n > sh.max_options)
			fail("bit search: options fail or pass max_options",
			    pos->data, pos->len);
		else if (nopt[s] >= 0 && nopt[s] < MAX_EMITS && n != nopt[s])
			fail("bit search: not as many options as options()",
			    pos->data, pos->len);
		for (k = 0; n > 0 && k < (size_t)n; k++) {
			for (zero = 1, j = 0; j < sh.words; j++)
				zero &= masks[k * sh.words + j] == 0;
			if (zero)
				fail("bit search: an option that changes "
				    "nothing", pos->data, pos->len);
		}
	}
	free(masks);
	memset(&b, 0, sizeof b);
	bx->bounds(&cx, &sh, st, &b);
	for (s = 0; s < 2; s++)
		if (b.safe[s] > b.sure[s] || b.sure[s] > b.most[s] ||
		    ((b.flags & CG_BOUNDS_ROOM) && b.sure[s] > b.room[s]) ||
		    ((b.flags & CG_BOUNDS_FIRST) && b.first[s] < b.sure[s]) ||
		    ((b.flags & CG_BOUNDS_FIRST_ROOM) && (b.first_sure[s] <
		    b.sure[s] || b.first_sure[s] > b.first_room[s] ||
		    (nopt[s] == 0 && b.first_sure[s] > 0))) ||
		    (nopt[s] == 0 && b.sure[s] > 0) ||
		    (nopt[s] > 0 && b.most[s] == 0) ||
		    (counts != NULL && b.most[s] < counts->sure[s]))
			fail("bit search: bounds out of order, or against the "
			    "options or the move counts", pos->data, pos->len);
	if (bx->struct_size >= offsetof(struct cg_bit_search, settle) +
	    sizeof bx->settle && bx->settle != NULL)
		for (s = 0; s < 2; s++) {
			int v = bounds_verdict(&b, s),
			    r = bx->settle(&cx, &sh, st, (enum cg_side)s);

			/* settle may settle more (other counts) */
			if (v >= 0 && r != v)
				fail("bit search: settle misses the verdict "
				    "of bounds", pos->data, pos->len);
		}
	if (bx->struct_size >= offsetof(struct cg_bit_search, swap) +
	    sizeof bx->swap && bx->swap != NULL)
		check_swap(bx, &cx, &sh, st, nopt, pos);
	cg_buf_init(&out);
	if (bx->unpack(&cx, &sh, st, &out) != CG_OK)
		fail("bit search: unpack fails", pos->data, pos->len);
	else
		check_print(out.data, out.len, "unpacked state");
	cg_buf_free(&out);
}

/* The promises of the extensions the ruleset offers (nopt: options of
 * each side, -1 when unknown). */
static void
check_extensions(const struct cg_buf *pos, const long nopt[2])
{
	const struct cg_move_counts *mc;
	const struct cg_bit_search *bx;
	const struct cg_search_order *so;
	const struct cg_value_ext *ve;
	const struct cg_conjugate *cj;
	struct cg_move_bounds b;
	struct cg_buf out;
	int s, r;

	if (!HAS(extension))
		return;
	mc = rs->extension(&cx, CG_EXT_MOVE_COUNTS);
	memset(&b, 0, sizeof b);
	if (mc != NULL && mc->counts != NULL &&
	    mc->counts(&cx, pos->data, pos->len, &b, sizeof b) == CG_OK)
		for (s = 0; s < 2; s++) {
			if (b.safe[s] > b.sure[s] || b.sure[s] > b.most[s])
				fail("move counts: not safe <= sure <= most",
				    pos->data, pos->len);
			if (nopt[s] == 0 && b.sure[s] > 0)
				fail("move counts: sure moves but no option",
				    pos->data, pos->len);
			if (nopt[s] > 0 && b.most[s] == 0)
				fail("move counts: an option but most is 0",
				    pos->data, pos->len);
			if ((b.flags & CG_BOUNDS_ROOM) &&
			    (b.sure[s] > b.room[s] ||
			    (nopt[!s] > 0 && b.room[s] == 0)))
				fail("move counts: room below sure, or none "
				    "for an opponent's move", pos->data,
				    pos->len);
			if ((b.flags & CG_BOUNDS_FIRST) &&
			    b.first[s] < b.sure[s])
				fail("move counts: first below sure",
				    pos->data, pos->len);
			if ((b.flags & CG_BOUNDS_FIRST_ROOM) &&
			    (b.first_sure[s] < b.sure[s] ||
			    b.first_sure[s] > b.first_room[s] ||
			    (nopt[s] == 0 && b.first_sure[s] > 0)))
				fail("move counts: first_sure below sure, "
				    "above first_room, or without an option",
				    pos->data, pos->len);
		}
	bx = rs->extension(&cx, CG_EXT_BIT_SEARCH);
	if (bx != NULL && bx->struct_size >= offsetof(struct cg_bit_search,
	    unpack) + sizeof bx->unpack && bx->pack != NULL &&
	    bx->options != NULL && bx->bounds != NULL && bx->unpack != NULL)
		check_bit_search(bx, pos, nopt, mc != NULL &&
		    mc->counts != NULL && mc->counts(&cx, pos->data, pos->len,
		    memset(&b, 0, sizeof b), sizeof b) == CG_OK ? &b : NULL);
	so = rs->extension(&cx, CG_EXT_SEARCH_ORDER);
	if (so != NULL && so->struct_size >= offsetof(struct cg_search_order,
	    options) + sizeof so->options && so->options != NULL)
		check_search_order(so, pos);
	cj = rs->extension(&cx, CG_EXT_CONJUGATE);
	if (cj != NULL && cj->struct_size >= offsetof(struct cg_conjugate,
	    conjugate) + sizeof cj->conjugate && cj->conjugate != NULL)
		check_conjugate(cj, pos, nopt);
	ve = rs->extension(&cx, CG_EXT_VALUE);
	if (ve != NULL && ve->value != NULL) {
		cg_buf_init(&out);
		r = ve->value(&cx, pos->data, pos->len, &out);
		if (r != CG_OK && r != CG_EUNSUPPORTED)
			fail("value on sight fails", pos->data, pos->len);
		cg_buf_free(&out);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	size_t len = size;
	char *params = NULL;
	struct cg_buf pos, canon, canon2;
	struct emits e;
	int r, s;
	long nopt[2];

	if (memchr(data, '\0', size) != NULL)
		return 0;   /* text never holds NUL bytes */
	if (size > 0 && data[0] == ':') {
		const char *nl = memchr(data, '\n', size);
		size_t plen = nl ? (size_t)(nl - text) - 1 : size - 1;

		params = malloc(plen + 1);
		memcpy(params, text + 1, plen);
		params[plen] = '\0';
		text = nl ? nl + 1 : text + size;
		len = size - (size_t)(text - (const char *)data);
	}
	cx.state = NULL;
	if (rs->init != NULL) {
		err.set = 0;
		if (rs->init(cx.host, params, &cx.state, &err) < 0) {
			free(params);
			return 0;
		}
	} else if (params != NULL) {
		free(params);
		return 0;
	}
	cg_buf_init(&pos);
	cg_buf_init(&canon);
	cg_buf_init(&canon2);
	err.set = 0;
	err.column = 0;
	r = rs->parse(&cx, text, len, &pos);
	if (r < 0) {
		if (err.set && err.column > len + 1)
			fail("parse error column beyond the text",
			    (const unsigned char *)text, len);
		goto out;
	}
	check_print(pos.data, pos.len, "position");
	if (HAS(canonical)) {
		if (rs->canonical(&cx, pos.data, pos.len, &canon) < 0)
			fail("canonical fails", pos.data, pos.len);
		if (rs->canonical(&cx, canon.data, canon.len, &canon2) < 0 ||
		    canon2.len != canon.len || (canon.len &&
		    memcmp(canon.data, canon2.data, canon.len) != 0))
			fail("canonical is not idempotent", pos.data, pos.len);
		check_print(canon.data, canon.len, "canonical form");
	}
	for (s = 0; s < 2; s++) {
		e.n = 0;
		e.what = s == 0 ? "Left option" : "Right option";
		r = rs->options(&cx, pos.data, pos.len, (enum cg_side)s,
		    on_emit, &e);
		if (r < 0 && r != CG_ELIMIT)
			fail("options fails", pos.data, pos.len);
		if (r == CG_STOP && e.n < MAX_EMITS)
			fail("options returns CG_STOP unasked", pos.data,
			    pos.len);
		nopt[s] = r < 0 ? -1 : (long)e.n;
	}
	check_extensions(&pos, nopt);
	if (HAS(decompose)) {
		e.n = 0;
		e.what = "component";
		r = rs->decompose(&cx, pos.data, pos.len, on_emit, &e);
		if (r < 0 && r != CG_ELIMIT)
			fail("decompose fails", pos.data, pos.len);
	}
out:
	cg_buf_free(&pos);
	cg_buf_free(&canon);
	cg_buf_free(&canon2);
	if (rs->init != NULL && rs->fini != NULL)
		rs->fini(cx.host, cx.state);
	free(params);
	return 0;
}
