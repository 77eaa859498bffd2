/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-error.c: the HBASE_ERROR domain, the illegal-argument error every
 * layer's input checks set, and turning the outcome of a generated Thrift
 * call into it with the gateway's own message kept. */
#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <thrift/c_glib/protocol/thrift_protocol.h>
#include <thrift/c_glib/thrift_application_exception.h>
#include <thrift/c_glib/transport/thrift_transport.h>

#include <hbase-glib/hbase-error-thrift.h>

#include "hbase-error-private.h"

/* An extended error domain: every HBASE_ERROR carries whether HBase said
 * the failure may be retried (TIOError.canRetry), whether the failed
 * call may have taken effect anyway (hbase_error_is_in_doubt()), and the
 * server's whole text when the message summarizes it
 * (hbase_error_get_server_trace()). */
typedef struct {
  gboolean can_retry;
  gboolean in_doubt;
  gboolean permanent;   /* no later attempt can succeed (an unknown host name) */
  char *server_trace;   /* the gateway's text of the exception, or NULL */
} HBaseErrorPrivate;

static void
hbase_error_private_init (HBaseErrorPrivate *priv)
{
  priv->can_retry = FALSE;
  priv->in_doubt = FALSE;
  priv->permanent = FALSE;
  priv->server_trace = NULL;
}

static void
hbase_error_private_copy (const HBaseErrorPrivate *src, HBaseErrorPrivate *dest)
{
  dest->can_retry = src->can_retry;
  dest->in_doubt = src->in_doubt;
  dest->permanent = src->permanent;
  dest->server_trace = g_strdup (src->server_trace);
}

static void
hbase_error_private_clear (HBaseErrorPrivate *priv)
{
  g_clear_pointer (&priv->server_trace, g_free);
}

/**
 * hbase_error_quark:
 *
 * Gets the quark of the %HBASE_ERROR domain; use the macro instead.
 *
 * Returns: the error domain
 *
 * Since: 0.1
 */
G_DEFINE_EXTENDED_ERROR (HBaseError, hbase_error)

/**
 * hbase_error_get_can_retry:
 * @error: an error
 *
 * Whether HBase reported the failure as retryable: the canRetry flag of a
 * TIOError (false for a DoNotRetryIOException such as a missing table).
 * %FALSE for errors of other domains and codes.
 *
 * Returns: %TRUE if the failed call may succeed when sent again.
 *
 * Since: 0.1
 */
gboolean
hbase_error_get_can_retry (const GError *error)
{
  if (error == NULL || error->domain != HBASE_ERROR)
    return FALSE;
  return hbase_error_get_private (error)->can_retry;
}

/**
 * hbase_error_is_in_doubt:
 * @error: an error a call failed with
 *
 * Whether the failed call may have been applied all the same: its request
 * (in this attempt or an earlier one) reached the gateway and no complete
 * answer came back — the connection broke or the deadline passed after
 * sending, the reply could not be decoded — or HBase reported a failure
 * that does not exclude it (a retryable I/O error: the gateway's own
 * client gave up retrying; a batch of which some mutations failed, the
 * others being applied).
 *
 * %FALSE means the call certainly did not take effect: nothing of the
 * request left this process (a refused connection, an unreachable
 * gateway, invalid input), or HBase answered that it refused it (missing
 * table or family, illegal argument, ...).  This is the distinction the
 * HBase Java client draws between a call that failed before it was sent
 * and one whose outcome is unknown (a timeout or RetriesExhaustedException
 * after sending).
 *
 * A write in doubt must be read back, or written again where repeating it
 * is harmless (a put of the same cells); hbase-glib never sends an
 * increment, append or check-and-mutate again once a request of it may
 * have arrived.  A cancellation (%G_IO_ERROR_CANCELLED) carries no such
 * flag, so it counts as in doubt.  Only meaningful for calls that change
 * data: a read in doubt changed nothing.
 *
 * Returns: %TRUE if the call may have been applied.
 *
 * Since: 0.1
 */
gboolean
hbase_error_is_in_doubt (const GError *error)
{
  if (error == NULL)
    return FALSE;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return TRUE;
  if (error->domain != HBASE_ERROR)
    return FALSE;
  return hbase_error_get_private (error)->in_doubt;
}

