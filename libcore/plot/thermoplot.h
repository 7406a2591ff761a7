/* thermoplot.h - thermographs drawn as CGSuite draws them, as SVG.
 *
 * Thermographs come as cg-canon -p thermograph writes them (thermo.h):
 *   Thermograph(mast,[temps],[slopes],mast,[temps],[slopes])
 * and are drawn on one chart, CGSuite's way: value on the horizontal axis
 * with Left's (positive) side on the left, temperature upwards, the walls
 * from the top of the chart down to temperature 0 and a short tail below
 * it (or down to -1 with subzero), a hook on each mast (it goes on for
 * ever), the mean and the temperature marked by a dot where the walls
 * meet, with dashed guides to both axes, and ticks labelled at means,
 * temperatures and critical points.  Several thermographs get CGSuite's
 * colours (black, blue, red, green, again) and are moved 2 pixels apart
 * so that equal masts stay visible; a legend names them.
 *
 * The layout, so that a coordinate can be derived by hand: the view spans
 * temperatures from B = 0 (-1 with subzero) to top = 4/3 of the largest
 * temperature (plus 1/3 with subzero; 1 when that is 0), and values from
 * the least to the greatest wall value at a critical point or at B.  The
 * scale s (pixels per unit) is the largest whole number with the view
 * fitting 480 x 320 pixels (exact when below 1); the view then grows to
 * fill 480 x 320, sideways evenly and upwards.  A value v and temperature
 * t are drawn at x = 40 + (left - v) s, y = 40 + (top - t) s, where left
 * is the view's greatest value.  Tails are 12 pixels long.
 */
#ifndef CG_THERMOPLOT_H
#define CG_THERMOPLOT_H

#include <stddef.h>

#include "base/buf.h"

struct cg_tplot;

struct cg_tplot *cg_tplot_new(void);
void cg_tplot_free(struct cg_tplot *p);
/* Add a thermograph with its label (a position, a game).  Returns 0, or -1
 * with the reason appended to err. */
int cg_tplot_add(struct cg_tplot *p, const char *thermograph,
    const char *label, struct cg_buf *err);
size_t cg_tplot_count(const struct cg_tplot *p);
/* Append the chart of every thermograph added, as an SVG document. */
void cg_tplot_svg(const struct cg_tplot *p, int subzero, struct cg_buf *out);

#endif
