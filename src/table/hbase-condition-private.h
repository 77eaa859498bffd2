/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-condition-private.h: what check-and-mutate needs of a condition. */
#ifndef HBASE_CONDITION_PRIVATE_H
#define HBASE_CONDITION_PRIVATE_H

#include <hbase-glib/hbase-client-thrift.h>
#include <hbase-glib/hbase-table.h>

G_BEGIN_DECLS

/* The condition is well formed (HBASE_ERROR_ILLEGAL_ARGUMENT if not). */
gboolean _hbase_condition_check     (const HBaseCondition  *condition,
                                     GError               **error);

/* A checked condition as checkAndMutate's arguments (new arrays). */
void     _hbase_condition_to_thrift (const HBaseCondition  *condition,
                                     GByteArray           **family,
                                     GByteArray           **qualifier,
                                     HbaseThriftTCompareOp *op,
                                     GByteArray           **value);

G_END_DECLS

#endif /* HBASE_CONDITION_PRIVATE_H */
