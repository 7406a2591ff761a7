/* kb.c - knowledge-base lookups.  PLACEHOLDER until the cgkb reader lands:
 * -K is accepted by the tools' option parsers but every base is refused. */
#include "kb.h"
#include "util.h"

void
cg_kb_add(const char *path)
{
	cg_die(CG_EXIT_DATA, "%s: knowledge bases are not supported yet", path);
}

int
cg_kb_find(struct cg_plugin *rs, const unsigned char *pos, size_t len,
    const char *kind, struct cg_buf *out)
{
	(void)rs; (void)pos; (void)len; (void)kind; (void)out;
	return 0;
}

void
cg_kb_close_all(void)
{
}
