/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-glib-thrift.h: the generated Thrift2 layer, for power users.
 *
 * Includes <hbase-glib/hbase-glib.h> and the c_glib code the Thrift 0.17
 * compiler generates from thrift/hbase.thrift: every THBaseService call
 * (hbase_thrift_t_h_base_service_if_*) and struct (HbaseThriftTGet, ...).
 * Every generated type works with g_autoptr().
 * Compile with `pkg-config --cflags --libs hbase-glib-thrift-1.0`.
 */
#ifndef HBASE_GLIB_THRIFT_H
#define HBASE_GLIB_THRIFT_H

#include <hbase-glib/hbase-glib.h>
#include <hbase-glib/thrift/hbase_thrift_hbase_types.h>
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
 */
typedef enum {
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

void hbase_error_take_call_error (GError                      **error,
                                  GError                       *call_error,
                                  HbaseThriftTIOError          *io_error,
                                  HbaseThriftTIllegalArgument  *illegal_argument);

G_END_DECLS

#endif /* HBASE_GLIB_THRIFT_H */
