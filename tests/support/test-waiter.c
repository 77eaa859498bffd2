/* SPDX-License-Identifier: Apache-2.0 */
/* test-waiter.c: waits for an async result on the thread-default main
 * context (see test-waiter.h). */
#include "config.h"

#include "test-waiter.h"

void
test_waiter_init (TestWaiter *waiter)
{
  waiter->loop = g_main_loop_new (NULL, FALSE);
  waiter->result = NULL;
}

void
test_waiter_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  TestWaiter *waiter = user_data;

  waiter->result = g_object_ref (result);
  g_main_loop_quit (waiter->loop);
}

static gboolean
waiter_timeout (gpointer user_data)
{
  g_error ("no async result within 60 s");
  return G_SOURCE_REMOVE;
}

GAsyncResult *
test_waiter_run (TestWaiter *waiter)
{
  guint timeout = g_timeout_add_seconds (60, waiter_timeout, NULL);

  if (waiter->result == NULL)
    g_main_loop_run (waiter->loop);
  g_source_remove (timeout);
  return waiter->result;
}

void
test_waiter_clear (TestWaiter *waiter)
{
  g_clear_object (&waiter->result);
  g_clear_pointer (&waiter->loop, g_main_loop_unref);
}
