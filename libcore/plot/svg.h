/* svg.h - the little SVG writing the pictures need: numbers written the
 * same on every machine, text escaped, one element per line. */
#ifndef CG_SVG_H
#define CG_SVG_H

#include "base/buf.h"

/* Append v with at most three decimals, trailing zeros dropped ("12",
 * "12.5", "0.125"; never "-0"). */
void cg_svg_num(struct cg_buf *out, double v);
/* Append s with &, <, > and " escaped. */
void cg_svg_escape(struct cg_buf *out, const char *s);

/* The document: an <svg> element of width x height pixels with a white
 * background and a <title>; cg_svg_end closes it. */
void cg_svg_begin(struct cg_buf *out, double width, double height,
    const char *title);
void cg_svg_end(struct cg_buf *out);

/* <line class=... x1 y1 x2 y2/>, with extra attributes (or ""). */
void cg_svg_line(struct cg_buf *out, const char *cls, double x1, double y1,
    double x2, double y2, const char *extra);
/* <polyline class=... points="x,y ..."/> of n points xy[0..2n-1]. */
void cg_svg_polyline(struct cg_buf *out, const char *cls, const double *xy,
    size_t n, const char *extra);
/* <text class=... x y text-anchor=anchor>text</text>. */
void cg_svg_text(struct cg_buf *out, const char *cls, double x, double y,
    const char *anchor, const char *text);

#endif
