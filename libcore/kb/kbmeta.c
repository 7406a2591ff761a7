/* kbmeta.c - what a knowledge base says of itself (see kbfile.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/util.h"
#include "kb/kbfile.h"
#include "values/notation.h"

/* ------------------------------------------------------------- metadata */

void
cg_kb_meta_init(struct cg_kb_meta *m)
{
	memset(m, 0, sizeof *m);
	m->shard_k = m->shard_n = 1;
	m->block_size = CG_KB_BLOCK_DEFAULT;
	m->block_members = CG_KB_MEMBERS_DEFAULT;
}

void
cg_kb_meta_free(struct cg_kb_meta *m)
{
	uint32_t k;

	free(m->ruleset);
	free(m->params);
	free(m->plugin_version);
	free(m->family);
	free(m->index_family);
	for (k = 0; k < m->nkinds; k++)
		free(m->kinds[k]);
	cg_kb_meta_init(m);
}

static char *
dupnull(const char *s)
{
	return cg_xstrdup(s ? s : "");
}

void
cg_kb_meta_copy(struct cg_kb_meta *dst, const struct cg_kb_meta *src)
{
	uint32_t k;

	*dst = *src;
	dst->ruleset = dupnull(src->ruleset);
	dst->params = dupnull(src->params);
	dst->plugin_version = dupnull(src->plugin_version);
	dst->family = dupnull(src->family);
	dst->index_family = dupnull(src->index_family);
	for (k = 0; k < src->nkinds; k++)
		dst->kinds[k] = cg_xstrdup(src->kinds[k]);
}

int
cg_kb_meta_set_kinds(struct cg_kb_meta *m, const char *list)
{
	const char *p = list, *e;
	uint32_t k, n = 0;
	char *kinds[CG_KB_MAXKINDS];

	if (*p == '\0')
		return -1;
	for (;;) {
		e = p + strcspn(p, ",");
		if (e == p || n == CG_KB_MAXKINDS)
			goto bad;
		for (const char *q = p; q < e; q++)
			if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9')
			    || *q == '-'))
				goto bad;
		kinds[n] = cg_xstrndup(p, (size_t)(e - p));
		for (k = 0; k < n; k++)
			if (strcmp(kinds[k], kinds[n]) == 0) {
				n++;
				goto bad;
			}
		n++;
		if (*e == '\0')
			break;
		p = e + 1;
	}
	for (k = 0; k < m->nkinds; k++)
		free(m->kinds[k]);
	for (k = 0; k < n; k++)
		m->kinds[k] = kinds[k];
	m->nkinds = n;
	return 0;
bad:
	for (k = 0; k < n; k++)
		free(kinds[k]);
	return -1;
}

int
cg_kb_meta_kind(const struct cg_kb_meta *m, const char *kind)
{
	uint32_t k;

	for (k = 0; k < m->nkinds; k++)
		if (strcmp(m->kinds[k], kind) == 0)
			return (int)k;
	return -1;
}

const char *
cg_kb_meta_spec(const struct cg_kb_meta *m, char *buf, size_t len)
{
	if (m->params != NULL && *m->params)
		snprintf(buf, len, "%s:%s", m->ruleset, m->params);
	else
		snprintf(buf, len, "%s", m->ruleset);
	return buf;
}

static const char *
nz(const char *s)
{
	return s ? s : "";
}

int
cg_kb_meta_same_base(const struct cg_kb_meta *a, const struct cg_kb_meta *b,
    char *why, size_t whylen)
{
	char sa[256], sb[256];
	uint32_t k;

	if (strcmp(nz(a->ruleset), nz(b->ruleset)) != 0 ||
	    strcmp(nz(a->params), nz(b->params)) != 0) {
		snprintf(why, whylen, "ruleset '%s' differs from '%s'",
		    cg_quote_str(cg_kb_meta_spec(b, sb, sizeof sb)),
		    cg_quote_str(cg_kb_meta_spec(a, sa, sizeof sa)));
		return 0;
	}
	if (strcmp(nz(a->plugin_version), nz(b->plugin_version)) != 0) {
		snprintf(why, whylen, "ruleset version '%s' differs from '%s'",
		    cg_quote_str(nz(b->plugin_version)),
		    cg_quote_str(nz(a->plugin_version)));
		return 0;
	}
	if (strcmp(nz(a->family), nz(b->family)) != 0) {
		snprintf(why, whylen, "family '%s' differs from '%s'",
		    cg_quote_str(nz(b->family)), cg_quote_str(nz(a->family)));
		return 0;
	}
	if (a->nkinds != b->nkinds)
		goto kinds;
	for (k = 0; k < a->nkinds; k++)
		if (strcmp(a->kinds[k], b->kinds[k]) != 0)
			goto kinds;
	if (a->shard_n != b->shard_n) {
		snprintf(why, whylen, "shard count %u differs from %u",
		    b->shard_n, a->shard_n);
		return 0;
	}
	if (strcmp(nz(a->index_family), nz(b->index_family)) != 0) {
		snprintf(why, whylen, "index '%s' differs from '%s'",
		    cg_quote_str(nz(b->index_family)), cg_quote_str(nz(a->index_family)));
		return 0;
	}
	if (a->block_members != b->block_members ||
	    a->block_size != b->block_size) {
		snprintf(why, whylen, "block size %u/%u differs from %u/%u",
		    b->block_members, b->block_size, a->block_members,
		    a->block_size);
		return 0;
	}
	return 1;
kinds:
	snprintf(why, whylen, "value kinds differ");
	return 0;
}

uint32_t
cg_kb_shard_of(const unsigned char *key, size_t len, uint32_t n)
{
	uLong c = crc32(0L, Z_NULL, 0);

	c = crc32(c, key, (uInt)len);
	return (uint32_t)(c % n) + 1;
}

