/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-pb.h (private): the small conversions between GLib types
 * and protobuf-c fields that get, multi and scan requests share. */
#ifndef HBASE_NATIVE_PB_H
#define HBASE_NATIVE_PB_H

#include <glib.h>

#include "Client.pb-c.h"

G_BEGIN_DECLS

/* @out points into @bytes (no copy): @bytes must outlive the message;
 * NULL gives empty bytes. */
void    _hbase_native_pb_set_bytes (ProtobufCBinaryData       *out,
                                    GBytes                    *bytes);
/* A copy of @data. */
GBytes *_hbase_native_pb_bytes     (const ProtobufCBinaryData *data);

/* The cells @result carries inline (protobuf Cell messages), as
 * HBaseNativeCells; an empty array for a NULL @result. */
GPtrArray *_hbase_native_pb_result_cells (const Hbase__Pb__Result *result);

/* The cells of a reply's @result that came in its cellblock @block (NULL:
 * none), as many as the result counts; NULL with HBASE_ERROR_PROTOCOL
 * ("malformed @what reply: ...") when they do not add up. */
GPtrArray *_hbase_native_pb_block_cells  (const Hbase__Pb__Result *result,
                                          GBytes                  *block,
                                          const char              *what,
                                          GError                 **error);
/* Whether every cell of a single-row reply (@result's inline ones and
 * @block_cells) is of @row; FALSE with HBASE_ERROR_PROTOCOL ("malformed
 * @what reply: a cell of another row") otherwise. */
gboolean   _hbase_native_pb_check_rows  (const Hbase__Pb__Result *result,
                                          GPtrArray               *block_cells,
                                          GBytes                  *row,
                                          const char              *what,
                                          GError                 **error);
/* Every cell of a single-row reply's @result: inline ones first (a
 * client without version_info gets them so), then @block's; each checked
 * to be of @row.  NULL with HBASE_ERROR_PROTOCOL otherwise. */
GPtrArray *_hbase_native_pb_reply_cells  (const Hbase__Pb__Result *result,
                                          GBytes                  *block,
                                          GBytes                  *row,
                                          const char              *what,
                                          GError                 **error);

/* The Column messages of a read, pointing into the HBaseNativeColumns
 * they were made from (which must outlive the request). */
typedef struct
{
  guint                n;
  Hbase__Pb__Column   *columns;
  Hbase__Pb__Column  **pointers;      /* what a message's column field takes */
  ProtobufCBinaryData *qualifiers;
} HBaseNativePbColumns;

/* @columns: (element-type HBaseNativeColumn) (nullable): NULL for all. */
void    _hbase_native_pb_columns_init  (HBaseNativePbColumns *out,
                                        GPtrArray            *columns);
void    _hbase_native_pb_columns_clear (HBaseNativePbColumns *out);

/* Get.filter or Scan.filter from @filter, a serialized Filter message
 * (hbase-native-filter.h; NULL: none, *@out NULL), to free with
 * protobuf_c_message_free_unpacked(); FALSE when it does not parse. */
gboolean _hbase_native_pb_filter (GBytes             *filter,
                                  Hbase__Pb__Filter **out,
                                  GError            **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (HBaseNativePbColumns, _hbase_native_pb_columns_clear)

G_END_DECLS

#endif /* HBASE_NATIVE_PB_H */
