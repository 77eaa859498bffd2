/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-table-strings-private.h: what the string forms of the table layer
 * share (src/table/hbase-mutation-strings.c, hbase-table-strings.c). */
#ifndef HBASE_TABLE_STRINGS_PRIVATE_H
#define HBASE_TABLE_STRINGS_PRIVATE_H

#include <stdarg.h>

#include <hbase-glib/hbase-mutation.h>

G_BEGIN_DECLS

/* Splits "family:qualifier" at its first colon ("family" alone: the empty
 * qualifier) into new #GBytes; FALSE (and nothing set) for a NULL column. */
gboolean _hbase_column_split           (const char     *column,
                                        GBytes        **family,
                                        GBytes        **qualifier);

/* Adds the column, value pairs of @args (after @first_column, up to a
 * NULL column) to a put, recording a column without a value as the
 * mutation's problem. */
void     _hbase_mutation_put_string_va (HBaseMutation  *mutation,
                                        const char     *first_column,
                                        va_list         args);

G_END_DECLS

#endif /* HBASE_TABLE_STRINGS_PRIVATE_H */
