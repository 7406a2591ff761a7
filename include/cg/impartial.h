/*
 * cg/impartial.h - the "cg.impartial" ruleset extension (see
 * cg-ruleset(3)).
 *
 * The CG_IMPARTIAL descriptor flag is fixed for a plugin; some rulesets
 * are impartial for some parameters only (subtraction:1,2,3 but not
 * subtraction:1/2).  Such a ruleset answers extension("cg.impartial")
 * with a non-NULL pointer when its parameters make both players' options
 * the same in every position, and NULL otherwise.  The host asks once,
 * when it loads the ruleset, and searches it as an impartial game (nim
 * values, -n, nimber knowledge bases) when either says so.  The pointer
 * is only a yes: the host never reads what it points to.
 */
#ifndef CG_IMPARTIAL_H
#define CG_IMPARTIAL_H

#define CG_EXT_IMPARTIAL "cg.impartial"

#endif
