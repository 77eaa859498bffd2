/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-name-cache.h (private): family and qualifier names given as C
 * strings, turned into GBytes shared with the thread's recent uses of the
 * same name.  Why: see hbase-name-cache.c. */
#ifndef HBASE_NAME_CACHE_H
#define HBASE_NAME_CACHE_H

#include <glib.h>

G_BEGIN_DECLS

/* The bytes of @name (without its NUL), as a new reference: the same
 * GBytes as an earlier call of this thread with an equal name when it is
 * still cached. */
GBytes *_hbase_name_cache_bytes     (const char *name);
/* The same for the @length bytes at @name (no NUL needed). */
GBytes *_hbase_name_cache_bytes_len (const char *name,
                                     gsize       length);

/* The columns of @specs ("family" or "family:qualifier" strings, at least
 * one), an array of HBaseColumn that nobody may change: a new reference to
 * the same array as the thread's previous call when @specs are equal. */
GPtrArray *_hbase_name_cache_columns (const char *const *specs);

G_END_DECLS

#endif /* HBASE_NAME_CACHE_H */
