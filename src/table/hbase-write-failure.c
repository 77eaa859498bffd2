/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-write-failure.c: HBaseWriteFailure, one mutation a write buffer
 * could not write and why, and the error that sums up a flush's failures. */
#include "config.h"

#include "hbase-write-failure.h"

struct _HBaseWriteFailure {
  HBaseMutation *mutation;
  GError *error;
};

HBaseWriteFailure *
_hbase_write_failure_new (HBaseMutation *mutation, const GError *error)
{
  HBaseWriteFailure *failure = g_new0 (HBaseWriteFailure, 1);

  failure->mutation = hbase_mutation_ref (mutation);
  failure->error = g_error_copy (error);
  return failure;
}

/**
 * hbase_write_failure_copy:
 * @failure: a failure
 *
 * Copies @failure; the copy shares its mutation.
 *
 * Returns: (transfer full): a copy of @failure
 *
 * Since: 0.1
 */
HBaseWriteFailure *
hbase_write_failure_copy (const HBaseWriteFailure *failure)
{
  g_return_val_if_fail (failure != NULL, NULL);
  return _hbase_write_failure_new (failure->mutation, failure->error);
}

/**
 * hbase_write_failure_free:
 * @failure: (transfer full) (nullable): a failure
 *
 * Frees @failure.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_write_failure_free (HBaseWriteFailure *failure)
{
  if (failure == NULL)
    return;
  hbase_mutation_unref (failure->mutation);
  g_error_free (failure->error);
  g_free (failure);
}

G_DEFINE_BOXED_TYPE (HBaseWriteFailure, hbase_write_failure, hbase_write_failure_copy,
                     hbase_write_failure_free)

/**
 * hbase_write_failure_get_mutation:
 * @failure: a failure
 *
 * Gets the mutation that was not written.
 *
 * Returns: (transfer none): the mutation that was not written, as it was
 *   added
 *
 * Since: 0.1
 */
HBaseMutation *
hbase_write_failure_get_mutation (const HBaseWriteFailure *failure)
{
  g_return_val_if_fail (failure != NULL, NULL);
  return failure->mutation;
}

/**
 * hbase_write_failure_get_row:
 * @failure: a failure
 *
 * Gets the row key of the mutation that was not written.
 *
 * Returns: (transfer none): the row key of the mutation
 *
 * Since: 0.1
 */
GBytes *
hbase_write_failure_get_row (const HBaseWriteFailure *failure)
{
  g_return_val_if_fail (failure != NULL, NULL);
  return hbase_mutation_get_row (failure->mutation);
}

/**
 * hbase_write_failure_get_error:
 * @failure: a failure
 *
 * Gets why the mutation of @failure was not written.  The error belongs to
 * @failure.
 *
 * Returns: (transfer none): why it was not written, in %HBASE_ERROR
 *   (with the gateway's message for a server error) or
 *   %G_IO_ERROR_CANCELLED
 *
 * Since: 0.1
 */
const GError *
hbase_write_failure_get_error (const HBaseWriteFailure *failure)
{
  g_return_val_if_fail (failure != NULL, NULL);
  return failure->error;
}

/* A row key as text, bytes other than printable ASCII as \xNN. */
char *
_hbase_escape_row (GBytes *row)
{
  GString *out = g_string_new (NULL);
  gsize len = 0;
  const guint8 *data = row != NULL ? g_bytes_get_data (row, &len) : NULL;

  for (gsize i = 0; i < len; i++)
    if (data[i] >= 0x20 && data[i] < 0x7f && data[i] != '\\' && data[i] != '"')
      g_string_append_c (out, (char) data[i]);
    else
      g_string_append_printf (out, "\\x%02x", data[i]);
  return g_string_free (out, FALSE);
}

/* Sets @error to "@summary; the first, row "...": its message", in the
 * domain and code of the first failure. */
void
_hbase_write_failure_set_error (GError **error, const HBaseWriteFailure *first, const char *summary)
{
  g_autofree char *row = _hbase_escape_row (hbase_write_failure_get_row (first));

  g_set_error (error, first->error->domain, first->error->code, "%s; the first, row \"%s\": %s",
               summary, row, first->error->message);
}

/* --- the failure callback ----------------------------------------------------------------- */

struct _HBaseFailureHandler {
  gatomicrefcount ref_count;
  HBaseWriteFailureFunc func;
  gpointer user_data;
  GDestroyNotify destroy;
};

HBaseFailureHandler *
_hbase_failure_handler_new (HBaseWriteFailureFunc func, gpointer user_data, GDestroyNotify destroy)
{
  HBaseFailureHandler *handler;

  if (func == NULL)
    {
      if (destroy != NULL)
        destroy (user_data);
      return NULL;
    }
  handler = g_new0 (HBaseFailureHandler, 1);
  g_atomic_ref_count_init (&handler->ref_count);
  handler->func = func;
  handler->user_data = user_data;
  handler->destroy = destroy;
  return handler;
}

HBaseFailureHandler *
_hbase_failure_handler_ref (HBaseFailureHandler *handler)
{
  if (handler != NULL)
    g_atomic_ref_count_inc (&handler->ref_count);
  return handler;
}

void
_hbase_failure_handler_unref (HBaseFailureHandler *handler)
{
  if (handler == NULL || !g_atomic_ref_count_dec (&handler->ref_count))
    return;
  if (handler->destroy != NULL)
    handler->destroy (handler->user_data);
  g_free (handler);
}

void
_hbase_failure_handler_call (HBaseFailureHandler *handler, HBaseWriteBuffer *buffer,
                             HBaseMutation *mutation, const GError *error)
{
  handler->func (buffer, mutation, error, handler->user_data);
}
