/* SPDX-License-Identifier: Apache-2.0 */
/* test-native-retry.c: the native client's retry policy
 * (_hbase_native_retry_decide), the decision alone, with errors made the
 * way the connection makes them from a server's ExceptionResponse: each
 * class of the notes' list gets its action (relocate, the same server
 * after a pause, relocate when the server is gone or unreachable, nothing
 * when final, a time-out only when the deadline has passed), do_not_retry is final whatever the class, the pauses grow
 * as the Java client's (base × 1, 2, 3, 5, 10, 20, 40, 100), no wait ends
 * at or past the operation's deadline, and the attempts are bounded; a
 * lookup that finds a region offline or on no server is retried; which
 * answers say the call did not run (so a write that is not idempotent may
 * be sent again).
 * Whatever can be made to happen on the real stack (a stale region, an
 * unreachable server, a deadline, many threads) is in
 * tests/integration/test-native-pool.c.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "../../src/core/hbase-error-private.h"
#include "../../src/native/hbase-native-client.h"
#include "../../src/native/hbase-native-connection.h"

#define PAUSE_MS 100
#define NOW      ((gint64) 1000000000)

static GError *
server_error (const char *cls, gboolean do_not_retry)
{
  GError *error = NULL;
  g_autofree char *trace = g_strdup_printf ("%s: the server's words\n\tat some.Frame(Frame.java:1)", cls);

  _hbase_native_set_exception_error (&error, cls, trace, do_not_retry);
  return error;
}

static HBaseNativeRetry
decide (const GError *error, guint attempt, gint64 deadline, gint64 *wait_us)
{
  return _hbase_native_retry_decide (error, attempt, PAUSE_MS, NOW, deadline, wait_us);
}

static void
test_relocate (void)
{
  static const char *classes[] = {
    "org.apache.hadoop.hbase.NotServingRegionException",
    "org.apache.hadoop.hbase.exceptions.RegionMovedException",
    "org.apache.hadoop.hbase.client.RegionOfflineException",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      g_autoptr(GError) error = server_error (classes[i], FALSE);
      gint64 wait = -1;

      /* the first time at once, then with the backoff */
      g_assert_cmpint (decide (error, 0, 0, &wait), ==, HBASE_NATIVE_RETRY_RELOCATE);
      g_assert_cmpint (wait, ==, 0);
      g_assert_cmpint (decide (error, 1, 0, &wait), ==, HBASE_NATIVE_RETRY_RELOCATE);
      g_assert_cmpint (wait, ==, 2 * PAUSE_MS * 1000);
    }
}

static void
test_same_server (void)
{
  static const char *classes[] = {
    "org.apache.hadoop.hbase.exceptions.RegionOpeningException",
    "org.apache.hadoop.hbase.RegionTooBusyException",
    "org.apache.hadoop.hbase.CallQueueTooBigException",
    "org.apache.hadoop.hbase.PleaseHoldException",
    "org.apache.hadoop.hbase.RetryImmediatelyException",
    "org.apache.hadoop.hbase.quotas.RpcThrottlingException",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      g_autoptr(GError) error = server_error (classes[i], FALSE);
      gint64 wait = -1;

      g_assert_cmpint (decide (error, 0, 0, &wait), ==, HBASE_NATIVE_RETRY_SAME);
      g_assert_cmpint (wait, ==, PAUSE_MS * 1000);
    }
}

static void
test_server_gone (void)
{
  static const char *classes[] = {
    "org.apache.hadoop.hbase.regionserver.RegionServerStoppedException",
    "org.apache.hadoop.hbase.regionserver.RegionServerAbortedException",
    "org.apache.hadoop.hbase.ipc.ServerNotRunningYetException",
  };
  g_autoptr(GError) refused = g_error_new (HBASE_ERROR, HBASE_ERROR_CONNECTION,
                                           "HBase server 127.0.0.1:1: connection refused");
  gint64 wait = -1;

  for (gsize i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      g_autoptr(GError) error = server_error (classes[i], FALSE);

      g_assert_cmpint (decide (error, 0, 0, &wait), ==, HBASE_NATIVE_RETRY_RELOCATE);
      g_assert_cmpint (wait, ==, PAUSE_MS * 1000);
    }
  /* a server that cannot be reached: its regions may be elsewhere now */
  g_assert_cmpint (decide (refused, 2, 0, &wait), ==, HBASE_NATIVE_RETRY_RELOCATE);
  g_assert_cmpint (wait, ==, 3 * PAUSE_MS * 1000);
  /* but not one no retry can mend (a host name that does not resolve) */
  _hbase_error_set_permanent (refused);
  g_assert_cmpint (decide (refused, 0, 0, &wait), ==, HBASE_NATIVE_RETRY_NO);
}

