/* SPDX-License-Identifier: Apache-2.0 */
/* test-write-buffer-callback.c: replacing a write buffer's failure
 * callback while a flush in another thread is running the old one frees
 * the old callback's data only after that call returned.  The writes fail
 * on a closed local port, so no server is needed. */
#include <gio/gio.h>
#include <string.h>

#include <hbase-glib/hbase-glib.h>

typedef struct {
  GMutex lock;
  GCond changed;
  gboolean entered;        /* the old callback is running */
  gboolean release;        /* it may return */
  gboolean returned;       /* it returned */
  gboolean destroyed;      /* its data was freed */
  gboolean destroyed_while_running;
  guint new_calls;
} Probe;

static void
old_callback (HBaseWriteBuffer *buffer, HBaseMutation *mutation, const GError *error,
              gpointer user_data)
{
  Probe *probe = user_data;

  g_mutex_lock (&probe->lock);
  if (!probe->entered)
    {
      probe->entered = TRUE;
      g_cond_broadcast (&probe->changed);
      while (!probe->release)
        g_cond_wait (&probe->changed, &probe->lock);
      /* the data is still ours to read here */
      probe->returned = TRUE;
    }
  g_mutex_unlock (&probe->lock);
}

static void
old_destroy (gpointer user_data)
{
  Probe *probe = user_data;

  g_mutex_lock (&probe->lock);
  if (probe->entered && !probe->returned)
    probe->destroyed_while_running = TRUE;
  probe->destroyed = TRUE;
  g_cond_broadcast (&probe->changed);
  g_mutex_unlock (&probe->lock);
}

static void
new_callback (HBaseWriteBuffer *buffer, HBaseMutation *mutation, const GError *error,
              gpointer user_data)
{
  Probe *probe = user_data;

  g_mutex_lock (&probe->lock);
  probe->new_calls++;
  g_mutex_unlock (&probe->lock);
}

static guint
closed_port (void)
{
  g_autoptr(GSocket) socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
                                            G_SOCKET_PROTOCOL_TCP, NULL);
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (g_socket_bind (socket, any, FALSE, &error));
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static gpointer
flush_main (gpointer data)
{
  HBaseWriteBuffer *buffer = data;
  g_autoptr(GError) error = NULL;

  /* every write fails: the gateway's port is closed */
  g_assert_false (hbase_write_buffer_flush (buffer, NULL, &error));
  g_assert_nonnull (error);
  return NULL;
}

static void
add_put (HBaseWriteBuffer *buffer, const char *key)
{
  g_autoptr(GBytes) row = g_bytes_new (key, strlen (key));
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(GError) error = NULL;

  hbase_mutation_put (put, "f", "q", row);
  g_assert_true (hbase_write_buffer_add (buffer, put, NULL, &error));
  g_assert_no_error (error);
}

static void
test_replace_while_running (void)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();
  g_autofree char *gateway = g_strdup_printf ("127.0.0.1:%u", closed_port ());
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GError) error = NULL;
  Probe old_probe = { 0 }, new_probe = { 0 };
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  GThread *flusher;

  g_mutex_init (&old_probe.lock);
  g_cond_init (&old_probe.changed);
  g_mutex_init (&new_probe.lock);
  g_assert_true (hbase_config_set_gateways (config, gateway, &error));
  g_assert_true (hbase_config_set_max_attempts (config, 1, &error));
  g_assert_no_error (error);
  client = hbase_client_new (config);
  table = hbase_table_new (client, "t", &error);
  g_assert_no_error (error);
  options.max_mutations = 1000;   /* flushed by hand only */
  buffer = hbase_write_buffer_new (table, &options, &error);
  g_assert_no_error (error);
  hbase_write_buffer_set_on_failure (buffer, old_callback, &old_probe, old_destroy);
  add_put (buffer, "r1");
  add_put (buffer, "r2");

  flusher = g_thread_new ("flush", flush_main, buffer);
  g_mutex_lock (&old_probe.lock);
  while (!old_probe.entered)
    g_cond_wait (&old_probe.changed, &old_probe.lock);
  g_mutex_unlock (&old_probe.lock);

  /* the old callback is running in the flush thread: replace it */
  hbase_write_buffer_set_on_failure (buffer, new_callback, &new_probe, NULL);
  g_mutex_lock (&old_probe.lock);
  g_assert_false (old_probe.destroyed);
  old_probe.release = TRUE;
  g_cond_broadcast (&old_probe.changed);
  g_mutex_unlock (&old_probe.lock);
  g_thread_join (flusher);

  /* freed once, after its call returned; the second failure went to the new
   * callback or to the old one, whichever was set when it was reported */
  g_assert_true (old_probe.returned);
  g_assert_true (old_probe.destroyed);
  g_assert_false (old_probe.destroyed_while_running);
  g_assert_cmpuint (new_probe.new_calls, <=, 1);

  /* later failures go to the new callback */
  add_put (buffer, "r3");
  g_assert_false (hbase_write_buffer_flush (buffer, NULL, NULL));
  g_assert_cmpuint (new_probe.new_calls, >=, 1);
  g_clear_object (&buffer);
  g_mutex_clear (&old_probe.lock);
  g_cond_clear (&old_probe.changed);
  g_mutex_clear (&new_probe.lock);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/write-buffer/on-failure/replace-while-running", test_replace_while_running);
  return g_test_run ();
}
