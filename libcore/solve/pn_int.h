/* pn_int.h - the proof-number searches' tree, shared by pntree.c (the
 * table, nodes, expansion, refresh, collection), pns.c (PNS, the
 * parallel driver, the queries), pn2.c and dfpn.c.  Not for tools.
 *
 * Nodes.  A node stands for a game with a player to move:
 *  - COUPLE (C, n): component C plus a nim heap *n, impartial normal
 *    play (Lemoine and Viennot's couples).  Its children are (C, i) for
 *    i < n and, for each option of C, the option's components with their
 *    known nim values folded into n: one unknown component left is a
 *    COUPLE, several a MULTI, none a result at once.
 *  - MULTI (C1 + ... + Ck + *n), k >= 2: a loss exactly when the nim
 *    values of the Ci and n add (xor) to 0.  Its children are lands
 *    (Ci, m), m the next nim value of Ci not yet refuted: a land proven a
 *    loss gives Ci's nim value, folded into n; one proven a win moves on
 *    to (Ci, m + 1).  Lands are settled smallest first; when one is left,
 *    the node's only child is (Cj, n) and the node's value is its child's.
 *    Equal components cancel (G + G = 0 in normal play).
 *  - WHOLE (S, side): a sum S of any game in normal play (partizan) or
 *    misere play, searched whole; its children are the sums after side's
 *    moves, with the other player to move.
 * A node is a win for the player to move when some child is a loss:
 * proof number pn = min of the children's dn, disproof number dn = sum of
 * their pn (the NAND trees of Glop and SPOTS).  A MULTI's pn and dn are
 * both the sum over its lands of min(pn, dn) (what is left to settle),
 * or its last child's.
 *
 * Results go where the depth-first search keeps its own: a COUPLE proven
 * a loss gives C's nim value, one proven a win C's win bit for n (the
 * component words, solver_int.h); a WHOLE sets its sum's bits.  So -D
 * databases, --check and the other searches see them, and the words are
 * read back when a node is made or reached.
 *
 * The table.  Nodes live in one hash table keyed by what they stand for,
 * so a transposition is one node (the tree is a DAG), and a node's
 * children are a slice of an arena of node numbers, with the numbers each
 * child had when it last changed beside them (kn).  Every child knows its
 * parents (parent links): when a node's numbers change, all its parents
 * are refreshed, least order first, and theirs in turn (pn_update_dag), not
 * only the path that reached it -- else a parent under another path keeps
 * stale numbers and leads the next descents astray.  The links cost a
 * few words an edge and save far more: with the path alone, df-pn
 * expands nearly twice the nodes on Sprouts (bench/sprouts-vs-spots).
 * Proven nodes are also found when reached, through the words.  A
 * collection keeps what the roots reach through unproven nodes (what is
 * proven is in the words or the sums) and compacts the table, when it
 * outgrows its share of --max-memory (or of the machine); a tree still
 * too large goes on as PN2.
 *
 * The searches (the engine of the query, p->how):
 *  - PNS: from the root, down to the most-proving node, expand it, update
 *    the nodes above it (Allis);
 *  - DFPN: the same tree, walked depth-first with thresholds (Nagai), the
 *    1 + epsilon trick (Pawlewicz and Lew) against thrashing;
 *  - PN2: PNS whose leaves are expanded by a second PNS of bounded size in
 *    a table of its own, dropped after, the leaf keeping its children's
 *    numbers (Breuker).
 * With jobs > 1 the PNS tree is the master: each round picks as many
 * distinct most-proving leaves as there are workers, each worker searches
 * below its leaf with a table of its own (as PN2's second level), and the
 * leaves take the workers' results and children (SPOTS's PNS-PDFPN on one
 * machine).  Workers share the graph and its words; a result is a fact of
 * the game, so answers are the same for every number of workers.
 */
#ifndef CG_PN_INT_H
#define CG_PN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "solve/engine.h"
#include "solve/solver_int.h"

#define INF  UINT32_MAX
#define NONE UINT32_MAX

enum { N_COUPLE, N_MULTI, N_WHOLE };
enum {
	F_EXPANDED = 1, F_FINAL = 2, F_MARK = 4, F_BUSY = 8, F_MISERE = 16,
	F_SEEN = 32, F_QUEUED = 64, F_RESCAN = 128, F_CHANGED = 256
};

struct pnode {
	uint32_t pn, dn;
	uint64_t id;            /* COUPLE: C | n << 32; WHOLE: sum | side <<
	                         * 32; MULTI: its key's offset in mkey */
	uint32_t kids, nkids;   /* children: kid[kids .. kids + nkids) */
	uint32_t order;         /* among siblings, smaller first */
	uint32_t nim;           /* MULTI: the nim value folded so far */
	uint32_t par;           /* the first of its parent links */
	uint8_t kind;
	uint16_t flags;
};

/* A parent link: node parent has the node that heads this list among
 * its children, at kid[slot] (or had: a link outlives a child dropped
 * or replaced, and kid[slot] then holds another node or none). */
struct plink {
	uint32_t parent, slot, next;
};

/* A child's numbers as its parent last heard them, beside kid[]: an OR
 * node's refresh reads them in a row, where reading each child's node
 * would cost a cache miss a child at every refresh. */
struct kidnum {
	uint32_t pn, dn;
};

