/* engines.c - the table of search engines and the choice among them;
 * see engine.h. */
#include <string.h>

#include "solve/engine.h"
#include "solve/outcome.h"
#include "solve/solver_int.h"

const struct cg_engine *const cg_engines[] = {
	&cg_engine_dfs,
	&cg_engine_pns,
	&cg_engine_dfpn,
	&cg_engine_pn2,
	&cg_engine_bits,
	NULL
};

static const struct cg_engine *
with_flag(unsigned flag, const struct cg_engine *declined)
{
	size_t i;

	for (i = 0; cg_engines[i] != NULL; i++)
		if ((cg_engines[i]->flags & flag) && cg_engines[i] != declined)
			return cg_engines[i];
	return NULL;
}

/* Auto picks the engine that is fastest for the query
 * (bench/sprouts-vs-spots, bench/outcome): in partizan normal play the
 * engine that asks to be first (the bit search, which declines all but
 * one large region of a ruleset with bit boards, whose whole board in
 * machine words is searched far faster than its components); df-pn for
 * impartial games in normal play, where sums split into couples
 * (Sprouts, Cram's nim values); depth-first for the rest (whole sums
 * have no couples, so a proof-number tree is the whole game tree, and a
 * depth-first search with its transposition tables does better, as on
 * Domineering). */
const struct cg_engine *
cg_engine_auto(const struct cg_solver *s, int nimber, int misere,
    const struct cg_engine *declined)
{
	const struct cg_engine *e = NULL;

	if (!nimber && !misere && !s->impartial)
		e = with_flag(CG_ENGINE_AUTO_FIRST, declined);
	if (e == NULL && !misere && s->impartial)
		e = with_flag(CG_ENGINE_AUTO_IMPARTIAL, declined);
	if (e == NULL)
		e = with_flag(CG_ENGINE_FALLBACK, NULL);
	return e;
}

/* Check mode re-derives results depth-first, as Glop does, guided by its
 * databases: the fallback engine, whatever was asked. */
const struct cg_engine *
cg_engine_for(const struct cg_solver *s, int nimber, int misere)
{
	const struct cg_engine *e = s->engine;

	if (s->guide != NULL)
		return with_flag(CG_ENGINE_FALLBACK, NULL);
	if (e != NULL && (!nimber || (e->flags & CG_ENGINE_NIMBER)) &&
	    (!misere || (e->flags & CG_ENGINE_MISERE)))
		return e;
	return cg_engine_auto(s, nimber, misere, NULL);
}

const char *
cg_search_name(const struct cg_engine *e)
{
	return e != NULL ? e->name : "auto";
}

int
cg_search_parse(const char *name, const struct cg_engine **e)
{
	size_t i;

	if (strcmp(name, "auto") == 0) {
		*e = NULL;
		return 0;
	}
	for (i = 0; cg_engines[i] != NULL; i++)
		if (strcmp(name, cg_engines[i]->name) == 0) {
			*e = cg_engines[i];
			return 0;
		}
	return -1;
}

void
cg_search_names(struct cg_buf *out)
{
	size_t i;

	cg_buf_addstr(out, "auto");
	for (i = 0; cg_engines[i] != NULL; i++) {
		cg_buf_addstr(out, cg_engines[i + 1] != NULL ? ", " : " or ");
		cg_buf_addstr(out, cg_engines[i]->name);
	}
}
