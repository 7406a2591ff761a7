/* tool.h - what every cg-* tool shares: usage, version, option arguments
 * (the loop over documents and -t rows are format/doc.h's). */
#ifndef CG_TOOL_H
#define CG_TOOL_H

#include <getopt.h>
#include <stdio.h>

/* Long options every tool accepts; their getopt values. */
enum { CG_OPT_HELP = 'h', CG_OPT_VERSION = 0x100, CG_OPT_TOOL_BASE = 0x200 };

/* Print "usage: ..." (usage text without the word) to stderr and exit 2. */
void cg_usage(const char *usage) __attribute__((noreturn));
/* Print the usage and help text to stdout and exit 0. */
void cg_help(const char *usage, const char *help) __attribute__((noreturn));
/* Print "NAME (cgtools) VERSION" and exit 0. */
void cg_version(void) __attribute__((noreturn));

/* Initialise a tool: program name, line-buffering decisions, locale-free
 * number formatting.  Call first in main(). */
void cg_tool_init(int argc, char **argv);

/* Parse a decimal option argument from min to max; anything else is a
 * usage error naming the option and the range, as --jobs does:
 * "bad argument 'ARG' for OPTION (want MIN to MAX)". */
unsigned long cg_parse_count(const char *arg, const char *option,
    unsigned long min, unsigned long max);
/* Parse a size: bytes, or with a suffix k, M or G (2^10, 2^20, 2^30);
 * usage error if bad. */
unsigned long long cg_parse_size(const char *arg, const char *option);

#endif
