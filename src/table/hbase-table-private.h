/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-private.h: what the table, scanner and admin code share. */
#ifndef HBASE_TABLE_PRIVATE_H
#define HBASE_TABLE_PRIVATE_H

#include <hbase-glib/hbase-client-thrift.h>
#include <hbase-glib/hbase-scanner.h>
#include <hbase-glib/hbase-table.h>
#include <hbase-glib/hbase-write-buffer.h>

#include "../core/hbase-error-private.h"

G_BEGIN_DECLS

/* What became of one mutation of a write, for write hooks. */
typedef enum {
  _HBASE_WRITE_APPLIED,
  _HBASE_WRITE_NOT_APPLIED,   /* a failed check, or never sent */
  _HBASE_WRITE_UNKNOWN,       /* the call failed while it was in flight */
} HBaseWriteOutcome;

/* Hooks around every write of a table (apply, apply_multiple, mutate_row,
 * increment, append, check_and_mutate; sync and async, so the write
 * buffer too), for code that must follow the table's data, such as the
 * Redis index.  They run in the thread that sends the call.
 *
 * @before runs after the mutations were checked, before anything is sent;
 * returning FALSE cancels the write with its error.  @after runs once the
 * call ended, with one outcome per mutation and, for an increment or an
 * append, the row of new values HBase returned (else NULL). */
typedef struct {
  gboolean (*before) (HBaseTable         *table,
                      GPtrArray          *mutations,
                      gpointer            user_data,
                      GCancellable       *cancellable,
                      GError            **error);
  void     (*after)  (HBaseTable         *table,
                      GPtrArray          *mutations,
                      const HBaseWriteOutcome *outcomes,
                      HBaseRow           *result,
                      gpointer            user_data);
} HBaseTableWriteHooks;

/* The table object, shared by the files that implement its operations. */
struct _HBaseTable {
  GObject parent;

  HBaseClient *client;
  char *name;
  GByteArray *name_bytes;           /* what the generated calls take */
  HbaseThriftTTableName *table_name; /* for tableExists */
  char *unusable;                   /* why it cannot be used (no client, bad name), or NULL */

  const HBaseTableWriteHooks *hooks; /* set before the table is shared */
  gpointer hooks_data;
  GDestroyNotify hooks_destroy;
  gint allow_unindexed_writes;       /* atomic; hbase-table-index-mark.c */
  struct _HBaseGetCoalescer *coalescer; /* async gets; hbase-get-coalescer.c */
};

/* Installs write hooks on @table (replacing any); @destroy frees
 * @user_data with the table.  Call before the table is used from other
 * threads. */
void        _hbase_table_set_write_hooks (HBaseTable               *table,
                                          const HBaseTableWriteHooks *hooks,
                                          gpointer                  user_data,
                                          GDestroyNotify            destroy);

/* The table attribute a secondary index marks its table with; its value
 * names the definitions table.  hbase-table-index-mark.c. */
#define HBASE_TABLE_INDEX_MARK "hbase-glib.index"

/* Before a write through a handle without write hooks: FALSE with
 * HBASE_ERROR_INDEXED_TABLE when the table is marked and the handle does
 * not allow unindexed writes (the mark read at most a minute ago). */
gboolean    _hbase_table_check_index_mark (HBaseTable              *table,
                                          GCancellable             *cancellable,
                                          GError                  **error);

/* Sets @table's mark to @definitions (the definitions table), or removes
 * it when NULL (a modifyTable, only when it changes; @changed tells).
 * For the index library. */
gboolean    _hbase_table_set_index_mark  (HBaseTable               *table,
                                          const char               *definitions,
                                          gboolean                 *changed,
                                          GCancellable             *cancellable,
                                          GError                  **error);

/* Reads @table's mark: the definitions table, or NULL when unmarked. */
gboolean    _hbase_table_get_index_mark  (HBaseTable               *table,
                                          char                    **definitions,
                                          GCancellable             *cancellable,
                                          GError                  **error);

/* @table is a table made with a client and a valid name; else FALSE with
 * HBASE_ERROR_ILLEGAL_ARGUMENT saying why.  Every operation on a table
 * starts with it. */
gboolean    _hbase_table_check           (HBaseTable               *table,
                                          GError                  **error);

/* The next row of @scanner, or NULL at the end or with @error set (also
 * for a scanner made by g_object_new() alone).  hbase-scanner.c. */