static void
test_final (void)
{
  static const char *classes[] = {
    "org.apache.hadoop.hbase.TableNotFoundException",
    "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException",
    "org.apache.hadoop.hbase.DoNotRetryIOException",
    "java.io.IOException",
    "org.apache.hadoop.hbase.UnknownScannerException",
  };
  g_autoptr(GError) timeout = g_error_new (HBASE_ERROR, HBASE_ERROR_TIMEOUT, "deadline");
  g_autoptr(GError) cancelled = g_error_new (G_IO_ERROR, G_IO_ERROR_CANCELLED, "cancelled");
  g_autoptr(GError) protocol = g_error_new (HBASE_ERROR, HBASE_ERROR_PROTOCOL, "malformed");
  gint64 wait = -1;

  for (gsize i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      g_autoptr(GError) error = server_error (classes[i], FALSE);

      g_assert_cmpint (decide (error, 0, 0, &wait), ==, HBASE_NATIVE_RETRY_NO);
    }
  /* a time-out: a connect that timed out with time left is retried
   * elsewhere, one at the deadline is not */
  g_assert_cmpint (decide (timeout, 0, NOW + 10 * G_USEC_PER_SEC, &wait), ==, HBASE_NATIVE_RETRY_RELOCATE);
  g_assert_cmpint (decide (timeout, 0, NOW, &wait), ==, HBASE_NATIVE_RETRY_NO);
  g_assert_cmpint (decide (cancelled, 0, 0, &wait), ==, HBASE_NATIVE_RETRY_NO);
  g_assert_cmpint (decide (protocol, 0, 0, &wait), ==, HBASE_NATIVE_RETRY_NO);
  g_assert_cmpint (decide (NULL, 0, 0, &wait), ==, HBASE_NATIVE_RETRY_NO);
}

/* do_not_retry is final, whatever the class says */
static void
test_do_not_retry (void)
{
  static const char *classes[] = {
    "org.apache.hadoop.hbase.NotServingRegionException",
    "org.apache.hadoop.hbase.RegionTooBusyException",
    "org.apache.hadoop.hbase.ipc.ServerNotRunningYetException",
  };
  gint64 wait = -1;

  for (gsize i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      g_autoptr(GError) error = server_error (classes[i], TRUE);

      g_assert_cmpint (decide (error, 0, 0, &wait), ==, HBASE_NATIVE_RETRY_NO);
    }
}

static void
test_backoff_and_deadline (void)
{
  static const guint steps[] = { 1, 2, 3, 5, 10, 20, 40, 100, 100, 100 };
  g_autoptr(GError) busy = server_error ("org.apache.hadoop.hbase.RegionTooBusyException", FALSE);
  gint64 wait = -1;

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      g_assert_cmpint (decide (busy, i, 0, &wait), ==, HBASE_NATIVE_RETRY_SAME);
      g_assert_cmpint (wait, ==, (gint64) steps[i] * PAUSE_MS * 1000);
    }
  /* a wait that would end at or past the deadline is not begun */
  g_assert_cmpint (decide (busy, 3, NOW + 500 * 1000, &wait), ==, HBASE_NATIVE_RETRY_NO);
  g_assert_cmpint (decide (busy, 3, NOW + 501 * 1000, &wait), ==, HBASE_NATIVE_RETRY_SAME);
  g_assert_cmpint (decide (busy, 0, NOW, &wait), ==, HBASE_NATIVE_RETRY_NO);
  /* and the attempts are bounded */
  g_assert_cmpint (decide (busy, HBASE_NATIVE_MAX_ATTEMPTS - 2, 0, &wait), ==, HBASE_NATIVE_RETRY_SAME);
  g_assert_cmpint (decide (busy, HBASE_NATIVE_MAX_ATTEMPTS - 1, 0, &wait), ==, HBASE_NATIVE_RETRY_NO);
}

