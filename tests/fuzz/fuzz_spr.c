/*
 * fuzz_spr.c - libFuzzer target for the .spr database reader (solvedb.h).
 *
 * The first byte chooses the database kind (bit 0: misere) and the
 * ruleset (bits 1-2: nim, octal:0.77, subtraction:1,2,3, octal:4!.0); the
 * rest is the file.  It is loaded twice into one solver (the second load
 * must agree with the first: a conflict there is a finding), the solver's
 * knowledge is saved and loaded again into a fresh solver.  Data errors
 * are expected (returned, or exits through cg_exit_hook); crashes, leaks
 * and unbounded allocations are findings.  Plugins come from
 * CG_PLUGIN_PATH.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "solve/outcome.h"
#include "host/plugin.h"
#include "solve/solvedb.h"
#include "base/util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static jmp_buf on_error;
static const char *const rulesets[] = {
	"nim", "octal:0.77", "subtraction:1,2,3", "octal:4!.0"
};

static void
exit_hook(int status)
{
	(void)status;
	longjmp(on_error, 1);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	cg_setprogname("fuzz_spr");
	cg_exit_hook = exit_hook;
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cg_solver *volatile s, *volatile again;
	static struct cg_solvedb_extra extra;
	static char path[64], saved[64];
	enum cg_solvedb_kind kind;
	struct cg_plugin *rs;
	char err[1024];
	int fd;

	if (size == 0)
		return 0;
	kind = (data[0] & 1) ? CG_DB_MISERE : CG_DB_NIMBER;
	fd = memfd_create("fuzz.spr", 0);
	if (fd < 0 || (size > 1 && write(fd, data + 1, size - 1) !=
	    (ssize_t)(size - 1)))
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	snprintf(saved, sizeof saved, "/tmp/fuzz_spr.%d.spr", (int)getpid());
	s = again = NULL;
	if (setjmp(on_error) == 0) {
		rs = cg_plugin_get(rulesets[(data[0] >> 1) & 3], 1);
		s = cg_solver_new(rs);
		if (cg_solvedb_load(path, s, kind, 0, &extra, err,
		    sizeof err) == 0) {
			/* the same file again agrees with itself */
			if (cg_solvedb_load(path, s, kind, 0, NULL, err,
			    sizeof err) < 0) {
				fprintf(stderr, "a database conflicts with "
				    "itself: %s\n", err);
				abort();
			}
			if (cg_solvedb_save(saved, s, kind, &extra, err,
			    sizeof err) < 0) {
				fprintf(stderr, "save: %s\n", err);
				abort();
			}
			again = cg_solver_new(rs);
			if (cg_solvedb_load(saved, again, kind, 0, NULL, err,
			    sizeof err) < 0) {
				fprintf(stderr, "a saved database does not "
				    "load: %s\n", err);
				abort();
			}
		}
	}
	unlink(saved);
	cg_solver_free(again);
	cg_solver_free(s);
	cg_solvedb_extra_free(&extra);
	close(fd);
	return 0;
}
