/*
 * test_watch.c - the default memory limit (watch.h): without
 * --max-memory, seven eighths of the machine's memory (or of the control
 * group's limit, when lower), and a later cg_watch_memory changes
 * nothing.  The expected bound is computed here from sysconf, the same
 * source the kernel reports.  cg_watch_room and cg_watch_fits answer
 * against the resident size read here, and only room sets cg_stop.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "base/watch.h"
#include "tap.h"

int
main(void)
{
	double phys = (double)sysconf(_SC_PHYS_PAGES) *
	    (double)sysconf(_SC_PAGESIZE);
	double lim;
	size_t rss;

	is_int(cg_watch_limit(), 0, "no limit before one is set");
	ok(cg_watch_room(SIZE_MAX / 2) && cg_stop == 0,
	    "without a limit any growth has room");
	cg_watch_memory_default();
	lim = (double)cg_watch_limit();
	ok(lim > 0, "the default sets a limit (%.0f MB)", lim / 1048576);
	ok(lim <= phys / 8 * 7 + 1048576, "at most 7/8 of the %.0f MB of "
	    "the machine", phys / 1048576);
	ok(lim >= 1048576, "at least a megabyte");
	cg_watch_memory(12);
	ok((double)cg_watch_limit() == lim, "the first limit stays");
	/* lim - rss is the room left: a megabyte fits, twice it does not */
	rss = cg_memory_rss();
	ok(rss > 0 && (double)rss < lim, "resident %zu bytes, below it", rss);
	ok(cg_watch_fits(1048576), "a megabyte fits");
	ok(!cg_watch_fits((size_t)lim) && cg_stop == 0,
	    "the whole limit again does not, and fits does not stop");
	ok(!cg_watch_double(2, 4, 1) && cg_watch_double(3, 4, 1048576) &&
	    cg_stop == 0, "a table doubles past half load when it fits");
	ok(!cg_watch_double(3, 4, (size_t)lim) && cg_stop == CG_STOP_MEMORY &&
	    cg_watch_double(4, 4, (size_t)lim), "not when it does not (the "
	    "computation stops), but past 7/8 load whatever the limit");
	cg_stop = 0;
	ok(!cg_watch_room((size_t)lim) && cg_stop == CG_STOP_MEMORY,
	    "room says no and stops the computation");
	return tap_done();
}
