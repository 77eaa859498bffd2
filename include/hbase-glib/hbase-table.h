/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table.h: reads and writes of one table. */
#ifndef HBASE_TABLE_H
#define HBASE_TABLE_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <gio/gio.h>

#include <hbase-glib/hbase-client.h>
#include <hbase-glib/hbase-column.h>
#include <hbase-glib/hbase-condition.h>
#include <hbase-glib/hbase-filter.h>
#include <hbase-glib/hbase-mutation.h>
#include <hbase-glib/hbase-row.h>

G_BEGIN_DECLS

/**
 * HBaseTable:
 *
 * A handle on one table ("name" or "namespace:name") through an
 * #HBaseClient.  Cheap: it holds a reference to the client and the name.
 * Thread-safe, like the client.
 *
 * Since: 0.1
 */
#define HBASE_TYPE_TABLE (hbase_table_get_type ())
G_DECLARE_FINAL_TYPE (HBaseTable, hbase_table, HBASE, TABLE, GObject)

HBaseTable   *hbase_table_new          (HBaseClient *client,
                                        const char  *name,
                                        GError     **error);
const char   *hbase_table_get_name     (HBaseTable  *table);
HBaseClient  *hbase_table_get_client   (HBaseTable  *table);
void          hbase_table_set_allow_unindexed_writes (HBaseTable *table,
                                                      gboolean    allow);
gboolean      hbase_table_get_allow_unindexed_writes (HBaseTable *table);

/**
 * HBaseReadOptions:
 * @columns: (nullable) (array zero-terminated=1): "family" or
 *   "family:qualifier" entries (the qualifier is everything after the first
 *   colon); %NULL for every column.  Not together with @column_list.
 * @max_versions: versions per column, 0 for 1
 * @min_timestamp: only cells with min_timestamp <= timestamp < max_timestamp
 *   when max_timestamp is not 0
 * @max_timestamp: see @min_timestamp
 * @filter: (nullable): a filter in the HBase filter language.  Not
 *   together with @filter_bytes or @typed_filter.
 * @column_list: (nullable) (element-type HBaseColumn): the columns to read
 *   as #HBaseColumn<!-- -->s, whose qualifiers may hold any byte; %NULL
 *   (or empty) for every column.  Not together with @columns.
 * @filter_bytes: (nullable): a filter in the HBase filter language as
 *   bytes, which may hold 0x00 (see hbase_filter_to_bytes()).  Not
 *   together with @filter or @typed_filter.
 * @typed_filter: (nullable): a filter built with the #HBaseFilter
 *   constructors (set it with hbase_read_options_set_typed_filter()).
 *   The Thrift2 backend sends its rendering (as @filter_bytes with
 *   hbase_filter_to_bytes() would), the native backend the same filter as
 *   HBase's own filter messages; the only form of a filter the native
 *   backend takes.  Not together with @filter or @filter_bytes.
 *
 * What a get returns.  Initialise with %HBASE_READ_OPTIONS_INIT (or
 * hbase_read_options_new()).  Setting both forms of the columns, or both
 * forms of the filter, is an %HBASE_ERROR_ILLEGAL_ARGUMENT error of the
 * read, and so is a @typed_filter built with a bad argument (with the
 * message hbase_filter_to_bytes() gives).
 *
 * Who owns the pointers follows docs/api-conventions.md: a struct from
 * hbase_read_options_new() or hbase_read_options_copy() owns what its
 * setters stored (each setter copies or references its value and drops the
 * previous one; hbase_read_options_free() releases them), while a struct on
 * the stack filled with initialisers only borrows its pointers and is never
 * passed to the setters or to hbase_read_options_free().
 *
 * Since: 0.1
 */
typedef struct {
  const char *const *columns;
  guint max_versions;
  gint64 min_timestamp;
  gint64 max_timestamp;
  const char *filter;
  GPtrArray *column_list;
  GBytes *filter_bytes;
  HBaseFilter *typed_filter;
  /*< private >*/
  gpointer padding[7];
} HBaseReadOptions;

