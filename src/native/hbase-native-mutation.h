/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-mutation.h (private, native layer only): the MutationProto
 * of a put or delete as hbase-native-ops.c fills it, shared with the
 * atomic operations (hbase-native-atomic.c).
 */
#ifndef HBASE_NATIVE_MUTATION_H
#define HBASE_NATIVE_MUTATION_H

#include "hbase-native-client.h"
#include "Client.pb-c.h"

G_BEGIN_DECLS

/* A MutationProto and the arrays it points into (hbase-native-ops.c). */
typedef struct
{
  Hbase__Pb__MutationProto                               proto;
  Hbase__Pb__MutationProto__ColumnValue                 *values;
  Hbase__Pb__MutationProto__ColumnValue                **value_pointers;
  Hbase__Pb__MutationProto__ColumnValue__QualifierValue  *qvs;
  Hbase__Pb__MutationProto__ColumnValue__QualifierValue **qv_pointers;
} HBaseNativeMutationParts;

/* Fills @parts with a put or delete of @row, as _hbase_native_client_mutate()
 * sends it; clear it afterwards, whatever this returned. */
gboolean   _hbase_native_mutation_fill           (HBaseNativeMutationParts *parts,
                                                  GBytes                   *row,
                                                  gboolean                  is_put,
                                                  GPtrArray                *cells,
                                                  gint64                    timestamp,
                                                  guint                     durability,
                                                  GError                  **error);
void       _hbase_native_mutation_parts_clear    (HBaseNativeMutationParts *parts);

G_END_DECLS

#endif /* HBASE_NATIVE_MUTATION_H */
