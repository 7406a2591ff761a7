/* thermo.h - thermographs of canonical short games (memoised per game).
 *
 * Walls are piecewise linear in the temperature t over [-1, oo) with
 * slopes -1, 0 or 1 and dyadic critical points; printed as CGSuite does:
 *   Thermograph(mast,[left critical temps],[left slopes],
 *               mast,[right critical temps],[right slopes])
 * with temperatures in decreasing order and one more slope than
 * critical points (the first is the mast's, 0).  Numbers: an integer has
 * no critical point; other games follow the cooling recursion. */
#ifndef CG_THERMO_H
#define CG_THERMO_H

#include "values/canon.h"
#include "base/buf.h"

struct cg_dyadic cg_thermo_mean(cg_game g);
struct cg_dyadic cg_thermo_temp(cg_game g);
void cg_thermo_print(cg_game g, struct cg_buf *out);

#endif
