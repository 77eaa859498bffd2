/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-error-private.h: what the library sets on its errors. */
#ifndef HBASE_ERROR_PRIVATE_H
#define HBASE_ERROR_PRIVATE_H

#include <glib.h>

G_BEGIN_DECLS

/* Marks an HBASE_ERROR as a call that may have been applied (see
 * hbase_error_is_in_doubt()); other domains are left alone. */
void _hbase_error_set_in_doubt (GError *error, gboolean in_doubt);

/* Marks a connection failure no retry can mend (a host name that does not
 * resolve); such a call is not retried. */
void     _hbase_error_set_permanent (GError       *error);
gboolean _hbase_error_is_permanent  (const GError *error);

/* The one-line summary of a server's exception text: the first line, each
 * qualified exception class reduced to its own name, long braced texts (a
 * table description) to "{…}", at most a few hundred bytes; prefixed
 * with "@fallback_class: " unless it starts with an exception's name.
 * @server_text must be valid UTF-8.  Free with g_free(). */
char    *_hbase_error_summarize     (const char   *server_text,
                                     const char   *fallback_class);

/* A peer's free text made safe for a message: at most
 * HBASE_ERROR_PRINTABLE_MAX bytes of @text (@length bytes, any bytes: NUL,
 * controls and non-ASCII become blanks), printable ASCII without leading
 * or trailing blanks; NULL when nothing is left.  Free with g_free(). */
#define HBASE_ERROR_PRINTABLE_MAX 300
char    *_hbase_error_printable     (const char   *text,
                                     gsize         length);

/* Keeps @server_text (the server's whole text of the exception, valid
 * UTF-8 or not) for hbase_error_get_server_trace(); HBASE_ERROR only. */
void     _hbase_error_set_server_trace (GError     *error,
                                        const char *server_text);

/* Whether @error is HBASE_ERROR_NOT_FOUND for a column family the table
 * does not have (HBase's NoSuchColumnFamilyException). */
gboolean _hbase_error_is_missing_family (const GError *error);

/* Sets @error to HBASE_ERROR_ILLEGAL_ARGUMENT with the message; returns
 * FALSE, so checks can end with "return _hbase_illegal (...)". */
gboolean _hbase_illegal (GError     **error,
                         const char  *format,
                         ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS

#endif /* HBASE_ERROR_PRIVATE_H */
