/*
 * cgx/bitsearch.h - the "cg.bit-search" ruleset extension (see
 * cg-ruleset(3)): a position as a few 64-bit words, for the outcome
 * search that stores no position anywhere but in one fixed-size table
 * (cg-outcome --search bits; the way Bullock's Obsequi solves
 * Domineering, with the ruleset's own move counts and order).
 *
 * A state is `words` 64-bit words (at most CG_BIT_WORDS) whose layout is
 * the ruleset's; two states are the same position exactly when their
 * words are equal.  A move changes a state by XOR with a mask of the
 * same number of words, so an option is given as its mask.
 *
 *  pack(comp, len, n, shape, state): the sum of the n components comp[i]
 *      (canonical bytes of len[i], as decompose() and canonical() give
 *      them) as one state, filling shape->words (1..CG_BIT_WORDS),
 *      shape->max_options (no state of the shape has more options for a
 *      side), shape->flags (CG_BIT_PREFER when the bit search should beat
 *      a search over the sum's components: Domineering boards of at
 *      least three rows and columns, whose positions split less than a
 *      strip's; CG_BIT_SPARE(n) when no state of the shape, nor its
 *      canonical() or swap() image, sets the top n bits of its last
 *      word; CG_BIT_ETC(n), below) and shape->dims (the ruleset's own,
 *      e.g. rows and columns; every later call gets the shape back).
 *      CG_EUNSUPPORTED when the sum does not fit; the host then searches
 *      as it would without the extension.
 *  options(shape, state, side, masks): side's options, each once, as
 *      masks written one after another (shape->words words each), in the
 *      order a search should try them, best first.  Returns how many
 *      (at most shape->max_options).
 *  bounds(shape, state, b): move-count bounds of the state, with the
 *      meaning and the duty to be proved of cgx/movecounts.h (the host
 *      zeroes *b, whose size is sizeof(struct cg_move_bounds) of the
 *      host: the fields up to first[], and first_sure[] and first_room[]
 *      only when shape->flags has CG_BIT_FIRST_ROOM); the host settles a
 *      state by them as it settles a sum by move counts.  They may be cheaper and weaker than counts() gives
 *      (Domineering leaves out its second reserve here).
 *  unpack(shape, state, out): the position as bytes parse() could give,
 *      appended to out (to print it, or to search it otherwise).
 *  canonical(shape, state, out) (optional, NULL for none): one state for
 *      every state that is the same game, e.g. the least of a board's
 *      mirror images, into out (shape->words words).  The host keys its
 *      table by it, so a position and its images share one result.
 *  settle(shape, state, side) (optional, appended; NULL for none): a
 *      verdict with side to move that move counts prove, by the rule of
 *      cgx/movecounts.h: 1 side wins, 0 it loses, -1 neither (or not
 *      known); at least every verdict the host would draw from bounds(),
 *      perhaps more (from other counts, each a proved claim).  The host
 *      calls it in place of bounds(), so a ruleset may count the mover's
 *      side first and the opponent's only when the mover does not win.
 *  swap(shape, state, out) (optional, appended; NULL for none): the
 *      image of the state under a symmetry of the shape that exchanges
 *      the players' roles (a square Domineering board turned about its
 *      diagonal: Left's dominoes become Right's), into out; returns 1,
 *      or 0 when the shape has none (out is then not used).  Side x to
 *      move wins the state exactly when the other side to move wins the
 *      image, so the host keys its table by the lesser of the two (each
 *      through canonical()) and a position and its image share one
 *      result: a square board's second query, with the other side to
 *      move first, is then the first one's.
 *  children(shape, state, side, masks, n, out) (optional, appended; NULL
 *      for none): verdicts on the state's children drawn from the
 *      state's own counts, cheaper than settle() on each child: for the
 *      n options masks[] of side (as options() gave them), out[i] = 1
 *      when the other side, to move after option i, wins by a proved
 *      claim, 0 when it loses, -1 not known.  Returns 0.  The host asks
 *      once a position's first option has failed (most such positions
 *      are lost, and every child must then be settled) and settles the
 *      children it can by them before it searches any.
 *  key(shape, state, out) (optional, appended; NULL for none): the
 *      table's key in one call, in place of canonical() and swap(): one
 *      state for the state and all its images under both (the same out
 *      for every one of them), into out; returns 0 when out is an image
 *      of the state itself, 1 when it is an image of its swap() image
 *      (the side to move is then the other).  Which image stands for
 *      them is the ruleset's choice, so long as it is the same for all.
 *
 * Normal play only.  Every hook is a pure function of its arguments: the
 * host calls them from several threads at once.  Growth: fields are only
 * appended; the host reads a field only below struct_size.
 */
