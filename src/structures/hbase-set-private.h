/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-set-private.h: what the set files share (hbase-set.c, hbase-set-iter.c,
 * hbase-structures-import.c): the set handle and the paged read of one
 * row. */
#ifndef HBASE_SET_PRIVATE_H
#define HBASE_SET_PRIVATE_H

#include <hbase-glib/hbase-set.h>

#include "hbase-structures-private.h"

G_BEGIN_DECLS

#define DEFAULT_PAGE_SIZE 1000

struct _HBaseSet {
  GObject parent_instance;
  StructStore store;
  GBytes *key;
  guint16 shards;
  guint page_size;
  GPtrArray *rows;          /* GByteArray, one per shard */
};

typedef struct {
  StructStore store;
  GByteArray *row;
  gboolean has_prefix;
  guint8 prefix;
  GByteArray *after;          /* the last qualifier read; NULL at the start */
  guint page_size;
  GPtrArray *buffer;          /* GBytes, the members of the last page */
  guint next;
  gboolean exhausted;
} RowStream;

gboolean   _hbase_set_check       (HBaseSet          *set,
                                   GError           **error);
HBaseSet  *_hbase_set_ref         (HBaseSet          *set);
void       _hbase_set_unref       (HBaseSet          *set);
/* The row of shard @shard. */
GByteArray *_hbase_set_row_of     (HBaseSet          *set,
                                   guint              shard);

/* A row's members read a page at a time (qualifiers after the optional
 * prefix byte), in byte order. */
RowStream  *_hbase_row_stream_new  (const StructStore *store,
                                   GByteArray        *row,
                                   gboolean           has_prefix,
                                   guint8             prefix,
                                   guint              page_size);
void        _hbase_row_stream_free (gpointer           data);
/* The get of the next page: @limit members after @offset ones. */
HbaseThriftTGet *_hbase_row_stream_get (RowStream    *stream,
                                   guint              offset,
                                   guint              limit);
/* Takes the members of a page read with _hbase_row_stream_get(). */
void        _hbase_row_stream_take (RowStream         *stream,
                                   HbaseThriftTResult *result,
                                   guint              limit);

G_END_DECLS

#endif /* HBASE_SET_PRIVATE_H */
