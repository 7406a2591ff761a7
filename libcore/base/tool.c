/* tool.c - usage, version, the input loop and the -t output contract. */
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <signal.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

#include "base/tool.h"
#include "base/util.h"

void
cg_usage(const char *usage)
{
	fprintf(stderr, "usage: %s %s\n", cg_progname, usage);
	fprintf(stderr, "Try '%s --help' for more information.\n",
	    cg_progname);
	exit(CG_EXIT_USAGE);
}

void
cg_help(const char *usage, const char *help)
{
	printf("usage: %s %s\n%s", cg_progname, usage, help);
	cg_close_stdout();
	exit(CG_EXIT_OK);
}

void
cg_version(void)
{
	printf("%s (cgtools) %s\n", cg_progname, CG_VERSION);
	cg_close_stdout();
	exit(CG_EXIT_OK);
}

void
cg_tool_init(int argc, char **argv)
{
	(void)argc;
	cg_setprogname(argv[0]);
	/* getopt's messages name argv[0]: make it the short name too */
	if (argv[0] != NULL)
		argv[0] = (char *)cg_progname;
	/* Output never depends on the locale. */
	setlocale(LC_ALL, "C");
	/* A closed pipe ends a tool quietly (| head), even when the parent
	 * left SIGPIPE ignored. */
	signal(SIGPIPE, SIG_DFL);
	{
		/* the canonical store recurses as deep as a game's birthday
		 * (CG_CANON_MAX_DEPTH levels): give the main stack room */
		struct rlimit rl;
		rlim_t want = (rlim_t)256 << 20;

		if (getrlimit(RLIMIT_STACK, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < want) {
			rl.rlim_cur = rl.rlim_max == RLIM_INFINITY ||
			    rl.rlim_max > want ? want : rl.rlim_max;
			setrlimit(RLIMIT_STACK, &rl);
		}
	}
}

unsigned long
cg_parse_count(const char *arg, const char *option, unsigned long min,
    unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno != 0 || *arg < '0' || *arg > '9' || *end != '\0' ||
	    v < min || v > max)
		cg_die(CG_EXIT_USAGE, "bad argument '%s' for %s (want %lu to "
		    "%lu)", arg, option, min, max);
	return v;
}

unsigned long long
cg_parse_size(const char *arg, const char *option)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*end == 'k' || *end == 'K')
		shift = 10, end++;
	else if (*end == 'M')
		shift = 20, end++;
	else if (*end == 'G')
		shift = 30, end++;
	if (errno != 0 || *arg < '0' || *arg > '9' || *end != '\0' ||
	    v > ULLONG_MAX >> shift) {
		fprintf(stderr, "%s: bad argument '%s' for %s (bytes, or with "
		    "k, M or G)\n", cg_progname, arg, option);
		exit(CG_EXIT_USAGE);
	}
	return v << shift;
}
