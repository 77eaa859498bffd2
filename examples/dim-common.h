/* SPDX-License-Identifier: Apache-2.0 */
/* dim-common.h: what the dimension-lookup examples share.
 *
 * The scenario (a stream job enriching events with dimension rows): a
 * logistics warehouse emits waybill events, each naming a product; the job
 * looks the product up in the HBase dimension table "dim_product" and
 * joins its name, category and warehouse to the event.  The row key is
 * built from the business id, salted so sequential ids spread over the
 * table's pre-split regions:
 *
 *     row key = SS "|" PRODUCT_ID      SS = FNV-1a(PRODUCT_ID) mod 16, two digits
 *     family "d": name, category, warehouse, weight_g, price_cents
 *
 * Events are lines "WAYBILL_ID<tab>PRODUCT_ID" (or just "PRODUCT_ID"), from
 * a file or stdin; dim-load generates a file of them.  Each lookup program
 * reads every event first, then times only the lookups, and prints
 * throughput and latency percentiles. */
#ifndef DIM_COMMON_H
#define DIM_COMMON_H

#include <stdio.h>

#include <hbase-glib/hbase-glib.h>

G_BEGIN_DECLS

#define DIM_DEFAULT_TABLE "dim_product"
#define DIM_FAMILY "d"
#define DIM_SALT_BUCKETS 16

/* Settings from the environment (HBASE_GLIB_*), then @gateways when not
 * NULL; the pool holds at least @min_pool connections. */
HBaseClient *dim_client_new      (const char  *gateways,
                                  guint        min_pool,
                                  GError     **error);

/* The table, after checking that it exists (a stream job checks at
 * start-up, instead of failing on its first event). */
HBaseTable  *dim_table_open      (HBaseClient *client,
                                  const char  *name,
                                  GError     **error);

guint        dim_salt            (const char  *product_id);
GBytes      *dim_row_key         (const char  *product_id);
char        *dim_product_id      (guint        index);

typedef struct {
  char *waybill;
  char *product;
} DimEvent;

GPtrArray   *dim_events_read     (const char  *path,
                                  GError     **error);

/* Latency samples in microseconds; percentiles by nearest rank. */
typedef struct {
  GArray *samples;
  gint64 started;
  gint64 finished;
} DimStats;

void         dim_stats_init      (DimStats    *stats);
void         dim_stats_clear     (DimStats    *stats);
void         dim_stats_add       (DimStats    *stats,
                                  gint64       microseconds);
double       dim_stats_percentile_ms (DimStats *stats,
                                  double       percent);
double       dim_stats_seconds   (const DimStats *stats);

/* "WAYBILL<tab>PRODUCT<tab>NAME<tab>CATEGORY<tab>WAREHOUSE", or
 * "... <tab>(not found)" */
void         dim_print_enriched  (const DimEvent *event,
                                  HBaseRow       *row);
void         dim_print_summary   (const char     *program,
                                  guint           events,
                                  guint           found,
                                  guint           missing,
                                  DimStats       *stats);

G_END_DECLS

#endif /* DIM_COMMON_H */
