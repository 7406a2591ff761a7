/* bytemap.c - open-addressing hash map from byte strings to values.
 *
 * Layout.  Entries (key place, hash, value) live in chunks of 2^16 and
 * keys in an arena of 1 MiB chunks, so neither moves once written: the
 * pointers cg_bytemap_value() and cg_bytemap_key() return stay valid for
 * the life of the map.  The slot array holds (hash << 32 | entry + 1), so
 * a probe chain is walked without touching the entries.
 *
 * Sharing between threads (cg_bytemap_share).  Lookups take no lock: a
 * writer fills in an entry and its key before it publishes the slot with
 * a release store, and grows the slot array and the chunk tables by
 * publishing new copies (the old ones are kept until the map is freed,
 * which costs at most as much again as the final size), so a reader
 * always walks a consistent array.  A reader that misses because a
 * writer was busy takes the lock on its way to insert, looks again and
 * finds the key.  Inserts take one mutex. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytemap.h"
#include "base/util.h"

#define ECHUNK_BITS 16
#define ECHUNK (1u << ECHUNK_BITS)
#define ACHUNK ((size_t)1 << 20)
#define MAX_ENTRIES (UINT32_MAX - 1)

struct entry {
	uint32_t achunk;   /* arena chunk of the key */
	uint32_t off;      /* offset in that chunk */
	uint32_t len;
	uint32_t hash;
	uint64_t value;
};

struct slots {
	size_t mask;
	_Atomic uint64_t s[];
};

/* A table of chunk pointers; replaced by a larger copy when full. */
struct ptrs {
	size_t cap;
	void *p[];
};