/**
 * HBASE_READ_OPTIONS_INIT:
 *
 * The defaults: every column, the newest version, any timestamp, no filter.
 *
 * Since: 0.1
 */
#define HBASE_READ_OPTIONS_INIT { .columns = NULL }

#define HBASE_TYPE_READ_OPTIONS (hbase_read_options_get_type ())
GType             hbase_read_options_get_type         (void) G_GNUC_CONST;
HBaseReadOptions *hbase_read_options_new              (void);
HBaseReadOptions *hbase_read_options_copy             (const HBaseReadOptions *options);
void              hbase_read_options_free             (HBaseReadOptions       *options);
void              hbase_read_options_set_columns      (HBaseReadOptions       *options,
                                                       const char *const      *columns);
void              hbase_read_options_set_filter       (HBaseReadOptions       *options,
                                                       const char             *filter);
void              hbase_read_options_set_column_list  (HBaseReadOptions       *options,
                                                       GPtrArray              *column_list);
void              hbase_read_options_set_filter_bytes (HBaseReadOptions       *options,
                                                       GBytes                 *filter_bytes);
void              hbase_read_options_set_typed_filter (HBaseReadOptions       *options,
                                                       HBaseFilter            *typed_filter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseReadOptions, hbase_read_options_free)

HBaseRow   *hbase_table_get            (HBaseTable             *table,
                                        GBytes                 *row,
                                        const HBaseReadOptions *options,
                                        GCancellable           *cancellable,
                                        GError                **error);
GPtrArray  *hbase_table_get_multiple   (HBaseTable             *table,
                                        GPtrArray              *rows,
                                        const HBaseReadOptions *options,
                                        GCancellable           *cancellable,
                                        GError                **error);
gboolean    hbase_table_exists         (HBaseTable             *table,
                                        GBytes                 *row,
                                        const HBaseReadOptions *options,
                                        gboolean               *exists,
                                        GCancellable           *cancellable,
                                        GError                **error);

gboolean    hbase_table_apply          (HBaseTable             *table,
                                        HBaseMutation          *mutation,
                                        GCancellable           *cancellable,
                                        GError                **error);
gboolean    hbase_table_apply_multiple (HBaseTable             *table,
                                        GPtrArray              *mutations,
                                        GCancellable           *cancellable,
                                        GError                **error);
gboolean    hbase_table_mutate_row     (HBaseTable             *table,
                                        GPtrArray              *mutations,
                                        GCancellable           *cancellable,
                                        GError                **error);

/* atomic read-modify-write of one row */
HBaseRow   *hbase_table_increment      (HBaseTable             *table,
                                        HBaseMutation          *increment,
                                        GCancellable           *cancellable,
                                        GError                **error);
HBaseRow   *hbase_table_append         (HBaseTable             *table,
                                        HBaseMutation          *append,
                                        GCancellable           *cancellable,
                                        GError                **error);
gboolean    hbase_table_check_and_mutate (HBaseTable           *table,
                                        const HBaseCondition   *condition,
                                        GPtrArray              *mutations,
                                        gboolean               *applied,
                                        GCancellable           *cancellable,
                                        GError                **error);

/* 64-bit big-endian counters */
gboolean    hbase_table_increment_counter (HBaseTable          *table,
                                        GBytes                 *row,
                                        const char             *family,
                                        const char             *qualifier,
                                        gint64                  amount,
                                        gint64                 *value,
                                        GCancellable           *cancellable,
                                        GError                **error);
gboolean    hbase_table_get_counter    (HBaseTable             *table,
                                        GBytes                 *row,
                                        const char             *family,
                                        const char             *qualifier,
                                        gint64                 *value,
                                        GCancellable           *cancellable,
                                        GError                **error);
