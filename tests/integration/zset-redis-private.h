/* SPDX-License-Identifier: Apache-2.0 */
/* zset-redis-private.h: what the two files of the sorted-set differential
 * test share (test-zset-redis.c runs it, zset-redis-commands.c holds the
 * steps of the lex, range-removal, random and union/inter/diff commands). */
#ifndef ZSET_REDIS_PRIVATE_H
#define ZSET_REDIS_PRIVATE_H

#include "../structures/structures-support.h"

G_BEGIN_DECLS

#define N_ZSETS 3
#define UNIVERSE 45

typedef struct {
  StsDiff diff;
  HBaseZSet *zsets[N_ZSETS];
  GBytes *keys[N_ZSETS];
  /* a set whose members all have score 0 (what lex ranges are for) */
  HBaseZSet *lex_zset;
  GBytes *lex_key;
  /* a set never written: a missing key */
  HBaseZSet *missing_zset;
  GBytes *missing_key;
} Run;

gdouble     random_score  (GRand                 *rand);
GBytes     *text_arg      (const char            *text);
GBytes     *score_arg     (gdouble                score,
                           gboolean               exclusive);
gboolean    same_score    (gdouble                a,
                           gdouble                b);
gdouble     parse_score   (Run                   *run,
                           redisReply            *reply);
redisReply *redis_call    (Run                   *run,
                           GPtrArray             *argv);
/* argv: the command's name and the key of zset @zset */
GPtrArray  *command       (Run                   *run,
                           const char            *name,
                           guint                  zset);
/* ours (HBaseZSetEntry) against a WITHSCORES reply */
void        same_entries  (Run                   *run,
                           const char            *what,
                           GPtrArray             *ours,
                           redisReply            *reply);
/* the entries of @iter (unreferenced) */
GPtrArray  *collect       (Run                   *run,
                           HBaseZSetIter         *iter,
                           const char            *what);
void        random_range  (Run                   *run,
                           HBaseScoreRange       *range);
void        compare_whole (Run                   *run,
                           guint                  zset,
                           const char            *what);

/* zset-redis-commands.c: the steps, and their setup and teardown */
void        zr_setup      (Run                   *run,
                           HBaseTable            *table);
void        zr_teardown   (Run                   *run);
/* one random step among the commands of zset-redis-commands.c */
void        zr_step       (Run                   *run);

G_END_DECLS

#endif /* ZSET_REDIS_PRIVATE_H */
