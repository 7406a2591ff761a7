/* bytemap.h - a hash map from byte strings to 64-bit values.
 *
 * Keys are copied into an arena; entries are never removed.  Iteration
 * order is insertion order (entries are numbered 0, 1, ...), so output
 * built from a map is deterministic.  Used as the position table of the
 * solvers (canonical position bytes -> node or result). */
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
size_t cg_bytemap_count(const struct cg_bytemap *m);
uint64_t *cg_bytemap_value(struct cg_bytemap *m, uint64_t entry);
const unsigned char *cg_bytemap_key(const struct cg_bytemap *m,
    uint64_t entry, size_t *len);
/* Bytes of memory held. */
size_t cg_bytemap_memory(const struct cg_bytemap *m);

uint64_t cg_hash_bytes(const void *data, size_t len, uint64_t seed);

#endif
