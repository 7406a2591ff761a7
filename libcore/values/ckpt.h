/* ckpt.h - the checkpoint of a knowledge-base build (and of cg-outcome's
 * bit search, solve/bits.c): the values computed so far, appended in
 * batches, so a run killed at any moment (kill -9 included) resumes where
 * it was, at any --jobs.
 *
 * The file: the magic "CGKBCKP2", then records, each a type byte, a
 * 32-bit length, the payload and a CRC-32 chained over the previous
 * record's CRC (the first over the magic): a record changed, dropped,
 * moved or spliced in from another file fails the chain.  A record cut
 * short at the end (the batch a kill interrupted) is dropped.  Types:
 *   'H'  the build it belongs to (text; another build's file is refused)
 *   'G'  a canonical form: 0, num, exp, up, nim for x + up.^ + *nim, or
 *        1, nl, nr and the options as distances back to earlier 'G'
 *        records (games are numbered 0, 1, ... in file order), or 2,
 *        sign, exp, n and n 64-bit words (least significant first),
 *        up, nim for a number-up-star whose number is past 64 bits
 *   'V'  a value: kind, key, then 0 and a game number, or 1 and a text
 * Integers are LEB128 varints (zigzag for signed ones). */
#ifndef CG_CKPT_H
#define CG_CKPT_H

#include <stddef.h>
#include <stdint.h>

#include "values/canon.h"

struct cg_ckpt;

/* Called for each value found when a checkpoint is opened: g is a game
 * (text NULL) or text is the value (g CG_NO_GAME).  Non-zero stops the
 * load with the message the callback put in err. */
typedef int (*cg_ckpt_value_fn)(void *ctx, const unsigned char *key,
    size_t len, uint32_t kind, cg_game g, const char *text, char *err,
    size_t errlen);

/*
 * Open path for the build described by header: load what it holds
 * (fn per value; *loaded counts them) and get ready to append.  A file
 * that does not exist is created at the first flush.  NULL with a
 * message in err when it belongs to another build, is damaged or cannot
 * be read.
 */
struct cg_ckpt *cg_ckpt_open(const char *path, const char *header,
    cg_ckpt_value_fn fn, void *ctx, size_t *loaded, char *err,
    size_t errlen);
/* Queue a value (a game, with the games it is made of, or a text). */
void cg_ckpt_game(struct cg_ckpt *c, const unsigned char *key, size_t len,
    uint32_t kind, cg_game g);
void cg_ckpt_text(struct cg_ckpt *c, const unsigned char *key, size_t len,
    uint32_t kind, const char *text);
/* Append what is queued and make it durable; -1 with err on failure. */
int cg_ckpt_flush(struct cg_ckpt *c, char *err, size_t errlen);
/* The bytes of the file once what is queued is flushed. */
uint64_t cg_ckpt_size(const struct cg_ckpt *c);
/* Start the file afresh: drop what is queued and queue the header again,
 * for the caller to queue what the new file keeps; the next flush writes
 * it whole beside the old one (PATH.tmp) and renames it over it, so the
 * file is at every moment one valid checkpoint or the other. */
void cg_ckpt_restart(struct cg_ckpt *c);
/* Close (flushing nothing); remove: delete the file too. */
void cg_ckpt_close(struct cg_ckpt *c, int remove);

/* Bytes a checkpoint record may hold: a longer length is damage. */
#define CG_CKPT_MAX_RECORD ((uint32_t)1 << 26)

#endif