#ifndef CG_BITSEARCH_H
#define CG_BITSEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "movecounts.h"
#include "../cg/ruleset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_EXT_BIT_SEARCH "cg.bit-search"
#define CG_BIT_WORDS 4

struct cg_bit_shape {
	uint32_t words;         /* 64-bit words of a state and of a mask */
	uint32_t max_options;   /* bound on the options of either side */
	uint32_t flags;         /* CG_BIT_* */
	uint32_t dims[5];       /* the ruleset's */
};

/* The ruleset expects the bit search to beat a search over components
 * for this sum (cg-outcome's auto picks it only then). */
#define CG_BIT_PREFER 1u
/* Set by the host in shape->flags after pack(): its struct
 * cg_move_bounds reaches first_sure[] and first_room[], which bounds()
 * may then fill (with CG_BOUNDS_FIRST_ROOM). */
#define CG_BIT_FIRST_ROOM 2u
/* Set by the ruleset in pack(): the top n bits (n up to 63) of a
 * state's last word are clear in every state of the shape, and the host
 * may keep a result of its own there (a 9x9 Domineering board fills 17
 * bits of its second word, leaving 47).  0 promises nothing. */
#define CG_BIT_SPARE_SHIFT 8
#define CG_BIT_SPARE(n) ((uint32_t)(n) << CG_BIT_SPARE_SHIFT)
/* Set by the ruleset in pack(): at a state of n set bits or more (n up
 * to 255), the host looks up every child in its table before it searches
 * any (an enhanced transposition cutoff), which repays its probes only
 * where subtrees are large.  0: never. */
#define CG_BIT_ETC_SHIFT 16
#define CG_BIT_ETC(n) ((uint32_t)(n) << CG_BIT_ETC_SHIFT)

struct cg_bit_search {
	uint32_t struct_size;   /* sizeof(struct cg_bit_search) of the plugin */
	int (*pack)(const struct cg_context *cx,
	    const unsigned char *const *comp, const size_t *len, size_t n,
	    struct cg_bit_shape *shape, uint64_t *state);
	int (*options)(const struct cg_context *cx,
	    const struct cg_bit_shape *shape, const uint64_t *state,
	    enum cg_side side, uint64_t *masks);
	void (*bounds)(const struct cg_context *cx,
	    const struct cg_bit_shape *shape, const uint64_t *state,
	    struct cg_move_bounds *b);
	int (*unpack)(const struct cg_context *cx,
	    const struct cg_bit_shape *shape, const uint64_t *state,
	    struct cg_buf *out);
	void (*canonical)(const struct cg_context *cx,
	    const struct cg_bit_shape *shape, const uint64_t *state,
	    uint64_t *out);
	/* appended (read below struct_size only) */
	int (*settle)(const struct cg_context *cx,
	    const struct cg_bit_shape *shape, const uint64_t *state,
	    enum cg_side side);
	int (*swap)(const struct cg_context *cx,
	    const struct cg_bit_shape *shape, const uint64_t *state,
	    uint64_t *out);
	int (*children)(const struct cg_context *cx,
	    const struct cg_bit_shape *shape, const uint64_t *state,
	    enum cg_side side, const uint64_t *masks, uint32_t n,
	    signed char *out);
	int (*key)(const struct cg_context *cx,
	    const struct cg_bit_shape *shape, const uint64_t *state,
	    uint64_t *out);
};

#ifdef __cplusplus
}
#endif
#endif
