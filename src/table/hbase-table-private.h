/* hbase-table-private.h: what the table, scanner and admin code share. */
#ifndef HBASE_TABLE_PRIVATE_H
#define HBASE_TABLE_PRIVATE_H

#include <hbase-glib/hbase-glib-thrift.h>

G_BEGIN_DECLS

/* The table object, shared by the files that implement its operations. */
struct _HBaseTable {
  GObject parent;

  HBaseClient *client;
  char *name;
  GByteArray *name_bytes;           /* what the generated calls take */
  HbaseThriftTTableName *table_name; /* for tableExists */
};

/* Sets @error to HBASE_ERROR_ILLEGAL_ARGUMENT with the message; returns
 * FALSE, so checks can end with "return _hbase_illegal (...)". */
gboolean    _hbase_illegal               (GError                  **error,
                                          const char               *format,
                                          ...) G_GNUC_PRINTF (2, 3);

/* A row copied out of a generated TResult (which the caller keeps). */
HBaseRow   *_hbase_row_new_from_result   (const HbaseThriftTResult *result);

/* A row key is present and not empty; @what names it in the error
 * ("row", "start row", ...). */
gboolean    _hbase_check_row             (GBytes                   *row,
                                          const char               *what,
                                          GError                  **error);

/* The options are valid (columns well formed, time range ordered, ...). */
gboolean    _hbase_read_options_check    (const HBaseReadOptions   *options,
                                          GError                  **error);

/* The columns of @options as generated TColumns (element-type
 * HbaseThriftTColumn), or NULL for every column.  Call after
 * _hbase_read_options_check(). */
GPtrArray  *_hbase_read_options_columns  (const HBaseReadOptions   *options);

/* A table name ("ns:name" or "name") is valid for HBase. */
gboolean    _hbase_check_table_name      (const char               *name,
                                          GError                  **error);

/* GByteArray copies, for the generated structs' binary fields. */
GByteArray *_hbase_byte_array_from_bytes (GBytes                   *bytes);
GByteArray *_hbase_byte_array_from_string (const char              *text);

G_END_DECLS

#endif /* HBASE_TABLE_PRIVATE_H */
