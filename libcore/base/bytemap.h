/* bytemap.h - a hash map from byte strings to 64-bit values.
 *
 * Keys are copied into an arena; entries are never removed.  Iteration
 * order is insertion order (entries are numbered 0, 1, ...), so output
 * built from a map is deterministic.  Keys and values never move: the
 * pointers below stay valid while the map lives.  The position graph's
 * table (canonical position bytes -> vertex) is one; see bench/table for
 * why it is ours and not uthash. */
#ifndef CG_BYTEMAP_H
#define CG_BYTEMAP_H

#include <stddef.h>
#include <stdint.h>

struct cg_bytemap;

struct cg_bytemap *cg_bytemap_new(void);
void cg_bytemap_free(struct cg_bytemap *m);
/* Entry number of key, or -1 when absent. */
int64_t cg_bytemap_find(const struct cg_bytemap *m, const void *key,
    size_t len);
/* Entry number of key, inserting it (value 0) if absent; *isnew says
 * which.  Exits with "out of memory" when memory runs out. */
uint64_t cg_bytemap_intern(struct cg_bytemap *m, const void *key,
    size_t len, int *isnew);
/* Intern n keys (key i is keys[off[i] .. off[i+1])): out[i] is its
 * entry, isnew[i] (when isnew is not NULL) whether it was made.  The
 * same as n calls of cg_bytemap_intern, with the memory accesses of the
 * keys overlapped. */
void cg_bytemap_intern_batch(struct cg_bytemap *m, const unsigned char *keys,
    const size_t *off, size_t n, uint64_t *out, unsigned char *isnew);
/* Let several threads use the map at once: lookups stay lock-free,
 * inserts take a mutex.  Values are the callers' to synchronise. */
void cg_bytemap_share(struct cg_bytemap *m, int shared);
size_t cg_bytemap_count(const struct cg_bytemap *m);
uint64_t *cg_bytemap_value(struct cg_bytemap *m, uint64_t entry);
const unsigned char *cg_bytemap_key(const struct cg_bytemap *m,
    uint64_t entry, size_t *len);
/* Bytes of memory held. */
size_t cg_bytemap_memory(const struct cg_bytemap *m);

uint64_t cg_hash_bytes(const void *data, size_t len, uint64_t seed);

#endif
