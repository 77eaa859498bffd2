/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-mutation.h (private): a put or delete as the MutationProto
 * HBase's RPC carries (its cells inline), shared by the single-row
 * operations (hbase-native-ops.c) and the batched writes of Multi calls
 * (hbase-native-multi.c).
 */
#ifndef HBASE_NATIVE_MUTATION_H
#define HBASE_NATIVE_MUTATION_H

#include <glib.h>

#include "Client.pb-c.h"

G_BEGIN_DECLS

/* A MutationProto and the arrays it points into. */
typedef struct
{
  Hbase__Pb__MutationProto                               proto;
  Hbase__Pb__MutationProto__ColumnValue                 *values;
  Hbase__Pb__MutationProto__ColumnValue                **value_pointers;
  Hbase__Pb__MutationProto__ColumnValue__QualifierValue  *qvs;
  Hbase__Pb__MutationProto__ColumnValue__QualifierValue **qv_pointers;
} HBaseNativeMutationParts;

/* Fills @parts with a put (@is_put: @cells' values) or a delete (each
 * cell's type says which kind) of @row, as _hbase_native_client_mutate()
 * sends it; HBASE_ERROR_ILLEGAL_ARGUMENT for a put without cells, an
 * unknown durability or cell type.  @parts points into @row and @cells:
 * they must outlive it.  Clear it with _hbase_native_mutation_parts_clear()
 * whether or not this succeeded. */
gboolean _hbase_native_mutation_fill        (HBaseNativeMutationParts *parts,
                                             GBytes                   *row,
                                             gboolean                  is_put,
                                             GPtrArray                *cells,
                                             gint64                    timestamp,
                                             guint                     durability,
                                             GError                  **error);
void     _hbase_native_mutation_parts_clear (HBaseNativeMutationParts *parts);

G_END_DECLS

#endif /* HBASE_NATIVE_MUTATION_H */
