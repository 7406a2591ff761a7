/*
 * cg/rank.h - the "cg.rank" ruleset extension (see cg-ruleset(3)): the
 * positions of a family (enumerate()) numbered by arithmetic, so that a
 * knowledge base of the family finds a position by its number and
 * stores no keys, as endgame tablebases index piece placements.
 *
 * An index of a family is a numbering of slots 0 .. slots-1.  rank()
 * gives a position its slot; every member of the family (each class's
 * canonical() representative, as enumerate() emits them) has one, and
 * two different positions never share one.  A slot may hold no member
 * (an index is allowed holes: the base stores which slots are taken),
 * but the fewer holes, the smaller the base: slots / members is the
 * index's density, which cg-kb stats reports.
 *
 * Growth: fields are only appended; the host reads a field only when
 * struct_size covers it.
 */
#ifndef CG_RANK_H
#define CG_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "ruleset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_EXT_RANK "cg.rank"

struct cg_rank {
	uint32_t struct_size;   /* sizeof(struct cg_rank) of the plugin */

	/* The number of slots of family's index in *n: CG_OK, or
	 * CG_EUNSUPPORTED when this ruleset does not rank that family (the
	 * base then keeps keys), or an error for a family text enumerate()
	 * refuses. */
	int (*slots)(const struct cg_context *cx, const char *family,
	    uint64_t *n);
	/* The slot of pos, a canonical representative (the bytes
	 * canonical() writes), in *r: CG_OK, or CG_EUNSUPPORTED when pos
	 * has no slot in family's index (it cannot be a member).  Distinct
	 * positions have distinct slots; *r < slots. */
	int (*rank)(const struct cg_context *cx, const char *family,
	    const unsigned char *pos, size_t len, uint64_t *r);
	/* The position whose slot is r, appended to out: CG_OK, or
	 * CG_EUNSUPPORTED when no position has slot r.  unrank(rank(p)) is
	 * p, byte for byte. */
	int (*unrank)(const struct cg_context *cx, const char *family,
	    uint64_t r, struct cg_buf *out);
};

#ifdef __cplusplus
}
#endif
#endif
