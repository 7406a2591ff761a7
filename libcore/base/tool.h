/* tool.h - what every cg-* tool shares: usage, version, input loop, -t. */
#ifndef CG_TOOL_H
#define CG_TOOL_H

#include <getopt.h>
#include <stdio.h>

#include "format/doc.h"

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

/*
 * Call fn on each document read from the files argv[0..argc-1] (or stdin
 * when argc is 0; "-" is stdin).  With ruleset not NULL, input that is not
 * a cgt document is read as bare positions of that ruleset.  The document
 * is freed after fn returns.
 */
void cg_each_document(int argc, char **argv, const char *ruleset,
    void (*fn)(struct cg_doc *d, void *arg), void *arg);

/* One -t output line: the root's label, then each value, TAB-separated. */
void cg_tsv_row(FILE *out, const struct cg_doc *d, uint32_t root,
    const char *const *values, size_t nvalues);

/* Parse a decimal option argument from min to max; anything else is a
 * usage error naming the option and the range, as --jobs does:
 * "bad argument 'ARG' for OPTION (want MIN to MAX)". */
unsigned long cg_parse_count(const char *arg, const char *option,
    unsigned long min, unsigned long max);
/* Parse a size: bytes, or with a suffix k, M or G (2^10, 2^20, 2^30);
 * usage error if bad. */
unsigned long long cg_parse_size(const char *arg, const char *option);

#endif
