/* rankbuild.h - building a knowledge base of a family the ruleset ranks
 * (cg/rank.h), as endgame tablebases are built: the members numbered by
 * their slots, their canonical forms in one array indexed by member,
 * made wave by wave in increasing measure (an option's components are
 * all smaller, so made before it), each wave on every core.  No table of
 * positions and no keys are held: a member's position is made from its
 * slot when it is evaluated, and the options' components are found by
 * their slots. */
#ifndef CG_KB_RANKBUILD_H
#define CG_KB_RANKBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "host/plugin.h"
#include "kb/build.h"
#include "kb/kbfile.h"

struct cg_kb_ranked;

/* A builder for o->family of rs, or NULL when rs does not rank that
 * family.  meta is the base's description (kinds, shard, family, ...),
 * copied. */
struct cg_kb_ranked *cg_kb_ranked_new(const struct cg_kb_build_options *o,
    struct cg_plugin *rs, const struct cg_kb_meta *meta);
void cg_kb_ranked_free(struct cg_kb_ranked *b);
/* Enumerate the family: every member, those of the base (its shard and
 * measure range) marked. */
void cg_kb_ranked_family(struct cg_kb_ranked *b);
/* Members of the base, and positions the ruleset enumerated. */
size_t cg_kb_ranked_count(const struct cg_kb_ranked *b);
size_t cg_kb_ranked_seen(const struct cg_kb_ranked *b);
/* On standard error, what the build will take, in time and memory,
 * from a sample computed in about budget seconds. */
void cg_kb_ranked_estimate(struct cg_kb_ranked *b, double budget);
/* Every value, resuming from and writing to the checkpoint ckpt (NULL:
 * none).  An interrupt or the memory limit stops the build after saving
 * the checkpoint (fatal, with the reason). */
void cg_kb_ranked_compute(struct cg_kb_ranked *b, const char *ckpt);
/* Write the base ("-": standard output). */
void cg_kb_ranked_write(struct cg_kb_ranked *b, const char *path);

#endif
