/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-mutation-private.h: what the table needs of a mutation: checking
 * it and turning it into the generated structs. */
#ifndef HBASE_MUTATION_PRIVATE_H
#define HBASE_MUTATION_PRIVATE_H

#include <hbase-glib/hbase-client-thrift.h>
#include <hbase-glib/hbase-table.h>

#include "../connection/hbase-wire.h"

G_BEGIN_DECLS

/* The mutation is complete and well formed: a row, for a put at least one
 * cell each with a family and a value, valid timestamps, no problem a
 * builder recorded.  @error says what is wrong (HBASE_ERROR_ILLEGAL_ARGUMENT). */
gboolean         _hbase_mutation_check       (HBaseMutation *mutation,
                                              GError       **error);

/* Records @problem as the reason the mutation cannot be sent (reported
 * by _hbase_mutation_check()), unless one is recorded already: what the
 * builders of other files use for arguments they cannot add. */
void             _hbase_mutation_record_problem (HBaseMutation *mutation,
                                                 const char    *problem);

/* A checked put as a TPut. */
HbaseThriftTPut *_hbase_mutation_to_put      (HBaseMutation *mutation);

/* A copy sharing the bytes (GBytes are immutable): what a write sends,
 * whatever its caller does to @mutation afterwards. */
HBaseMutation   *_hbase_mutation_copy        (HBaseMutation *mutation);

/* A checked put written as a TPut struct through @protocol, field for
 * field what the generated writer writes for _hbase_mutation_to_put()'s
 * TPut (tests/table/test-request-encoding.c compares the bytes), without
 * building it: a TPut is a GObject with a GObject per cell and copies of
 * every key and value.  Errors are the protocol's own. */
gboolean         _hbase_mutation_write_put   (HBaseMutation  *put,
                                              ThriftProtocol *protocol,
                                              GError        **error);
/* The same through an HBaseWire (hbase-wire.h) the caller set up. */
gboolean         _hbase_mutation_write_tput  (HBaseMutation  *put,
                                              HBaseWire      *wire,
                                              GError        **error);

/* Bytes of keys and values a checked put carries. */
gsize            _hbase_mutation_put_size    (HBaseMutation *put);

/* A checked delete as TDeletes appended to @deletes (element-type
 * HbaseThriftTDelete): one per kind of delete it holds, since a TDelete
 * has a single deleteType for all its columns. */
void             _hbase_mutation_add_deletes (HBaseMutation *mutation,
                                              GPtrArray     *deletes);

/* A checked mutation as TMutations appended to @mutations (element-type
 * HbaseThriftTMutation), for mutateRow. */
void             _hbase_mutation_add_row_mutations (HBaseMutation *mutation,
                                                    GPtrArray     *mutations);

/* A checked increment as a TIncrement (returning results). */
HbaseThriftTIncrement *_hbase_mutation_to_increment (HBaseMutation *mutation);

/* A checked append as a TAppend (returning results). */
HbaseThriftTAppend    *_hbase_mutation_to_append    (HBaseMutation *mutation);

G_END_DECLS

#endif /* HBASE_MUTATION_PRIVATE_H */

/* --- read-only accessors, for code that follows what a write changes
 * (the Redis index, src/index) --------------------------------------------------- */
#ifndef HBASE_MUTATION_PRIVATE_ACCESSORS_H
#define HBASE_MUTATION_PRIVATE_ACCESSORS_H

G_BEGIN_DECLS

/* What one entry of a mutation does. */
typedef enum {
  _HBASE_MUTATION_ENTRY_PUT,
  _HBASE_MUTATION_ENTRY_DELETE_FAMILY,   /* every column of a family */
  _HBASE_MUTATION_ENTRY_DELETE_COLUMN,   /* every version of a column */
  _HBASE_MUTATION_ENTRY_DELETE_VERSION,  /* one version of a column */
  _HBASE_MUTATION_ENTRY_INCREMENT,
  _HBASE_MUTATION_ENTRY_APPEND,
} HBaseMutationEntryKind;

/* The entries (cells, deletes, increments, appends) in the order added;
 * a delete with none deletes the whole row. */
guint                  _hbase_mutation_get_n_entries (HBaseMutation  *mutation);

/* Entry @index: its kind; @family, @qualifier (never NULL, maybe empty)
 * and @value (puts and appends, else NULL) are the mutation's (transfer
 * none); @timestamp is the entry's, or -1 when it has none. */
HBaseMutationEntryKind _hbase_mutation_get_entry     (HBaseMutation  *mutation,
                                                      guint           index,
                                                      GBytes        **family,
                                                      GBytes        **qualifier,
                                                      GBytes        **value,
                                                      gint64         *timestamp);

/* The mutation's own timestamp, or -1 when it has none. */
gint64                 _hbase_mutation_get_timestamp (HBaseMutation  *mutation);
/* How HBase is asked to make it durable. */
HBaseDurability        _hbase_mutation_get_durability (HBaseMutation *mutation);

G_END_DECLS

#endif /* HBASE_MUTATION_PRIVATE_ACCESSORS_H */
