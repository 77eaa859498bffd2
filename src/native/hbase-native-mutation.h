/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-mutation.h (private, native layer only): what the native
 * writes share: the MutationProto of a put or delete as
 * hbase-native-ops.c fills it (also for check-and-mutate and Multi
 * batches), and the "in doubt" marking of a write that may have been
 * applied (hbase-native-atomic.c).
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

/* Marks @error, the failure of a write that may have been applied all the
 * same (its request reached the server and no complete answer came back,
 * or part of a batch was applied), as the Thrift2 path does: in doubt
 * (hbase_error_is_in_doubt()) and saying so in its message.  Errors of
 * other domains (a cancellation) are in doubt as they are. */
void       _hbase_native_error_set_in_doubt      (GError                   *error);

/* Whether @error came without an answer of the server (a broken or timed
 * out connection, a malformed reply): a request sent then may have run. */
gboolean   _hbase_native_error_is_unanswered     (const GError             *error);

G_END_DECLS

#endif /* HBASE_NATIVE_MUTATION_H */