/**
 * hbase_error_get_server_trace:
 * @error: an error
 *
 * The server's whole text of the exception behind @error (the Thrift2
 * gateway's, or on the native backend the region server's): the Java
 * exception's class and message, usually followed by its stack trace
 * ("at org.apache.hadoop.hbase...") and, for a missing column family, the
 * table's description.  @error's message is a one-line summary of it: the
 * exception's class without its package and the first line of its
 * message, long descriptions shortened to "{…}".
 *
 * Bindings: a language binding that turns a #GError into its own
 * exception (PyGObject's GLib.Error) does not keep this text; it is
 * available from C, or where the binding passes the #GError itself.
 *
 * Returns: (nullable): the server's text, valid UTF-8, owned by @error;
 *   %NULL for errors of other domains and for failures the server did not
 *   describe (a refused connection, invalid input, ...).
 *
 * Since: 0.1
 */
const char *
hbase_error_get_server_trace (const GError *error)
{
  if (error == NULL || error->domain != HBASE_ERROR)
    return NULL;
  return hbase_error_get_private (error)->server_trace;
}

void
_hbase_error_set_server_trace (GError *error, const char *server_text)
{
  HBaseErrorPrivate *priv;

  if (error == NULL || error->domain != HBASE_ERROR || server_text == NULL)
    return;
  priv = hbase_error_get_private (error);
  g_free (priv->server_trace);
  priv->server_trace = g_utf8_make_valid (server_text, -1);
}

gboolean
_hbase_error_is_missing_family (const GError *error)
{
  const char *trace = hbase_error_get_server_trace (error);

  return error != NULL && error->code == HBASE_ERROR_NOT_FOUND && trace != NULL &&
         strstr (trace, "NoSuchColumnFamilyException") != NULL;
}

void
_hbase_error_set_in_doubt (GError *error, gboolean in_doubt)
{
  if (error != NULL && error->domain == HBASE_ERROR)
    hbase_error_get_private (error)->in_doubt = in_doubt;
}

void
_hbase_error_set_permanent (GError *error)
{
  if (error != NULL && error->domain == HBASE_ERROR)
    hbase_error_get_private (error)->permanent = TRUE;
}

gboolean
_hbase_error_is_permanent (const GError *error)
{
  return error != NULL && error->domain == HBASE_ERROR && hbase_error_get_private (error)->permanent;
}

gboolean
_hbase_illegal (GError **error, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                                                format, args));
  va_end (args);
  return FALSE;
}

/* A TIOError that may hide an applied write: a retryable one (the
 * gateway's own HBase client gave up after its retries, some of which may
 * have reached the region server), or a batch whose failed actions are
 * listed while the other actions were applied
 * (RetriesExhaustedWithDetailsException: "Failed 2 actions: ..."). */
static gboolean
io_error_in_doubt (const char *message, gboolean can_retry)
{
  if (can_retry)
    return TRUE;
  return message != NULL &&
         (strstr (message, "RetriesExhaustedWithDetailsException") != NULL ||
          (g_str_has_prefix (message, "Failed ") && strstr (message, " action") != NULL) ||
          strstr (message, ": Failed ") != NULL);
}

/* A TIOError's message is the Java exception's getMessage().  Where HBase
 * wraps the exception, that text names the class, which is the only way to
 * tell "not found" apart: a missing table, namespace or column family.
 * (A plain TableNotFoundException from the 2.6 gateway's get says only
 * the table name; see test-generated-client.c.) */
static HBaseError
io_error_code (const char *message)
{
  if (message != NULL &&
      (strstr (message, "TableNotFoundException") != NULL ||
       strstr (message, "NamespaceNotFoundException") != NULL ||
       strstr (message, "NoSuchColumnFamilyException") != NULL))
    return HBASE_ERROR_NOT_FOUND;
  return HBASE_ERROR_IO;
}

/* An error of @code whose message is the one-line summary of the server's
 * @text (which names the exception, else @fallback_class does), the
 * whole text kept for hbase_error_get_server_trace(). */
static GError *
server_error_new (HBaseError code, const char *text, const char *fallback_class,
                  const char *suffix)
{
  g_autofree char *valid = g_utf8_make_valid (text != NULL ? text : "", -1);
  g_autofree char *summary = _hbase_error_summarize (valid, fallback_class);
  GError *error = g_error_new (HBASE_ERROR, code, "%s%s", summary, suffix);

  if (*valid != '\0')
    hbase_error_get_private (error)->server_trace = g_steal_pointer (&valid);
  return error;
}