gboolean    hbase_table_set_counter    (HBaseTable             *table,
                                        GBytes                 *row,
                                        const char             *family,
                                        const char             *qualifier,
                                        gint64                  value,
                                        GCancellable           *cancellable,
                                        GError                **error);

/* asynchronous variants */
void        hbase_table_get_async            (HBaseTable             *table,
                                              GBytes                 *row,
                                              const HBaseReadOptions *options,
                                              GCancellable           *cancellable,
                                              GAsyncReadyCallback     callback,
                                              gpointer                user_data);
HBaseRow   *hbase_table_get_finish           (HBaseTable             *table,
                                              GAsyncResult           *result,
                                              GError                **error);
void        hbase_table_get_multiple_async   (HBaseTable             *table,
                                              GPtrArray              *rows,
                                              const HBaseReadOptions *options,
                                              GCancellable           *cancellable,
                                              GAsyncReadyCallback     callback,
                                              gpointer                user_data);
GPtrArray  *hbase_table_get_multiple_finish  (HBaseTable             *table,
                                              GAsyncResult           *result,
                                              GError                **error);
void        hbase_table_apply_async          (HBaseTable             *table,
                                              HBaseMutation          *mutation,
                                              GCancellable           *cancellable,
                                              GAsyncReadyCallback     callback,
                                              gpointer                user_data);
gboolean    hbase_table_apply_finish         (HBaseTable             *table,
                                              GAsyncResult           *result,
                                              GError                **error);
void        hbase_table_apply_multiple_async (HBaseTable             *table,
                                              GPtrArray              *mutations,
                                              GCancellable           *cancellable,
                                              GAsyncReadyCallback     callback,
                                              gpointer                user_data);
gboolean    hbase_table_apply_multiple_finish (HBaseTable            *table,
                                              GAsyncResult           *result,
                                              GError                **error);

void        hbase_table_increment_async      (HBaseTable             *table,
                                              HBaseMutation          *increment,
                                              GCancellable           *cancellable,
                                              GAsyncReadyCallback     callback,
                                              gpointer                user_data);
HBaseRow   *hbase_table_increment_finish     (HBaseTable             *table,
                                              GAsyncResult           *result,
                                              GError                **error);
void        hbase_table_check_and_mutate_async (HBaseTable           *table,
                                              const HBaseCondition   *condition,
                                              GPtrArray              *mutations,
                                              GCancellable           *cancellable,
                                              GAsyncReadyCallback     callback,
                                              gpointer                user_data);
gboolean    hbase_table_check_and_mutate_finish (HBaseTable          *table,
                                              GAsyncResult           *result,
                                              gboolean               *applied,
                                              GError                **error);
void        hbase_table_exists_async          (HBaseTable             *table,
                                               GBytes                 *row,
                                               const HBaseReadOptions *options,
                                               GCancellable           *cancellable,
                                               GAsyncReadyCallback     callback,
                                               gpointer                user_data);
gboolean    hbase_table_exists_finish         (HBaseTable             *table,
                                               GAsyncResult           *result,
                                               gboolean               *exists,
                                               GError                **error);
void        hbase_table_mutate_row_async      (HBaseTable             *table,
                                               GPtrArray              *mutations,
                                               GCancellable           *cancellable,
                                               GAsyncReadyCallback     callback,
                                               gpointer                user_data);
gboolean    hbase_table_mutate_row_finish     (HBaseTable             *table,
                                               GAsyncResult           *result,
                                               GError                **error);
void        hbase_table_append_async          (HBaseTable             *table,
                                               HBaseMutation          *append,
                                               GCancellable           *cancellable,
                                               GAsyncReadyCallback     callback,
                                               gpointer                user_data);
HBaseRow   *hbase_table_append_finish         (HBaseTable             *table,
                                               GAsyncResult           *result,
                                               GError                **error);
void        hbase_table_increment_counter_async (HBaseTable             *table,
                                               GBytes                 *row,
                                               const char             *family,
                                               const char             *qualifier,
                                               gint64                  amount,
                                               GCancellable           *cancellable,
                                               GAsyncReadyCallback     callback,
                                               gpointer                user_data);
