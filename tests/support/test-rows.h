/* SPDX-License-Identifier: Apache-2.0 */
/* test-rows.h: small helpers for tests that write and read rows. */
#ifndef TEST_ROWS_H
#define TEST_ROWS_H

#include <hbase-glib/hbase-glib.h>

G_BEGIN_DECLS

/* @value as GBytes (without its NUL). */
GBytes *test_text        (const char *value);

/* A row key of the running test: its path, '|' and @suffix, so tests
 * sharing a table never touch each other's rows. */
GBytes *test_key         (const char *suffix);

/* The cells of @row as "f:a@300=v3 f:b=v1 ..." (timestamps only when
 * @with_ts), bytes outside printable ASCII as \xNN: for exact comparisons. */
char   *test_row_summary (HBaseRow   *row,
                          gboolean    with_ts);

G_END_DECLS

#endif /* TEST_ROWS_H */
