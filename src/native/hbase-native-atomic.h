/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-atomic.h (private): the read-modify-write operations of one
 * row over HBase's own RPC (hbase-native-atomic.c): increment and append
 * (a Mutate of type INCREMENT or APPEND, the new cells returned) and
 * check-and-mutate (the mutations as one atomic RegionAction of a Multi
 * call, with the Condition).  None of them is retried once its request
 * may have reached the server, unless the server answered that it did not
 * run it (the region was elsewhere or busy).
 */
#ifndef HBASE_NATIVE_ATOMIC_H
#define HBASE_NATIVE_ATOMIC_H

#include "hbase-native-client.h"

G_BEGIN_DECLS

/* Adds to 64-bit counters (@is_increment: @cells' values are the 8-byte
 * big-endian amounts) or appends bytes (@cells' values) to cells of @row,
 * in one Mutate call; @cells: family, qualifier, value (row, timestamp
 * and type ignored).  @durability: MutationProto.Durability (0: the
 * table's).  @return_results: whether the server sends the new cells
 * back.  Returns the cells of the result (HBaseNativeCell *, the server's
 * order; empty when it sent none), or NULL with @error set. */
GPtrArray *_hbase_native_client_increment        (HBaseNativeClient *self,
                                                  const char        *table,
                                                  GBytes            *row,
                                                  gboolean           is_increment,
                                                  GPtrArray         *cells,
                                                  guint              durability,
                                                  gboolean           return_results,
                                                  GCancellable      *cancellable,
                                                  GError           **error);

/* Applies @mutations (HBaseNativeMutation *) of @row, all or none, when
 * the newest cell of @family:@qualifier compares with @value by
 * @compare_type (CompareType, as HBase reads it: "value OP cell"; an
 * empty @value is "no cell"), atomically with the test.  *@processed says
 * whether it passed (and the mutations were applied). */
gboolean   _hbase_native_client_check_and_mutate (HBaseNativeClient *self,
                                                  const char        *table,
                                                  GBytes            *row,
                                                  GBytes            *family,
                                                  GBytes            *qualifier,
                                                  guint              compare_type,
                                                  GBytes            *value,
                                                  GPtrArray         *mutations,
                                                  gboolean          *processed,
                                                  GCancellable      *cancellable,
                                                  GError           **error);

G_END_DECLS

#endif /* HBASE_NATIVE_ATOMIC_H */
