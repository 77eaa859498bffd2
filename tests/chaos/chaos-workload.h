/* SPDX-License-Identifier: Apache-2.0 */
/* chaos-workload.h: the state shared by the chaos workload's workers (one
 * thread per kind of work, each the only writer of its own keys) and the
 * accounting of what they did: acknowledged, in doubt, failed, and the
 * longest time without a successful operation. */
#ifndef CHAOS_WORKLOAD_H
#define CHAOS_WORKLOAD_H

#include <hiredis/hiredis.h>

#include <hbase-glib/hbase-glib-index.h>

G_BEGIN_DECLS

#define CHAOS_KV_TABLE       "chaos_kv"
#define CHAOS_SCAN_TABLE     "chaos_scan"
#define CHAOS_COUNTER_TABLE  "chaos_counters"
#define CHAOS_SET_TABLE      "chaos_sets"
#define CHAOS_INDEXED_TABLE  "chaos_indexed"
#define CHAOS_INDEX_META     "chaos_index_meta"
#define CHAOS_INDEX_PREFIX   "chaos-index"
#define CHAOS_ORACLE_PREFIX  "chaos-oracle"

typedef struct {
  HBaseClient *client;
  const char *redis_host;
  guint redis_port;
  gint64 end_us;                /* monotonic time the load phase ends */
  gint stop;                    /* set when workers must stop at once */
} ChaosRun;

/* --- accounting ------------------------------------------------------------------ */

void     chaos_stats_init        (void);
/* a worker thread's name, for its own longest time without a success */
void     chaos_worker_start      (const char *name);
void     chaos_worker_end        (void);
/* a successful operation (read or write) */
void     chaos_note_success      (void);
/* an acknowledged write */
void     chaos_note_acked        (void);
/* a write that failed: in doubt when it may have been applied */
void     chaos_note_write_failed (const char *what, const GError *error, gboolean in_doubt);
/* a read that failed */
void     chaos_note_read_failed  (const char *what, const GError *error);
/* TRUE when a failed write may have been applied */
gboolean chaos_write_in_doubt    (const GError *error);
void     chaos_stats_print       (void);
void     chaos_log               (const char *format, ...) G_GNUC_PRINTF (1, 2);
gboolean chaos_running           (ChaosRun *run);
/* sleeps up to ms milliseconds, less when the run stops */
void     chaos_pause             (ChaosRun *run, guint ms);

/* --- an invariant's outcome --------------------------------------------------------- */

/* prints "invariant NAME: DETAILS" and remembers a failure */
void     chaos_invariant         (const char *name, gboolean holds, const char *format, ...) G_GNUC_PRINTF (3, 4);
gboolean chaos_all_invariants_hold (void);

/* --- the workers (chaos-tables.c, chaos-structures.c) ------------------------------ */

typedef struct _ChaosKv ChaosKv;            /* puts, buffered puts, gets of one table */
typedef struct _ChaosCounters ChaosCounters;
typedef struct _ChaosScans ChaosScans;
typedef struct _ChaosStructures ChaosStructures;

#define CHAOS_SCAN_ROWS 3000

gboolean         chaos_setup_tables      (HBaseClient *client, GError **error);

ChaosKv         *chaos_kv_new            (ChaosRun *run, HBaseTable *table, const char *label,
                                          const char *key_prefix, guint n_keys, gboolean buffered);
gpointer         chaos_kv_thread         (gpointer kv);
void             chaos_kv_check          (ChaosKv *kv);
void             chaos_kv_free           (ChaosKv *kv);

ChaosCounters   *chaos_counters_new      (ChaosRun *run, HBaseTable *table, guint n_counters);
gpointer         chaos_counters_thread   (gpointer counters);
void             chaos_counters_check    (ChaosCounters *counters);
void             chaos_counters_free     (ChaosCounters *counters);

gboolean         chaos_scan_fill         (HBaseTable *table, GError **error);
ChaosScans      *chaos_scans_new         (ChaosRun *run, HBaseTable *table, const char *label);
gpointer         chaos_scans_thread      (gpointer scans);
void             chaos_scans_check       (ChaosScans *scans);
void             chaos_scans_free        (ChaosScans *scans);

ChaosStructures *chaos_structures_new    (ChaosRun *run, HBaseTable *table, GError **error);
gpointer         chaos_structures_thread (gpointer structures);
void             chaos_structures_check  (ChaosStructures *structures);
void             chaos_structures_free   (ChaosStructures *structures);

G_END_DECLS

#endif /* CHAOS_WORKLOAD_H */
