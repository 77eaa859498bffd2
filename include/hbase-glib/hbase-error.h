/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-error.h: the one error domain of hbase-glib. */
#ifndef HBASE_ERROR_H
#define HBASE_ERROR_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <glib.h>

G_BEGIN_DECLS

/**
 * HBASE_ERROR:
 *
 * The error domain of every failure hbase-glib reports.  Cancellation is
 * reported as %G_IO_ERROR_CANCELLED, as elsewhere in GIO.
 *
 * Since: 0.1
 */
#define HBASE_ERROR (hbase_error_quark ())

/**
 * HBaseError:
 * @HBASE_ERROR_CONNECTION: the gateway could not be reached, or the
 *   connection broke during a call.
 * @HBASE_ERROR_TIMEOUT: a connect or an operation ran past its deadline.
 * @HBASE_ERROR_PROTOCOL: the gateway's reply could not be understood
 *   (wrong protocol or transport, corrupt data, unknown method).
 * @HBASE_ERROR_IO: HBase reported an I/O error (a TIOError); the message
 *   summarizes the server's exception in one line (its whole text is
 *   hbase_error_get_server_trace()), and hbase_error_get_can_retry() tells
 *   whether HBase considers it retryable.
 * @HBASE_ERROR_ILLEGAL_ARGUMENT: the request was rejected as invalid, by
 *   the library before sending or by the gateway (TIllegalArgument).
 * @HBASE_ERROR_NOT_FOUND: the table, namespace, column family or scanner
 *   does not exist.
 * @HBASE_ERROR_SERVER: the gateway failed while processing the call
 *   (a Thrift INTERNAL_ERROR: HBase threw an unchecked exception, e.g. for
 *   a malformed filter string).
 * @HBASE_ERROR_BAD_DATA: data read from HBase does not have the form the
 *   caller asked for (a counter cell that is not 8 bytes wide, ...).
 * @HBASE_ERROR_INDEXED_TABLE: a write was refused because the table has a
 *   secondary index that the handle does not maintain (see
 *   hbase_table_set_allow_unindexed_writes()); nothing was sent.
 * @HBASE_ERROR_AUTHENTICATION: Kerberos authentication with a secured
 *   gateway failed: no credentials or expired ones, a principal the KDC
 *   does not know, no protection level (QOP) both sides accept, or the
 *   gateway refused the client's token.  Not retried.
 * @HBASE_ERROR_NOT_SUPPORTED: the operation or option is not available on
 *   the client's backend (see #HBaseBackend): on the native backend, for
 *   example, filter strings, which need the Thrift2 gateway.  Nothing was
 *   sent.  Since: 0.1
 * @HBASE_ERROR_BUSY: the client refused the call because too many were
 *   already waiting for it (hbase_config_set_max_pending()); nothing was
 *   sent.  Retry after earlier calls have completed.  Since: 0.2
 *
 * Error codes of the %HBASE_ERROR domain (hbase_error_quark()).
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_ERROR_CONNECTION = 1,
  HBASE_ERROR_TIMEOUT,
  HBASE_ERROR_PROTOCOL,
  HBASE_ERROR_IO,
  HBASE_ERROR_ILLEGAL_ARGUMENT,
  HBASE_ERROR_NOT_FOUND,
  HBASE_ERROR_SERVER,
  HBASE_ERROR_BAD_DATA,
  HBASE_ERROR_INDEXED_TABLE,
  HBASE_ERROR_AUTHENTICATION,
  HBASE_ERROR_NOT_SUPPORTED,
  HBASE_ERROR_BUSY,
} HBaseError;

/**
 * HBaseErrorCode:
 *
 * The former name of #HBaseError.
 *
 * Deprecated: Use #HBaseError.
 *
 * Since: 0.1
 */
typedef HBaseError HBaseErrorCode G_GNUC_DEPRECATED_FOR (HBaseError);

/* the former name of HBASE_TYPE_ERROR (the enum's GType) */
#define HBASE_TYPE_ERROR_CODE HBASE_TYPE_ERROR

GQuark   hbase_error_quark         (void);
gboolean hbase_error_get_can_retry (const GError *error);
gboolean hbase_error_is_in_doubt   (const GError *error);
const char *hbase_error_get_server_trace (const GError *error);

G_END_DECLS

#endif /* HBASE_ERROR_H */
