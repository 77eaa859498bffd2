/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-client-thrift.h: calls through the generated Thrift2 layer on a
 * client's pooled connections, with its deadlines, retries and error
 * mapping.  Part of <hbase-glib/hbase-glib-thrift.h>. */
#ifndef HBASE_CLIENT_THRIFT_H
#define HBASE_CLIENT_THRIFT_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib-thrift.h> can be included directly."
#endif

#include <hbase-glib/hbase-client.h>
#include <hbase-glib/hbase-connection.h>
#include <hbase-glib/hbase-error-thrift.h>
#include <hbase-glib/thrift/hbase_thrift_t_h_base_service.h>
#include <hbase-glib/thrift/hbase_thrift_autocleanups.h>

G_BEGIN_DECLS

HbaseThriftTHBaseServiceIf *hbase_connection_get_service (HBaseConnection *connection);

/**
 * HBaseCallFlags:
 * @HBASE_CALL_DEFAULT: the call may change state in a way that repeating it
 *   would change again (increment, append, check-and-mutate): it is only
 *   sent again when it certainly never reached the gateway.
 * @HBASE_CALL_IDEMPOTENT: repeating the call gives the same result (reads,
 *   puts and deletes with a fixed timestamp or whose outcome does not depend
 *   on repetition): it is retried on connection errors, timeouts of an
 *   attempt and retryable TIOErrors, within the operation deadline.
 * @HBASE_CALL_READ_ONLY: the call changes nothing, so its failure is
 *   never "in doubt" (see hbase_error_is_in_doubt()).
 *
 * How hbase_client_call() may retry a call.
 *
 * Since: 0.1
 */
/* no GType: only the generated layer's calls, which are not introspected,
 * take these flags */
typedef enum /*< skip >*/ {
  HBASE_CALL_DEFAULT = 0,
  HBASE_CALL_IDEMPOTENT = 1 << 0,
  HBASE_CALL_READ_ONLY = 1 << 1,
} HBaseCallFlags;

/**
 * HBaseCallFunc:
 * @service: the generated client of a pooled connection
 * @user_data: the data given to hbase_client_call()
 * @error: where to report a failure, in %HBASE_ERROR (use
 *   hbase_error_take_call_error() on the generated call's outcome)
 *
 * One attempt of a call through the generated layer.  It may run more than
 * once, on different connections, so it must not consume its inputs.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
typedef gboolean (*HBaseCallFunc) (HbaseThriftTHBaseServiceIf  *service,
                                   gpointer                     user_data,
                                   GError                     **error);

gboolean hbase_client_call        (HBaseClient          *client,
                                   HBaseCallFlags        flags,
                                   HBaseCallFunc         func,
                                   gpointer              user_data,
                                   GCancellable         *cancellable,
                                   GError              **error);
void     hbase_client_call_async  (HBaseClient          *client,
                                   HBaseCallFlags        flags,
                                   HBaseCallFunc         func,
                                   gpointer              user_data,
                                   GDestroyNotify        user_data_free,
                                   GCancellable         *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              callback_data);
gboolean hbase_client_call_finish (HBaseClient          *client,
                                   GAsyncResult         *result,
                                   GError              **error);

G_END_DECLS

#endif /* HBASE_CLIENT_THRIFT_H */
