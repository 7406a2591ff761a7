/* kb.c - knowledge-base lookups for the analysis tools (-K FILE).
 *
 * Every added base is mapped and its header, index and small tables
 * checked when added (cgkb(5) checksums), its blocks when first read or
 * by cg_kb_check.  A lookup searches the bases whose ruleset name and
 * parameters equal those of the plugin; a base for the same ruleset with
 * other parameters or another ruleset version is an error, since its keys
 * would mean other positions. */
#include <stdlib.h>
#include <string.h>

#include <pthread.h>
#include <stdatomic.h>

#include "kb/kb.h"
#include "values/notation.h"
#include "kb/kbfile.h"
#include "base/util.h"

static struct cg_kbfile **bases;
static size_t nbases;

/* Per plugin: which bases apply (resolved on first use, then read
 * without a lock: a binding is never changed once published). */
struct binding {
	struct cg_plugin *rs;
	size_t n;
	size_t *which;
	struct binding *next;
};
static _Atomic(struct binding *) binds;
static pthread_mutex_t bindlock = PTHREAD_MUTEX_INITIALIZER;

void
cg_kb_add(const char *path)
{
	char err[1024];
	struct cg_kbfile *f = cg_kbfile_open(path, err, sizeof err);

	if (f == NULL)
		cg_die(CG_EXIT_DATA, "%s", err);
	bases = cg_xreallocarray(bases, nbases + 1, sizeof *bases);
	bases[nbases++] = f;
}

void
cg_kb_expect(struct cg_plugin *rs)
{
	char spec[512];
	size_t i;

	for (i = 0; i < nbases; i++) {
		const struct cg_kb_meta *m = cg_kbfile_meta(bases[i]);

		if (strcmp(m->ruleset, rs->name) != 0)
			cg_die(CG_EXIT_DATA, "%s: base is for '%s', not '%s'",
			    cg_kbfile_path(bases[i]), cg_quote_str(
			    cg_kb_meta_spec(m, spec, sizeof spec)), rs->spec);
	}
}

static struct binding *
binding_for(struct cg_plugin *rs)
{
	struct binding *b;
	char err[1024];
	size_t i;

	for (b = atomic_load_explicit(&binds, memory_order_acquire); b;
	    b = b->next)
		if (b->rs == rs)
			return b;
	pthread_mutex_lock(&bindlock);
	for (b = atomic_load_explicit(&binds, memory_order_acquire); b;
	    b = b->next)
		if (b->rs == rs)
			break;
	if (b == NULL) {
		b = cg_xcalloc(1, sizeof *b);
		b->rs = rs;
		b->which = cg_xmalloc((nbases ? nbases : 1) * sizeof *b->which);
		for (i = 0; i < nbases; i++) {
			const struct cg_kb_meta *m = cg_kbfile_meta(bases[i]);

			if (strcmp(m->ruleset, rs->name) != 0)
				continue;
			if (cg_kbfile_bind(bases[i], rs, err, sizeof err) < 0)
				cg_die(CG_EXIT_DATA, "%s", err);
			if (m->shard_n != 1)
				cg_die(CG_EXIT_DATA, "%s: shard %u of %u, not a "
				    "whole base (merge the shards with cg-kb-build "
				    "--merge)", cg_kbfile_path(bases[i]),
				    m->shard_k, m->shard_n);
			b->which[b->n++] = i;
		}
		b->next = atomic_load_explicit(&binds, memory_order_relaxed);
		atomic_store_explicit(&binds, b, memory_order_release);
	}
	pthread_mutex_unlock(&bindlock);
	return b;
}

void
cg_kb_check(struct cg_plugin *rs)
{
	char err[1024];
	size_t i;

	cg_kb_expect(rs);
	if (nbases == 0)
		return;
	(void)binding_for(rs);
	for (i = 0; i < nbases; i++)
		if (cg_kbfile_check(bases[i], err, sizeof err) < 0)
			cg_die(CG_EXIT_DATA, "%s", err);
}

int
cg_kb_find(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    const char *kind, struct cg_buf *out)
{
	struct binding *b;
	size_t i;

	if (nbases == 0)
		return 0;
	b = binding_for(rs);
	for (i = 0; i < b->n; i++) {
		struct cg_kbfile *f = bases[b->which[i]];
		int k = cg_kb_meta_kind(cg_kbfile_meta(f), kind);
		uint64_t ref;

		if (k < 0)
			continue;
		ref = cg_kbfile_ref(f, pos, len, (uint32_t)k);
		if (ref != CG_KB_NOVALUE) {
			cg_buf_addstr(out, cg_kbfile_text(f, (uint32_t)k, ref));
			return 1;
		}
	}
	return 0;
}

int
cg_kb_known(void *ctx, struct cg_plugin *rs, const unsigned char *pos,
    size_t len, const char *kind, struct cg_buf *out)
{
	(void)ctx;
	return cg_kb_find(rs, pos, len, kind, out);
}

cg_game
cg_kb_canon(void *ctx, struct cg_graph *g, cg_vertex v)
{
	struct cg_plugin *rs = cg_graph_ruleset(g, v);
	const unsigned char *key;
	struct cg_buf text;
	size_t len;
	cg_game value = CG_NO_GAME;

	(void)ctx;
	if (rs == NULL || nbases == 0)
		return CG_NO_GAME;
	key = cg_graph_key(g, v, &len);
	value = cg_kb_find_game(rs, key, len);
	if (value != CG_NO_GAME)
		return value;
	cg_buf_init(&text);
	if (cg_kb_find(rs, key, len, "canon", &text))
		value = cg_canon_value((const char *)text.data, text.len,
		    "knowledge base value");
	cg_buf_free(&text);
	return value;
}

cg_game
cg_kb_find_game(struct cg_plugin *rs, const unsigned char *pos, size_t len)
{
	struct binding *b;
	size_t i;

	if (nbases == 0)
		return CG_NO_GAME;
	b = binding_for(rs);
	for (i = 0; i < b->n; i++) {
		struct cg_kbfile *f = bases[b->which[i]];
		int k = cg_kb_meta_kind(cg_kbfile_meta(f), "canon");
		uint64_t ref;

		if (k < 0 || !cg_kbfile_games(f, (uint32_t)k))
			continue;
		ref = cg_kbfile_ref(f, pos, len, (uint32_t)k);
		if (ref != CG_KB_NOVALUE)
			return cg_kbfile_game(f, (uint32_t)k, ref);
	}
	return CG_NO_GAME;
}

void
cg_kb_close_all(void)
{
	struct binding *b, *next;
	size_t i;

	for (i = 0; i < nbases; i++)
		cg_kbfile_close(bases[i]);
	for (b = atomic_load(&binds); b; b = next) {
		next = b->next;
		free(b->which);
		free(b);
	}
	atomic_store(&binds, NULL);
	free(bases);
	bases = NULL;
	nbases = 0;
}