HBaseRow   *_hbase_scanner_next_row      (HBaseScanner             *scanner,
                                          GCancellable             *cancellable,
                                          GError                  **error);

/* A row copied out of a generated TResult (which the caller keeps). */
HBaseRow   *_hbase_row_new_from_result   (const HbaseThriftTResult *result);

/* A row key is present and not empty; @what names it in the error
 * ("row", "start row", ...). */
gboolean    _hbase_check_row             (GBytes                   *row,
                                          const char               *what,
                                          GError                  **error);

/* A generated TGet of @row with @options (checked): what the generated
 * calls take (exists); get and get multiple encode theirs by hand. */
HbaseThriftTGet *_hbase_table_tget_new   (GBytes                   *row,
                                          const HBaseReadOptions   *options);

/* The options are valid (columns well formed, time range ordered, ...). */
gboolean    _hbase_read_options_check    (const HBaseReadOptions   *options,
                                          GError                  **error);

/* The columns of @options as generated TColumns (element-type
 * HbaseThriftTColumn), or NULL for every column.  Call after
 * _hbase_read_options_check(). */
GPtrArray  *_hbase_read_options_columns  (const HBaseReadOptions   *options);

/* The columns of @options, from either form, as HBaseColumns (a new
 * reference), or NULL for every column.  Call after
 * _hbase_read_options_check(). */
GPtrArray  *_hbase_read_options_column_list (const HBaseReadOptions *options);

/* The filter of @options, from either form, as bytes (a new reference),
 * or NULL for none. */
GBytes     *_hbase_read_options_filter   (const HBaseReadOptions   *options);

/* The filter of @options for error messages (bytes that are not
 * printable as \xNN), or NULL for none. */
char       *_hbase_read_options_describe_filter (const HBaseReadOptions *options);

/* A table name ("ns:name" or "name") is valid for HBase. */
gboolean    _hbase_check_table_name      (const char               *name,
                                          GError                  **error);

/* GByteArray copies, for the generated structs' binary fields. */
GByteArray *_hbase_byte_array_from_bytes (GBytes                   *bytes);
GByteArray *_hbase_byte_array_from_string (const char              *text);

/* Runs generated TGets (element-type HbaseThriftTGet; referenced, not
 * changed) on @table the way hbase_table_get_multiple() runs its gets:
 * get for one, getMultiple for several, read-only retries, the same error
 * mapping (a missing table is HBASE_ERROR_NOT_FOUND).  For readers whose
 * gets need what HBaseReadOptions does not carry (a serialized filter in
 * filterBytes, storeOffset and storeLimit), such as sets and sorted sets.
 * Returns (transfer full) (element-type HbaseThriftTResult) one result
 * per get, in order, or NULL with @error. */
GPtrArray  *_hbase_table_get_generated   (HBaseTable               *table,
                                          GPtrArray                *gets,
                                          GCancellable             *cancellable,
                                          GError                  **error);

/* hbase_table_check_and_mutate(), telling in @attempted whether the call
 * got as far as sending (the mutations were valid and the before write
 * hook accepted them): when not, the failure certainly changed nothing. */
gboolean    _hbase_table_check_and_mutate_attempt (HBaseTable           *table,
                                          const HBaseCondition     *condition,
                                          GPtrArray                *mutations,
                                          gboolean                 *applied,
                                          gboolean                 *attempted,
                                          GCancellable             *cancellable,
                                          GError                  **error);

/* The id of @scanner's server scanner in its gateway, for tests; FALSE
 * when none is open. */
gboolean _hbase_scanner_get_server_id (HBaseScanner *scanner,
                                       gint32       *id);
/* The native backend's scanner of @scanner (NULL on the Thrift2 backend or
 * once the scan is over), for tests. */
struct _HBaseNativeScanner *_hbase_scanner_get_native (HBaseScanner *scanner);
/* The client @scanner reads with; NULL for one made by g_object_new() alone. */
HBaseClient *_hbase_scanner_get_client (HBaseScanner *scanner);

/* Owning read options (in the heap option structs that embed them):
 * _deepen makes @dest, a bitwise copy of @src, own copies of @src's
 * pointers; _clear releases what it owns and zeroes those pointers. */
void _hbase_read_options_deepen (HBaseReadOptions       *dest,
                                 const HBaseReadOptions *src);
void _hbase_read_options_clear  (HBaseReadOptions       *options);

G_END_DECLS

#endif /* HBASE_TABLE_PRIVATE_H */
