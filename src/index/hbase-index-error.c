/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-error.c: the error domain of the Redis index
 * (HBASE_INDEX_ERROR). */
#include "config.h"

#include "hbase-index-private.h"

/**
 * hbase_index_error_quark:
 *
 * Gets the quark of the %HBASE_INDEX_ERROR domain; use the macro instead.
 *
 * Returns: the error domain
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (hbase-index-error-quark, hbase_index_error)
