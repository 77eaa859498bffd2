/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-maintenance-private.h: what the maintenance of the index
 * shares: its reports (hbase-index-report.c), the state of one
 * maintenance pass, the comparison of the index with the table
 * (hbase-index-verify.c) and the passes that use it
 * (hbase-index-maintenance.c). */
#ifndef HBASE_INDEX_MAINTENANCE_PRIVATE_H
#define HBASE_INDEX_MAINTENANCE_PRIVATE_H

#include "hbase-index-private.h"

G_BEGIN_DECLS

/* --- reports (hbase-index-report.c) -------------------------------------------------- */

struct _HBaseIndexReport {
  guint64 rows;
  guint64 entries;
  guint64 missing;
  guint64 extra;
  guint64 in_doubt;
  guint64 repaired;
  gboolean rebuilt;
  char *note;
  GPtrArray *examples;    /* char *, NULL-terminated */
};

HBaseIndexReport *_hbase_index_report_new  (void);

/* --- one maintenance pass (hbase-index-maintenance.c) -------------------------------- */

typedef struct {
  IndexCore *core;
  const HBaseIndexMaintenanceOptions *options;
  HBaseIndexReport *report;
  guint batch_rows;
  guint max_examples;
  GHashTable *fix;        /* GBytes row -> GPtrArray of orphan IndexEntry */
  GHashTable *reported;   /* "row\0name\0value" extras already counted */
  const char *phase;
  /* what the walk over Redis is at */
  const IndexColumn *walk_column;
  gsize walk_prefix_len;  /* of "base:x:NAME:" */
  GPtrArray *walk_keys;   /* GBytes: set keys found by SCAN */
} Work;

/* Tells the caller's progress callback where the pass is. */
void       _hbase_index_progress           (Work                 *work);

/* --- comparing the index with the table (hbase-index-verify.c) ---------------------- */

/* The orphan entries to remove from @row (GPtrArray of IndexEntry), the
 * row being added to the rows to fix; NULL when the pass fixes nothing. */
GPtrArray *_hbase_index_fix_row            (Work                 *work,
                                            GBytes               *row);
/* Runs SCAN-like @command (SCAN, SSCAN, ZSCAN, HSCAN) to the end, calling
 * @each with every batch of elements. */
gboolean   _hbase_index_walk               (Work                 *work,
                                            const char           *command,
                                            GBytes               *key,
                                            const char           *match,
                                            gboolean            (*each) (Work *, GBytes *, redisReply *,
                                                                         GPtrArray *, GError **),
                                            GPtrArray            *claims,
                                            GCancellable         *cancellable,
                                            GError              **error);
/* Scans the table (indexed columns only), calling @each with every batch
 * of rows. */
gboolean   _hbase_index_scan_table         (Work                 *work,
                                            gboolean            (*each) (Work *, GPtrArray *,
                                                                         GError **),
                                            GCancellable         *cancellable,
                                            GError              **error);
/* Both passes of verify: every HBase row has its entries, every Redis
 * entry is in HBase. */
gboolean   _hbase_index_verify             (Work                 *work,
                                            GCancellable         *cancellable,
                                            GError              **error);

G_END_DECLS

#endif /* HBASE_INDEX_MAINTENANCE_PRIVATE_H */