struct cg_bytemap {
	struct slots *_Atomic slots;
	struct ptrs *_Atomic echunks;
	struct ptrs *_Atomic achunks;
	_Atomic size_t n;
	size_t nachunk;         /* arena chunks in use */
	size_t aused;           /* bytes used in the last arena chunk */
	size_t acap;            /* size of the last arena chunk */
	void **retired;         /* replaced arrays, freed with the map */
	size_t nretired;
	size_t bytes;           /* memory held */
	int shared;
	pthread_mutex_t lock;
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

static struct slots *
slots_new(size_t n)
{
	struct slots *s = cg_xcalloc(1, sizeof *s + n * sizeof s->s[0]);

	s->mask = n - 1;
	return s;
}

static struct ptrs *
ptrs_new(size_t cap, const struct ptrs *old)
{
	struct ptrs *p = cg_xcalloc(1, sizeof *p + cap * sizeof p->p[0]);

	p->cap = cap;
	if (old != NULL)
		memcpy(p->p, old->p, old->cap * sizeof p->p[0]);
	return p;
}

static void
retire(struct cg_bytemap *m, void *p)
{
	m->retired = cg_xreallocarray(m->retired, m->nretired + 1,
	    sizeof *m->retired);
	m->retired[m->nretired++] = p;
}

struct cg_bytemap *
cg_bytemap_new(void)
{
	struct cg_bytemap *m = cg_xcalloc(1, sizeof *m);

	atomic_init(&m->slots, slots_new(1024));
	atomic_init(&m->echunks, ptrs_new(16, NULL));
	atomic_init(&m->achunks, ptrs_new(16, NULL));
	atomic_init(&m->n, 0);
	m->bytes = sizeof *m + 1024 * 8 + 2 * (16 * sizeof(void *));
	pthread_mutex_init(&m->lock, NULL);
	return m;
}

void
cg_bytemap_free(struct cg_bytemap *m)
{
	struct ptrs *e, *a;
	size_t i, n;

	if (m == NULL)
		return;
	e = atomic_load_explicit(&m->echunks, memory_order_relaxed);
	a = atomic_load_explicit(&m->achunks, memory_order_relaxed);
	n = atomic_load_explicit(&m->n, memory_order_relaxed);
	for (i = 0; i < (n + ECHUNK - 1) / ECHUNK; i++)
		free(e->p[i]);
	for (i = 0; i < m->nachunk; i++)
		free(a->p[i]);
	for (i = 0; i < m->nretired; i++)
		free(m->retired[i]);
	free(m->retired);
	free(e);
	free(a);
	free(atomic_load_explicit(&m->slots, memory_order_relaxed));
	pthread_mutex_destroy(&m->lock);
	free(m);
}

void
cg_bytemap_share(struct cg_bytemap *m, int shared)
{
	m->shared = shared;
}

static inline struct entry *
entry_at(const struct cg_bytemap *m, uint64_t e)
{
	struct ptrs *c = atomic_load_explicit(
	    &((struct cg_bytemap *)m)->echunks, memory_order_acquire);

	return (struct entry *)c->p[e >> ECHUNK_BITS] + (e & (ECHUNK - 1));
}

static inline const unsigned char *
key_of(const struct cg_bytemap *m, const struct entry *e)
{
	struct ptrs *c = atomic_load_explicit(
	    &((struct cg_bytemap *)m)->achunks, memory_order_acquire);

	return (const unsigned char *)c->p[e->achunk] + e->off;
}

/* The entry of key (hash h) in slot array s, or -1; *at is where the
 * probe stopped (an empty slot when absent). */
static int64_t
probe(const struct cg_bytemap *m, struct slots *s, const void *key,
    size_t len, uint32_t h, size_t *at)
{
	size_t j = h & s->mask;
	uint64_t w;

	while ((w = atomic_load_explicit(&s->s[j], memory_order_acquire))
	    != 0) {
		if ((uint32_t)(w >> 32) == h) {
			const struct entry *e = entry_at(m, (uint32_t)w - 1);

			if (e->len == len && (len == 0 ||
			    memcmp(key_of(m, e), key, len) == 0)) {
				*at = j;
				return (int64_t)(uint32_t)w - 1;
			}
		}
		j = (j + 1) & s->mask;
	}
	*at = j;
	return -1;
}

static inline uint32_t
hash32(const void *key, size_t len)
{
	uint32_t h = (uint32_t)cg_hash_bytes(key, len, 0);

	return h ? h : 1;
}

int64_t
cg_bytemap_find(const struct cg_bytemap *m, const void *key, size_t len)
{
	size_t at;

	return probe(m, atomic_load_explicit(
	    &((struct cg_bytemap *)m)->slots, memory_order_acquire), key, len,
	    hash32(key, len), &at);
}

/* A bigger slot array with every entry, published; the old one retired
 * while other threads may be reading it, else freed (half the slots'
 * memory in a long single-threaded search). */
static void
grow_slots(struct cg_bytemap *m, struct slots *old, size_t n)
{
	struct slots *s = slots_new((old->mask + 1) * 2);
	size_t i, j;
	uint64_t w;

	for (i = 0; i <= old->mask; i++) {
		w = atomic_load_explicit(&old->s[i], memory_order_relaxed);
		if (w == 0)
			continue;
		j = (w >> 32) & s->mask;
		while (atomic_load_explicit(&s->s[j], memory_order_relaxed))
			j = (j + 1) & s->mask;
		atomic_store_explicit(&s->s[j], w, memory_order_relaxed);
	}
	(void)n;
	m->bytes += (s->mask + 1) * 8;
	atomic_store_explicit(&m->slots, s, memory_order_release);
	if (m->shared) {
		retire(m, old);
	} else {
		m->bytes -= (old->mask + 1) * 8;
		free(old);
	}
}

/* Room for a key of len bytes: its arena chunk and offset. */
static void
arena_place(struct cg_bytemap *m, size_t len, uint32_t *chunk, uint32_t *off)
{
	struct ptrs *a = atomic_load_explicit(&m->achunks,
	    memory_order_relaxed);

	if (m->nachunk == 0 || m->aused + len > m->acap) {
		size_t size = len > ACHUNK ? len : ACHUNK;

		if (m->nachunk == a->cap) {
			struct ptrs *b = ptrs_new(a->cap * 2, a);

			atomic_store_explicit(&m->achunks, b,
			    memory_order_release);
			retire(m, a);
			a = b;
		}
		a->p[m->nachunk++] = cg_xmalloc(size);
		m->aused = 0;
		m->acap = size;
		m->bytes += size;
	}
	*chunk = (uint32_t)(m->nachunk - 1);
	*off = (uint32_t)m->aused;
	m->aused += len;
}

static uint64_t
insert(struct cg_bytemap *m, const void *key, size_t len, uint32_t h,
    int *isnew)
{
	struct slots *s = atomic_load_explicit(&m->slots, memory_order_relaxed);
	size_t at, n = atomic_load_explicit(&m->n, memory_order_relaxed);
	int64_t found = probe(m, s, key, len, h, &at);
	struct ptrs *ec;
	struct entry *e;
	uint32_t chunk, off;

	if (found >= 0) {
		*isnew = 0;
		return (uint64_t)found;
	}
	if (len > UINT32_MAX || n >= MAX_ENTRIES)
		cg_die(CG_EXIT_DATA, "position table full");
	ec = atomic_load_explicit(&m->echunks, memory_order_relaxed);
	if (n % ECHUNK == 0) {
		if (n / ECHUNK == ec->cap) {
			struct ptrs *b = ptrs_new(ec->cap * 2, ec);

			atomic_store_explicit(&m->echunks, b,
			    memory_order_release);
			retire(m, ec);
			ec = b;
		}
		ec->p[n / ECHUNK] = cg_xmalloc(ECHUNK * sizeof(struct entry));
		m->bytes += ECHUNK * sizeof(struct entry);
	}
	arena_place(m, len, &chunk, &off);
	if (len > 0)
		memcpy((unsigned char *)atomic_load_explicit(&m->achunks,
		    memory_order_relaxed)->p[chunk] + off, key, len);
	e = (struct entry *)ec->p[n / ECHUNK] + n % ECHUNK;
	e->achunk = chunk;
	e->off = off;
	e->len = (uint32_t)len;
	e->hash = h;
	e->value = 0;
	atomic_store_explicit(&m->n, n + 1, memory_order_release);
	atomic_store_explicit(&s->s[at], (uint64_t)h << 32 | (n + 1),
	    memory_order_release);
	if ((n + 1) * 3 >= (s->mask + 1) * 2)
		grow_slots(m, s, n + 1);
	*isnew = 1;
	return n;
}

/* cg_bytemap_intern of a key whose hash is h. */
static uint64_t
intern_hashed(struct cg_bytemap *m, const void *key, size_t len, uint32_t h,
    int *isnew)
{
	uint64_t e;
	int fresh;

	if (m->shared) {
		size_t at;
		int64_t found = probe(m, atomic_load_explicit(&m->slots,
		    memory_order_acquire), key, len, h, &at);

		if (found >= 0) {
			if (isnew)
				*isnew = 0;
			return (uint64_t)found;
		}
		pthread_mutex_lock(&m->lock);
		e = insert(m, key, len, h, &fresh);
		pthread_mutex_unlock(&m->lock);
	} else {
		e = insert(m, key, len, h, &fresh);
	}
	if (isnew)
		*isnew = fresh;
	return e;
}

uint64_t
cg_bytemap_intern(struct cg_bytemap *m, const void *key, size_t len,
    int *isnew)
{
	return intern_hashed(m, key, len, hash32(key, len), isnew);
}

/*
 * Many keys at once: the hashes first, then the slots, the entries and
 * the keys each fetched for all keys before any is read, so the cache
 * misses of one key overlap those of the others instead of following
 * them (a position's options are looked up together).
 */
void
cg_bytemap_intern_batch(struct cg_bytemap *m, const unsigned char *keys,
    const size_t *off, size_t n, uint64_t *out, unsigned char *isnew)
{
	struct slots *s = atomic_load_explicit(&m->slots, memory_order_acquire);
	uint32_t hs[64], cand[64];
	size_t i, done, end, j;
	uint64_t w;

	for (done = 0; done < n; done = end) {
		end = done + 64 < n ? done + 64 : n;
		for (i = done; i < end; i++) {
			hs[i - done] = hash32(keys + off[i], off[i + 1] - off[i]);
			__builtin_prefetch(&s->s[hs[i - done] & s->mask]);
		}
		for (i = done; i < end; i++) {
			/* the first slot whose hash matches: its entry */
			cand[i - done] = 0;
			for (j = hs[i - done] & s->mask; (w = atomic_load_explicit(
			    &s->s[j], memory_order_acquire)) != 0;
			    j = (j + 1) & s->mask)
				if ((uint32_t)(w >> 32) == hs[i - done]) {
					cand[i - done] = (uint32_t)w;
					__builtin_prefetch(entry_at(m,
					    (uint32_t)w - 1));
					break;
				}
		}
		for (i = done; i < end; i++)
			if (cand[i - done] != 0)
				__builtin_prefetch(key_of(m, entry_at(m,
				    cand[i - done] - 1)));
		for (i = done; i < end; i++) {
			int fresh;

			out[i] = intern_hashed(m, keys + off[i],
			    off[i + 1] - off[i], hs[i - done], &fresh);
			if (isnew != NULL)
				isnew[i] = (unsigned char)fresh;
		}
		s = atomic_load_explicit(&m->slots, memory_order_acquire);
	}
}

size_t
cg_bytemap_count(const struct cg_bytemap *m)
{
	return atomic_load_explicit(&((struct cg_bytemap *)m)->n,
	    memory_order_acquire);
}

uint64_t *
cg_bytemap_value(struct cg_bytemap *m, uint64_t entry)
{
	return &entry_at(m, entry)->value;
}

const unsigned char *
cg_bytemap_key(const struct cg_bytemap *m, uint64_t entry, size_t *len)
{
	const struct entry *e = entry_at(m, entry);

	*len = e->len;
	return key_of(m, e);
}

size_t
cg_bytemap_memory(const struct cg_bytemap *m)
{
	return m->bytes;
}
