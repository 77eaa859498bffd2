/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-write-failure.h (private): making write failures and reporting
 * them, for the write buffer. */
#ifndef HBASE_WRITE_FAILURE_H
#define HBASE_WRITE_FAILURE_H

#include <hbase-glib/hbase-write-buffer.h>

G_BEGIN_DECLS

HBaseWriteFailure *_hbase_write_failure_new       (HBaseMutation           *mutation,
                                                   const GError            *error);
/* Sets @error to "@summary; the first, row "...": its message", in the
 * domain and code of @first. */
void               _hbase_write_failure_set_error (GError                 **error,
                                                   const HBaseWriteFailure *first,
                                                   const char              *summary);
/* A failure callback with its data, shared by reference between the buffer
 * and the flushes that call it: replacing the callback while a flush thread
 * runs the old one frees the old data only when that call returned (the
 * last reference goes).  NULL stands for "no callback". */
typedef struct _HBaseFailureHandler HBaseFailureHandler;

HBaseFailureHandler *_hbase_failure_handler_new   (HBaseWriteFailureFunc    func,
                                                   gpointer                 user_data,
                                                   GDestroyNotify           destroy);
HBaseFailureHandler *_hbase_failure_handler_ref   (HBaseFailureHandler     *handler);
void                 _hbase_failure_handler_unref (HBaseFailureHandler     *handler);
void                 _hbase_failure_handler_call  (HBaseFailureHandler     *handler,
                                                   HBaseWriteBuffer        *buffer,
                                                   HBaseMutation           *mutation,
                                                   const GError            *error);

/* A row key as text, bytes other than printable ASCII as \xNN (newly allocated). */
char              *_hbase_escape_row              (GBytes                  *row);

G_END_DECLS

#endif /* HBASE_WRITE_FAILURE_H */
