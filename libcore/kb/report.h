/* report.h - a knowledge base as a cgt document (cg-kb dump), and its
 * measures (cg-kb stats). */
#ifndef CG_KB_REPORT_H
#define CG_KB_REPORT_H

#include <stdio.h>

#include "kb/kbfile.h"

/* Write every entry as a root with its values as annotations. */
void cg_kb_dump(struct cg_kbfile *f, FILE *out);

struct cg_kb_report {
	struct cg_kbfile_stats file;
	uint64_t distinct[CG_KB_MAXKINDS], absent[CG_KB_MAXKINDS];
	double entropy[CG_KB_MAXKINDS];   /* bits per entry */
	double total_entropy;
	int timed;                        /* lookups were timed */
	const char *lookup_kind;          /* of this kind */
	double lookup_random_us, lookup_cached_us;
};

/* Count values and their entropy; with ntime > 0, also time ntime lookups
 * of random entries and as many of one cached entry. */
void cg_kb_measure(struct cg_kbfile *f, unsigned long ntime,
    struct cg_kb_report *r);
/* Write the header fields, sizes and measures of a base as
 * "name<TAB>value" lines (cg-kb stats). */
void cg_kb_stats(struct cg_kbfile *f, unsigned long ntime, FILE *out);

#endif