gboolean    hbase_table_increment_counter_finish (HBaseTable             *table,
                                               GAsyncResult           *result,
                                               gint64                 *value,
                                               GError                **error);
void        hbase_table_get_counter_async     (HBaseTable             *table,
                                               GBytes                 *row,
                                               const char             *family,
                                               const char             *qualifier,
                                               GCancellable           *cancellable,
                                               GAsyncReadyCallback     callback,
                                               gpointer                user_data);
gboolean    hbase_table_get_counter_finish    (HBaseTable             *table,
                                               GAsyncResult           *result,
                                               gint64                 *value,
                                               GError                **error);
void        hbase_table_set_counter_async     (HBaseTable             *table,
                                               GBytes                 *row,
                                               const char             *family,
                                               const char             *qualifier,
                                               gint64                  value,
                                               GCancellable           *cancellable,
                                               GAsyncReadyCallback     callback,
                                               gpointer                user_data);
gboolean    hbase_table_set_counter_finish    (HBaseTable             *table,
                                               GAsyncResult           *result,
                                               GError                **error);

/* string forms: row keys, "family:qualifier" columns and values as
 * NUL-terminated strings (binary data needs the GBytes forms above) */
gboolean    hbase_table_put_string     (HBaseTable             *table,
                                        const char             *row,
                                        const char             *column,
                                        const char             *value,
                                        GCancellable           *cancellable,
                                        GError                **error);
gboolean    hbase_table_put_strings    (HBaseTable             *table,
                                        const char             *row,
                                        const char *const      *columns,
                                        const char *const      *values,
                                        GCancellable           *cancellable,
                                        GError                **error);
gboolean    hbase_table_put_columns    (HBaseTable             *table,
                                        const char             *row,
                                        GCancellable           *cancellable,
                                        GError                **error,
                                        const char             *first_column,
                                        ...) G_GNUC_NULL_TERMINATED;
HBaseRow   *hbase_table_get_string     (HBaseTable             *table,
                                        const char             *row,
                                        const HBaseReadOptions *options,
                                        GCancellable           *cancellable,
                                        GError                **error);
void        hbase_table_get_string_async  (HBaseTable             *table,
                                           const char             *row,
                                           const HBaseReadOptions *options,
                                           GCancellable           *cancellable,
                                           GAsyncReadyCallback     callback,
                                           gpointer                user_data);
HBaseRow   *hbase_table_get_string_finish (HBaseTable             *table,
                                           GAsyncResult           *result,
                                           GError                **error);
void        hbase_table_put_string_async  (HBaseTable             *table,
                                           const char             *row,
                                           const char             *column,
                                           const char             *value,
                                           GCancellable           *cancellable,
                                           GAsyncReadyCallback     callback,
                                           gpointer                user_data);
gboolean    hbase_table_put_string_finish (HBaseTable             *table,
                                           GAsyncResult           *result,
                                           GError                **error);
void        hbase_table_put_strings_async (HBaseTable             *table,
                                           const char             *row,
                                           const char *const      *columns,
                                           const char *const      *values,
                                           GCancellable           *cancellable,
                                           GAsyncReadyCallback     callback,
                                           gpointer                user_data);
gboolean    hbase_table_put_strings_finish (HBaseTable            *table,
                                           GAsyncResult           *result,
                                           GError                **error);
void        hbase_table_put_columns_async (HBaseTable             *table,
                                           const char             *row,
                                           GCancellable           *cancellable,
                                           GAsyncReadyCallback     callback,
                                           gpointer                user_data,
                                           const char             *first_column,
                                           ...) G_GNUC_NULL_TERMINATED;
gboolean    hbase_table_put_columns_finish (HBaseTable            *table,
                                           GAsyncResult           *result,
                                           GError                **error);

G_END_DECLS

#endif /* HBASE_TABLE_H */
