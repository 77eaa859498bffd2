/* hbase-mutation-private.h: what the table needs of a mutation: checking
 * it and turning it into the generated structs. */
#ifndef HBASE_MUTATION_PRIVATE_H
#define HBASE_MUTATION_PRIVATE_H

#include <hbase-glib/hbase-glib-thrift.h>

G_BEGIN_DECLS

/* The mutation is complete and well formed: a row, for a put at least one
 * cell each with a family and a value, valid timestamps, no problem a
 * builder recorded.  @error says what is wrong (HBASE_ERROR_ILLEGAL_ARGUMENT). */
gboolean         _hbase_mutation_check       (HBaseMutation *mutation,
                                              GError       **error);

/* A checked put as a TPut. */
HbaseThriftTPut *_hbase_mutation_to_put      (HBaseMutation *mutation);

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