/* A lookup that finds the row's region offline or on no server (just
 * split, merged or moved after a crash) is retried, the region looked up
 * again, as the Java client retries RegionOfflineException and
 * NoServerForRegionException. */
static void
test_lookup_unassigned (void)
{
  for (guint offline = 0; offline < 2; offline++)
    {
      g_autoptr(GError) error = NULL;
      gint64 wait = -1;

      _hbase_native_error_unassigned (&error, "t", offline);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_SERVER);
      g_assert_nonnull (strstr (error->message, offline ? "RegionOfflineException" : "NoServerForRegionException"));
      g_assert_nonnull (strstr (error->message, "region of t"));
      g_assert_cmpint (decide (error, 0, 0, &wait), ==, HBASE_NATIVE_RETRY_RELOCATE);
      g_assert_cmpint (wait, ==, 0);
      g_assert_cmpint (decide (error, 1, 0, &wait), ==, HBASE_NATIVE_RETRY_RELOCATE);
      g_assert_cmpint (wait, ==, 2 * PAUSE_MS * 1000);
    }
}

/* Which answers say the server did not run the call, so that an
 * increment or check-and-mutate may be sent again: a region elsewhere,
 * busy or opening, a full queue, and a server stopping, aborting or not
 * yet running (it says so before running anything); not a broken
 * connection, a time-out or any other exception. */
static void
test_not_run (void)
{
  static const char *not_run[] = {
    "org.apache.hadoop.hbase.NotServingRegionException",
    "org.apache.hadoop.hbase.exceptions.RegionMovedException",
    "org.apache.hadoop.hbase.exceptions.RegionOpeningException",
    "org.apache.hadoop.hbase.RegionTooBusyException",
    "org.apache.hadoop.hbase.CallQueueTooBigException",
    "org.apache.hadoop.hbase.regionserver.RegionServerStoppedException",
    "org.apache.hadoop.hbase.regionserver.RegionServerAbortedException",
    "org.apache.hadoop.hbase.ipc.ServerNotRunningYetException",
  };
  static const char *may_have_run[] = {
    "org.apache.hadoop.hbase.DoNotRetryIOException",
    "org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException",
    "java.io.IOException",
  };
  g_autoptr(GError) reset = g_error_new (HBASE_ERROR, HBASE_ERROR_CONNECTION,
                                         "cannot read from HBase server 127.0.0.1:1 (ClientService): "
                                         "Connection reset by peer");
  g_autoptr(GError) timeout = g_error_new (HBASE_ERROR, HBASE_ERROR_TIMEOUT, "deadline");

  for (gsize i = 0; i < G_N_ELEMENTS (not_run); i++)
    {
      g_autoptr(GError) error = server_error (not_run[i], FALSE);

      g_assert_true (_hbase_native_error_not_run (error));
    }
  for (gsize i = 0; i < G_N_ELEMENTS (may_have_run); i++)
    {
      g_autoptr(GError) error = server_error (may_have_run[i], FALSE);

      g_assert_false (_hbase_native_error_not_run (error));
    }
  g_assert_false (_hbase_native_error_not_run (reset));
  g_assert_false (_hbase_native_error_not_run (timeout));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/native/retry/relocate", test_relocate);
  g_test_add_func ("/native/retry/same-server", test_same_server);
  g_test_add_func ("/native/retry/server-gone", test_server_gone);
  g_test_add_func ("/native/retry/final", test_final);
  g_test_add_func ("/native/retry/do-not-retry", test_do_not_retry);
  g_test_add_func ("/native/retry/backoff-and-deadline", test_backoff_and_deadline);
  g_test_add_func ("/native/retry/lookup-unassigned", test_lookup_unassigned);
  g_test_add_func ("/native/retry/not-run", test_not_run);
  return g_test_run ();
}
