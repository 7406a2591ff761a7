/* bytemap.c - open-addressing hash map from byte strings to values. */
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "base/util.h"

struct entry {
	uint64_t off;   /* key offset in the arena */
	uint32_t len;
	uint32_t hash;  /* low bits of the key's hash */
	uint64_t value;
};

struct cg_bytemap {
	struct entry *entries;
	size_t n, cap;
	uint64_t *slots;    /* entry number + 1 (0 = empty), key hash << 32 */
	size_t nslots;      /* power of two */
	unsigned char *arena;
	size_t arena_len, arena_cap;
};

static inline uint64_t
rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint64_t
mix(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;

	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t
cg_hash_bytes(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = seed ^ 0x9e3779b97f4a7c15ull ^ (len * 0xff51afd7ed558ccdull);
	uint64_t tail = 0;

	while (len >= 8) {
		h = mix(h ^ rd64(p), 0xa0761d6478bd642full);
		p += 8;
		len -= 8;
	}
	if (len) {
		memcpy(&tail, p, len);
		h = mix(h ^ tail, 0xe7037ed1a0b428dbull);
	}
	return mix(h, 0x8ebc6af09c88c6e3ull);
}

struct cg_bytemap *
cg_bytemap_new(void)
{
	struct cg_bytemap *m = cg_xcalloc(1, sizeof *m);

	m->nslots = 1024;
	m->slots = cg_xcalloc(m->nslots, sizeof *m->slots);
	return m;
}

void
cg_bytemap_free(struct cg_bytemap *m)
{
	if (m == NULL)
		return;
	free(m->entries);
	free(m->slots);
	free(m->arena);
	free(m);
}

#define SLOT(entry, hash) ((uint64_t)(entry) | (uint64_t)(hash) << 32)
#define SLOT_ENTRY(slot) ((uint32_t)(slot))

static void
rehash(struct cg_bytemap *m)
{
	size_t i, mask, s, old = m->nslots;
	uint64_t *prev = m->slots, h;

	m->nslots *= 2;
	m->slots = cg_xcalloc(m->nslots, sizeof *m->slots);
	mask = m->nslots - 1;
	for (i = 0; i < old; i++) {
		if (prev[i] == 0)
			continue;
		h = prev[i] >> 32;
		s = h & mask;
		while (m->slots[s] != 0)
			s = (s + 1) & mask;
		m->slots[s] = prev[i];
	}
	free(prev);
}

static size_t
probe(const struct cg_bytemap *m, const void *key, size_t len, uint32_t h,
    int *found)
{
	size_t mask = m->nslots - 1, s = h & mask;
	const struct entry *e;

	/* the hash kept in the slot spares a visit to most entries */
	while (m->slots[s] != 0) {
		if ((uint32_t)(m->slots[s] >> 32) != h) {
			s = (s + 1) & mask;
			continue;
		}
		e = &m->entries[SLOT_ENTRY(m->slots[s]) - 1];
		if (e->hash == h && e->len == len && (len == 0 ||
		    memcmp(m->arena + e->off, key, len) == 0)) {
			*found = 1;
			return s;
		}
		s = (s + 1) & mask;
	}
	*found = 0;
	return s;
}

int64_t
cg_bytemap_find(const struct cg_bytemap *m, const void *key, size_t len)
{
	uint32_t h = (uint32_t)cg_hash_bytes(key, len, 0);
	int found;
	size_t s = probe(m, key, len, h, &found);

	return found ? (int64_t)SLOT_ENTRY(m->slots[s]) - 1 : -1;
}

uint64_t
cg_bytemap_intern(struct cg_bytemap *m, const void *key, size_t len,
    int *isnew)
{
	uint32_t h = (uint32_t)cg_hash_bytes(key, len, 0);
	int found;
	size_t s = probe(m, key, len, h, &found);
	struct entry *e;

	if (found) {
		if (isnew)
			*isnew = 0;
		return SLOT_ENTRY(m->slots[s]) - 1;
	}
	if (len > UINT32_MAX || m->n >= UINT32_MAX - 1)
		cg_die(CG_EXIT_DATA, "position table full");
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 1024;
		m->entries = cg_xreallocarray(m->entries, m->cap,
		    sizeof *m->entries);
	}
	if (m->arena_len + len > m->arena_cap) {
		while (m->arena_len + len > m->arena_cap)
			m->arena_cap = m->arena_cap ? m->arena_cap * 2 : 65536;
		m->arena = cg_xrealloc(m->arena, m->arena_cap);
	}
	if (len > 0) /* an empty key may come first, with no arena yet */
		memcpy(m->arena + m->arena_len, key, len);
	e = &m->entries[m->n];
	e->off = m->arena_len;
	e->len = (uint32_t)len;
	e->hash = h;
	e->value = 0;
	m->arena_len += len;
	m->slots[s] = SLOT(m->n + 1, h);
	m->n++;
	if (m->n * 3 >= m->nslots * 2)
		rehash(m);
	if (isnew)
		*isnew = 1;
	return m->n - 1;
}

size_t
cg_bytemap_count(const struct cg_bytemap *m)
{
	return m->n;
}

uint64_t *
cg_bytemap_value(struct cg_bytemap *m, uint64_t entry)
{
	return &m->entries[entry].value;
}

const unsigned char *
cg_bytemap_key(const struct cg_bytemap *m, uint64_t entry, size_t *len)
{
	*len = m->entries[entry].len;
	return m->arena + m->entries[entry].off;
}

size_t
cg_bytemap_memory(const struct cg_bytemap *m)
{
	return sizeof *m + m->cap * sizeof *m->entries +
	    m->nslots * sizeof *m->slots + m->arena_cap;
}