/* The gateway sets canRetry for any IOException that is not itself a
 * DoNotRetryIOException, so a batch (putMultiple, ...) that failed on an
 * unknown family comes back "retryable": its exception is the batch's
 * RetriesExhaustedWithDetailsException, the cause only in the text.
 * Repeating such a call can only fail again (and rewrite the good rows
 * of the batch), so a message naming one of HBase's do-not-retry
 * exceptions overrides the flag. */
static gboolean
names_do_not_retry (const char *message)
{
  static const char *const causes[] = {
    "DoNotRetryIOException",
    "NoSuchColumnFamilyException",
    "FailedSanityCheckException",
    "TableNotFoundException",
    "TableNotEnabledException",
    "NamespaceNotFoundException",
    "AccessDeniedException",
    "InvalidFamilyOperationException",
  };

  for (guint i = 0; message != NULL && i < G_N_ELEMENTS (causes); i++)
    if (strstr (message, causes[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* what the generated code (and the result reader) put before the text of
 * a TApplicationException the server sent; the same domain without it is
 * this side's check of the reply (a wrong method name, ...) */
#define SERVER_EXCEPTION_PREFIX "application error: "

static HBaseError
call_error_code (const GError *call_error)
{
  if (call_error->domain == THRIFT_TRANSPORT_ERROR)
    return HBASE_ERROR_CONNECTION;
  if (call_error->domain == THRIFT_APPLICATION_EXCEPTION_ERROR &&
      call_error->code == THRIFT_APPLICATION_EXCEPTION_ERROR_INTERNAL_ERROR)
    return HBASE_ERROR_SERVER;
  return HBASE_ERROR_PROTOCOL;
}

/**
 * hbase_error_take_call_error:
 * @error: (out) (optional): where to put the hbase-glib error, or %NULL
 * @call_error: (transfer full) (nullable): the #GError a generated
 *   hbase_thrift_t_h_base_service_*() call set
 * @io_error: (transfer none) (nullable): the TIOError out-parameter of the call
 * @illegal_argument: (transfer none) (nullable): the TIllegalArgument
 *   out-parameter of the call
 *
 * Turns a failed generated call into an %HBASE_ERROR.  The generated code
 * alone only says "TIOError"; the server's text is in the exception
 * object, which this reads.  The message is one line: the exception's
 * class (without its package) and the first line of its message; the
 * whole text, stack trace included, is kept for
 * hbase_error_get_server_trace().  Takes ownership of @call_error; the
 * exception objects stay the caller's.
 *
 * Since: 0.1
 */
void
hbase_error_take_call_error (GError                      **error,
                             GError                       *call_error,
                             HbaseThriftTIOError          *io_error,
                             HbaseThriftTIllegalArgument  *illegal_argument)
{
  if (io_error != NULL)
    {
      gboolean can_retry = io_error->canRetry && !names_do_not_retry (io_error->message);
      GError *io = server_error_new (io_error_code (io_error->message), io_error->message,
                                     "TIOError", can_retry ? " (retryable)" : "");

      hbase_error_get_private (io)->can_retry = can_retry;
      hbase_error_get_private (io)->in_doubt = io_error_in_doubt (io_error->message, can_retry);
      g_propagate_error (error, io);
    }
  else if (illegal_argument != NULL)
    {
      g_propagate_error (error, server_error_new (HBASE_ERROR_ILLEGAL_ARGUMENT,
                                                  illegal_argument->message, "TIllegalArgument",
                                                  ""));
    }
  else if (call_error != NULL &&
           (call_error->domain == HBASE_ERROR ||
            g_error_matches (call_error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
    {
      /* already ours (hbase-glib's transport), or a cancellation, which
       * GIO callers expect as G_IO_ERROR_CANCELLED: passed on unchanged */
      g_propagate_error (error, call_error);
      return;
    }
  else if (call_error != NULL && call_error->domain == THRIFT_APPLICATION_EXCEPTION_ERROR &&
           g_str_has_prefix (call_error->message, SERVER_EXCEPTION_PREFIX))
    {
      /* the server's TApplicationException: its text, without the prefix
       * the Thrift code puts before it */
      g_propagate_error (error, server_error_new (call_error_code (call_error),
                                                  call_error->message + strlen (SERVER_EXCEPTION_PREFIX),
                                                  "TApplicationException", ""));
    }
  else if (call_error != NULL)
    {
      /* this side's words (a transport or protocol failure) */
      g_autofree char *text = g_utf8_make_valid (call_error->message, -1);

      g_set_error_literal (error, HBASE_ERROR, call_error_code (call_error), text);
    }
  else
    g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                         "the call failed without saying why");
  g_clear_error (&call_error);
}