struct ptab {
	struct pnode *node;
	size_t n, cap;
	uint64_t *slot;         /* hash << 32 | (node + 1), 0 = empty */
	size_t nslot;
	uint32_t *kid;
	size_t nkid, capkid, dead;
	uint32_t *mkey;         /* MULTI keys: [k, n, C1 .. Ck] */
	size_t nmkey, capmkey;
	struct plink *link;     /* parent links, per node a list */
	size_t nlink, caplink;
	struct kidnum *kn;      /* kn[i]: the numbers of kid[i] */
	uint32_t *heap;         /* the nodes to refresh, least order first */
	size_t nheap, capheap;
	size_t regrow;          /* bytes in use before the next collection
	                         * (half again what the last one kept) */
};

/* A descent: the nodes from the root, the child taken at each level and
 * how many there were (for the computing branch). */
struct path {
	uint32_t *x, *at, *of;
	size_t n, cap;
};

/* df-pn's stack: a node and its thresholds. */
struct dframe {
	uint32_t x, thpn, thdn;
};

struct krec {
	uint32_t order, seq, node;
};

struct job {
	uint32_t leaf, wroot;
	struct path path;
};

struct pns {
	struct ptab t, t2;      /* the tree; PN2's second level */
	struct path p1, p2;
	struct dframe *ds;
	size_t nds, capds;
	struct krec *rec;
	size_t nrec, caprec;
	uint32_t *u, *mk;
	size_t capu, capmk;
	uint32_t dn2;           /* refresh of an OR node: second best dn */
	size_t limit;           /* table bytes before a collection */
	int pn2;                /* PN2 asked, or the tree outgrew its limit */
	const struct cg_engine *how;   /* the engine of the query */
	int level;              /* 2 inside a PN2 second-level search */
	uint32_t root;
	/* workers (jobs > 1) */
	struct cg_solver **w;
	unsigned nw;
	struct job *job;
	uint32_t *busy;
	size_t nbusy, capbusy;
};

static inline uint32_t
sadd(uint32_t a, uint32_t b)
{
	uint64_t r = (uint64_t)a + b;

	return r >= INF ? INF - 1 : (uint32_t)r;
}

static inline int
proven(const struct pnode *nd)
{
	return nd->pn == 0 || nd->dn == 0;
}

/* pntree.c: the table */
void pn_tab_clear(struct ptab *t);
void pn_tab_free(struct ptab *t);
size_t pn_tab_bytes(const struct ptab *t);
/* the table bytes before a collection: a quarter of the machine */
size_t pn_table_limit(void);
/* results: a node's result read from the words or sums (1 win, 0 loss,
 * -1 unknown); a node proven, its result recorded */
int pn_node_known(struct cg_solver *s, const struct pnode *nd);
void pn_prove(struct cg_solver *s, struct ptab *t, uint32_t x, int win);
/* nodes, made or found: a couple (C, n), a multi C1 + ... + Ck + *n
 * (u sorted, pairs cancelled by pn_cancel_pairs), a whole sum for side */
uint32_t pn_couple(struct cg_solver *s, struct ptab *t, uint32_t c,
    uint32_t n);
size_t pn_cancel_pairs(uint32_t *u, size_t m);
uint32_t pn_multi(struct cg_solver *s, struct ptab *t, const uint32_t *u,
    size_t m, uint32_t n);
uint32_t pn_whole(struct cg_solver *s, struct ptab *t, uint64_t e, int side,
    int misere, uint32_t order);
/* expansion: children recorded (pn_rec_add) become node x's kids
 * (pn_set_kids); pn_expand expands x, -1 when stopped */
void pn_rec_add(struct pns *p, uint32_t order, uint32_t seq, uint32_t node);
void pn_set_kids(struct cg_solver *s, struct ptab *t, uint32_t x);
int pn_expand(struct cg_solver *s, struct ptab *t, uint32_t x);
/* refresh: node x's numbers from its children (whether they changed),
 * x's parents queued (pn_touched), every queued node brought up to date */
uint32_t pn_refresh(struct cg_solver *s, struct ptab *t, uint32_t x);
void pn_touched(struct ptab *t, uint32_t x);
void pn_heap_push(struct ptab *t, uint32_t x);
void pn_update_dag(struct cg_solver *s, struct ptab *t);
/* descents, and the collection of a table past its limit */
void pn_path_push(struct path *pa, uint32_t x);
void pn_path_free(struct path *pa);
void pn_maybe_collect(struct cg_solver *s, struct ptab *t, uint32_t *roots,
    size_t nroots);

/* pns.c: PNS from *root (budget expansions, 0: no bound): 1 a win for
 * the player to move, 0 a loss, -1 stopped or out of budget */
int pns_run(struct cg_solver *s, struct ptab *t, uint32_t *root,
    uint64_t budget, struct path *pa);
/* pn2.c: a leaf expanded by a second-level search; a node copied into a
 * worker's table, and a worker's results taken back */
int pn2_expand(struct cg_solver *s, struct ptab *t, uint32_t x);
uint32_t pn2_copy_node(struct cg_solver *ws, struct ptab *w,
    struct cg_solver *s, const struct ptab *t, uint32_t x);
void pn2_adopt(struct cg_solver *s, struct ptab *t, uint32_t x,
    struct cg_solver *ws, const struct ptab *w, uint32_t y);
/* dfpn.c: df-pn from *root, as pns_run */
int dfpn_run(struct cg_solver *s, struct ptab *t, uint32_t *root);
/* pns.c: the queries of the three engines (how: their row) */
int pn_outcome(const struct cg_engine *how, struct cg_solver *s,
    const uint32_t *ids, size_t n, int misere);
int64_t pn_nimber(const struct cg_engine *how, struct cg_solver *s,
    const uint32_t *ids, size_t n);
size_t pn_memory(const struct cg_solver *s);
int pn_branch(struct cg_solver *s, struct cg_buf *out);
void pn_free(struct cg_solver *s);

#endif
