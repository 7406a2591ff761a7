/*
 * cg/conjugate.h - the "cg.conjugate" ruleset extension (see
 * cg-ruleset(3)): a position with the players' roles exchanged, whose
 * value is the negative of the position's (Domineering: the board turned
 * about its diagonal, Left's dominoes becoming Right's).
 *
 *  conjugate(pos, len, out): the conjugate of the component pos (bytes
 *      as canonical() gives them), as bytes parse() could give, appended
 *      to out.  CG_OK, or a CG_E* code.
 *
 * The canonical engine values a component by its conjugate's form,
 * negated, when it has that form already, instead of expanding it.  A
 * pure function of its arguments; fields are only appended.
 */
#ifndef CG_CONJUGATE_H
#define CG_CONJUGATE_H

#include <stddef.h>
#include <stdint.h>

#include "ruleset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_EXT_CONJUGATE "cg.conjugate"

struct cg_conjugate {
	uint32_t struct_size;   /* sizeof(struct cg_conjugate) of the plugin */
	int (*conjugate)(const struct cg_context *cx,
	    const unsigned char *pos, size_t len, struct cg_buf *out);
};

#ifdef __cplusplus
}
#endif
#endif
