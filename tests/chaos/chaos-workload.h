/* SPDX-License-Identifier: Apache-2.0 */
/* chaos-workload.h: the state shared by the chaos workload's workers (one
 * thread per kind of work, each the only writer of its own keys; some
 * through the Thrift2 gateways, some through the native backend) and the
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
/* the native backend's own tables (counters and check-and-mutate share one) */
#define CHAOS_NATIVE_KV_TABLE     "chaos_native_kv"
#define CHAOS_NATIVE_SCAN_TABLE   "chaos_native_scan"
#define CHAOS_NATIVE_ATOMIC_TABLE "chaos_native_atomic"

typedef struct {
  HBaseClient *client;
  const char *redis_host;
  guint redis_port;
  gint64 end_us;                /* monotonic time the load phase is planned to end */
  gint stop;                    /* set when the load ends */
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

/* Operation kinds ("puts: buffered put", "structures: ZREM", ...): each
 * kind a worker issues is declared with the floor of operations that must
 * succeed (writes acknowledged, reads answered) for the run to count */
void     chaos_kind_expect       (const char *kind, guint floor);
void     chaos_kind_done         (const char *kind, gboolean ok);
/* the share of writes that may end in doubt; more fails the run */
#define CHAOS_MAX_IN_DOUBT_SHARE 0.05
/* after the last chaos action, no worker may go longer without a success */
#define CHAOS_RECOVERY_BOUND_S   20
/* Floors, the in-doubt share, and the longest time without a success after
 * the last chaos action (real time, microseconds; 0 when unknown) up to
 * the end of the load */
void     chaos_progress_check    (gint64 last_action_real_us);
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
typedef struct _ChaosCam ChaosCam;                /* check-and-mutate */
typedef struct _ChaosScanRows ChaosScanRows;      /* what a scan table holds */

#define CHAOS_SCAN_ROWS 3000

/* the native tables too when native */
gboolean         chaos_setup_tables      (HBaseClient *client, gboolean native, GError **error);
/* row keys spread over the pre-split regions: PREFIX, two hex digits, the number */
char            *chaos_spread_key        (const char *prefix, guint i);
GBytes          *chaos_text_bytes        (const char *text);
/* "(none)" for NULL */
char            *chaos_bytes_text        (GBytes *bytes);

ChaosKv         *chaos_kv_new            (ChaosRun *run, HBaseTable *table, const char *label,
                                          const char *key_prefix, guint n_keys, gboolean buffered);
/* the indexed worker's f:city values: version % CHAOS_N_CITIES picks one */
#define CHAOS_N_CITIES 7
extern const char *const chaos_cities[CHAOS_N_CITIES];
/* keys one of whose writes ended in doubt (their index entries may be kept
 * for a while) */
guint            chaos_kv_keys_ever_in_doubt (ChaosKv *kv);
/* apply_multiple and get_multiple among the operations */
void             chaos_kv_set_multiple   (ChaosKv *kv, gboolean multiple);
gpointer         chaos_kv_thread         (gpointer kv);
void             chaos_kv_check          (ChaosKv *kv);
void             chaos_kv_free           (ChaosKv *kv);
/* the indexed worker's keys and the index: every row findable through
 * hbase_index_find before repair, no entry naming a row that does not
 * match, and repair fixing no more than redis_faults can explain */
void             chaos_index_check       (ChaosKv *indexed, HBaseIndex *index, HBaseTable *plain,
                                          guint redis_faults);

ChaosCounters   *chaos_counters_new      (ChaosRun *run, HBaseTable *table, const char *label,
                                          guint n_counters);
gpointer         chaos_counters_thread   (gpointer counters);
void             chaos_counters_check    (ChaosCounters *counters);
void             chaos_counters_free     (ChaosCounters *counters);

/* wide: rows of 4 cells, scanned with and without a batch */
gboolean         chaos_scan_fill         (HBaseTable *table, gboolean wide, GError **error);
/* the rows of one scan table, shared by its scanners and its churn */
ChaosScanRows   *chaos_scan_rows_new     (gboolean wide);
void             chaos_scan_rows_free    (ChaosScanRows *rows);
/* churn: a worker that puts and deletes rows of the table while it is
 * scanned, instead of scanning */
ChaosScans      *chaos_scans_new         (ChaosRun *run, HBaseTable *table, const char *label,
                                          ChaosScanRows *rows, gboolean churn);
gpointer         chaos_scans_thread      (gpointer scans);
void             chaos_scans_check       (ChaosScans *scans);
void             chaos_scans_free        (ChaosScans *scans);

ChaosStructures *chaos_structures_new    (ChaosRun *run, HBaseTable *table, GError **error);
gpointer         chaos_structures_thread (gpointer structures);
void             chaos_structures_check  (ChaosStructures *structures);
void             chaos_structures_free   (ChaosStructures *structures);

/* chaos-cam.c */
ChaosCam        *chaos_cam_new           (ChaosRun *run, HBaseTable *table, const char *label, guint n_keys);
gpointer         chaos_cam_thread        (gpointer cam);
void             chaos_cam_check         (ChaosCam *cam);
void             chaos_cam_free          (ChaosCam *cam);

G_END_DECLS

#endif /* CHAOS_WORKLOAD_H */
