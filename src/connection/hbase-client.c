/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-client.c: a thread-safe client: a pool of gateway connections,
 * the retry rules, async plumbing, and the process-wide default client
 * (its table-less calls, ping and list namespaces, are in hbase-client-calls.c),
 * and on the native backend the native client it holds for the table layer.
 * Long because: the pool, the retry loop and the client struct they both
 * guard read best as one piece.
 *
 * Retry rules (hbase_client_call()):
 *  - every call has one deadline, now + operation timeout; attempts,
 *    backoff sleeps and pool waits all end by it;
 *  - a call is sent again only when the failure is transient: a connection
 *    error (reset, closed, refused) or a TIOError HBase marks canRetry;
 *  - a call that is not HBASE_CALL_IDEMPOTENT (increment, append,
 *    check-and-mutate) is sent again only when the failed attempt never
 *    handed a byte of the request to the kernel, i.e. it certainly never
 *    reached the gateway;
 *  - a timed-out attempt is not retried: it used up the deadline;
 *  - an attempt whose request was sent and that got no complete answer
 *    (or a retryable HBase I/O error) may have been applied: the call's
 *    error then says so, in its message and hbase_error_is_in_doubt(),
 *    whichever attempt it was (the last attempt may have failed only to
 *    connect);
 *  - backoff doubles from the first delay up to the longest, with jitter
 *    (a random 50-100% of it), and is skipped when it would pass the
 *    deadline;
 *  - a connection a call left in an unknown state (connection error,
 *    timeout, protocol error, cancellation) is closed, never pooled again;
 *  - an idle pooled connection the gateway closed (it closes sockets idle
 *    for hbase.thrift.server.socket.read.timeout, 60 s by default) is
 *    noticed before use and replaced: that is not a retry and never
 *    resends anything.  The check (a poll() of the socket) is skipped for
 *    an idempotent call on a connection that had a reply within the last
 *    RECENTLY_USED_US: should the gateway have closed it anyway, the
 *    request fails without a byte of reply, and is sent once more on
 *    another connection without counting as a retry (sending an
 *    idempotent call again is always allowed).  Non-idempotent calls are
 *    always checked, so they are never sent into a closed socket. */
#include "config.h"

#include <poll.h>

#include "hbase-client-async-private.h"
#include "hbase-client-settings.h"
#include "hbase-connection-private.h"
#include "hbase-transport.h"
#include "../core/hbase-error-private.h"

/* A pooled connection that had a reply this recently is not checked
 * before an idempotent call (see above): a point get or put then costs
 * sendto + poll + recvfrom, no liveness poll. */
#define RECENTLY_USED_US (1 * G_USEC_PER_SEC)

struct _HBaseClient {
  GObject parent;

  HBaseConfig *config;        /* the caller's settings, as given; never changed */
  HBaseClientSettings settings;   /* the same, read once: what calls use */

  GMutex lock;
  GCond available;
  guint waiters;          /* threads waiting on available: signalled only then */
  GQueue idle;            /* HBaseConnection *, most recently used first */
  guint open;             /* idle + in use */
  guint next_gateway;     /* where the next new connection starts looking */
  HBaseClientStats stats;
  HBaseKerberosQop negotiated_qop;   /* of the last SASL handshake; 0: none yet */
  GThreadPool *workers;   /* runs the _async calls; made on first use */
  gint pending;           /* _async calls waiting for a worker (atomic) */
  gpointer native;        /* the native backend's client; made on first use */
  GDestroyNotify native_free;
};

G_DEFINE_FINAL_TYPE (HBaseClient, hbase_client, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CONFIG,
  N_PROPS
};

static GParamSpec *client_props[N_PROPS];

static void
hbase_client_finalize (GObject *object)
{
  HBaseClient *client = HBASE_CLIENT (object);

  /* the last reference may go in one of the workers: do not wait for it */
  if (client->workers != NULL)
    g_thread_pool_free (client->workers, TRUE, FALSE);
  g_queue_clear_full (&client->idle, g_object_unref);
  if (client->native != NULL)
    client->native_free (client->native);
  _hbase_client_settings_clear (&client->settings);
  g_clear_pointer (&client->config, hbase_config_free);
  g_mutex_clear (&client->lock);
  g_cond_clear (&client->available);
  G_OBJECT_CLASS (hbase_client_parent_class)->finalize (object);
}

static void
hbase_client_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  HBaseClient *client = HBASE_CLIENT (object);

  switch (prop_id)
    {
    case PROP_CONFIG:
      /* construct-only: set once, before constructed() */
      g_clear_pointer (&client->config, hbase_config_free);
      client->config = g_value_dup_boxed (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
hbase_client_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  HBaseClient *client = HBASE_CLIENT (object);

  switch (prop_id)
    {
    case PROP_CONFIG:
      g_value_set_boxed (value, client->config);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Every client, however it was made (hbase_client_new(), g_object_new()
 * or a binding's default constructor), has settings: the config it was
 * given, or the defaults of hbase_config_new(). */
/* TLS settings with no https:// gateway to apply them to are most likely
 * gateways written with http:// by mistake: said once per client, as a
 * warning (not an error: the calls themselves are as configured). */
static void
warn_tls_unused (const HBaseClientSettings *settings)
{
  const HBaseTlsSettings *tls = &settings->tls;

  if (settings->backend != HBASE_BACKEND_THRIFT2 ||
      (tls->ca_file == NULL && tls->ca_path == NULL && tls->client_cert == NULL &&
       !tls->no_verify_hostname))
    return;
  for (guint i = 0; i < settings->n_gateways; i++)
    if (settings->gateways[i].url != NULL &&
        g_ascii_strncasecmp (settings->gateways[i].url, "https://", 8) == 0)
      return;
  g_warning ("TLS settings (tls-*) are set but no gateway is an https:// URL, so none of them "
             "applies and the traffic is not encrypted: write the gateways as https://HOST:PORT "
             "if they serve TLS");
}

static void
hbase_client_constructed (GObject *object)
{
  HBaseClient *client = HBASE_CLIENT (object);

  G_OBJECT_CLASS (hbase_client_parent_class)->constructed (object);
  if (client->config == NULL)
    client->config = hbase_config_new ();
  _hbase_client_settings_init (&client->settings, client->config);
  warn_tls_unused (&client->settings);
}

static void
hbase_client_class_init (HBaseClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = hbase_client_finalize;
  object_class->set_property = hbase_client_set_property;
  object_class->get_property = hbase_client_get_property;
  object_class->constructed = hbase_client_constructed;

  /**
   * HBaseClient:config:
   *
   * The settings of the client, copied when it is created and never changed
   * afterwards.  When not given (a bare g_object_new(), or `HBase.Client()`
   * in Python) the client uses the defaults of hbase_config_new(): one
   * gateway at localhost:9090, binary protocol, buffered transport.  The
   * environment is not read: hbase_client_get_default() is the client made
   * from `HBASE_GLIB_CONFIG` and the `HBASE_GLIB_*` variables.
   *
   * Since: 0.1
   */
  client_props[PROP_CONFIG] =
    g_param_spec_boxed ("config", NULL, NULL, HBASE_TYPE_CONFIG,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, client_props);
}

static void
hbase_client_init (HBaseClient *client)
{
  g_mutex_init (&client->lock);
  g_cond_init (&client->available);
  g_queue_init (&client->idle);
}

/**
 * hbase_client_new:
 * @config: (nullable): the settings, copied; %NULL for the defaults of
 *   hbase_config_new()
 *
 * Creates a client.  No connection is opened until the first call.  A
 * config's setters check every value, so any config makes a client: this
 * cannot fail.  The same as g_object_new() with the #HBaseClient:config
 * property.
 *
 * Returns: (transfer full): the client; release it with g_object_unref()
 *
 * Since: 0.1
 */
HBaseClient *
hbase_client_new (const HBaseConfig *config)
{
  return g_object_new (HBASE_TYPE_CLIENT, "config", config, NULL);
}

/**
 * hbase_client_get_config:
 * @client: a client
 *
 * Gets the settings @client was created with.  They belong to @client and do
 * not change.
 *
 * Returns: (transfer none): the client's settings
 *
 * Since: 0.1
 */
const HBaseConfig *
hbase_client_get_config (HBaseClient *client)
{
  g_return_val_if_fail (HBASE_IS_CLIENT (client), NULL);
  return client->config;
}

static HBaseClientStats *
client_stats_copy (const HBaseClientStats *stats)
{
  return g_memdup2 (stats, sizeof *stats);
}

G_DEFINE_BOXED_TYPE (HBaseClientStats, hbase_client_stats, client_stats_copy, g_free)

/**
 * hbase_client_get_stats:
 * @client: a client
 * @stats: (out caller-allocates): the counters
 *
 * Fills @stats with a snapshot of @client's counters and of its connection
 * pool.
 *
 * Since: 0.1
 */
void
hbase_client_get_stats (HBaseClient *client, HBaseClientStats *stats)
{
  g_return_if_fail (HBASE_IS_CLIENT (client) && stats != NULL);
  g_mutex_lock (&client->lock);
  *stats = client->stats;
  stats->idle = g_queue_get_length (&client->idle);
  stats->open = client->open;
  g_mutex_unlock (&client->lock);
}

/**
 * hbase_client_get_negotiated_qop:
 * @client: a client
 *
 * Gets the protection level that @client's most recent Kerberos (SASL)
 * handshake with a socket gateway agreed on: with the default
 * `kerberos-qop` of %HBASE_KERBEROS_QOP_ANY the gateway's configuration
 * decides it, and this says which one its connections got.  Each new
 * connection negotiates again; gateways configured alike give the same
 * answer.  The handshake also logs it (g_info(), log domain "hbase-glib").
 *
 * Returns: one of %HBASE_KERBEROS_QOP_AUTHENTICATION,
 *   %HBASE_KERBEROS_QOP_INTEGRITY and %HBASE_KERBEROS_QOP_PRIVACY, or 0
 *   when no handshake has happened yet (no connection opened, Kerberos
 *   off, or gateways in HTTP mode, which authenticate with SPNEGO and rely
 *   on TLS for protection).
 *
 * Since: 0.2
 */
HBaseKerberosQop
hbase_client_get_negotiated_qop (HBaseClient *client)
{
  HBaseKerberosQop qop;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), 0);
  g_mutex_lock (&client->lock);
  qop = client->negotiated_qop;
  g_mutex_unlock (&client->lock);
  return qop;
}

GThreadPool *
_hbase_client_get_workers (HBaseClient *client, GFunc func)
{
  GThreadPool *workers;

  g_mutex_lock (&client->lock);
  if (client->workers == NULL)
    client->workers = g_thread_pool_new (func, NULL, (gint) MAX (client->settings.pool_size, 2u),
                                         FALSE, NULL);
  workers = client->workers;
  g_mutex_unlock (&client->lock);
  return workers;
}

guint
_hbase_client_get_operation_timeout_ms (HBaseClient *client)
{
  return client->settings.operation_timeout_ms;
}

gint *
_hbase_client_get_pending (HBaseClient *client, guint *max_pending)
{
  *max_pending = client->settings.max_pending;
  return &client->pending;
}

/* --- the pool ----------------------------------------------------------- */

/* Opens a connection to the first gateway that answers, starting with the
 * next one in turn, so new connections spread over the gateways; or to
 * @gateway alone unless it is HBASE_ANY_GATEWAY. */
static HBaseConnection *
open_connection (HBaseClient *client, guint gateway, gint64 deadline, GCancellable *cancellable,
                 GError **error)
{
  const HBaseClientSettings *settings = &client->settings;
  guint n = settings->n_gateways;
  guint first = gateway != HBASE_ANY_GATEWAY ? gateway
                                             : (guint) g_atomic_int_add (&client->next_gateway, 1);

  if (gateway != HBASE_ANY_GATEWAY)
    n = MIN (n, 1u);
  g_autoptr(GString) reasons = g_string_new (NULL);
  gboolean timed_out = FALSE, permanent = TRUE;

  for (guint i = 0; i < n; i++)
    {
      /* pinned: that gateway alone (n is 1 then, so (first + i) % n would
       * always name the first gateway of the list) */
      guint index = gateway != HBASE_ANY_GATEWAY ? gateway : (first + i) % n;
      g_autoptr(GError) local = NULL;
      HBaseConnection *connection =
        _hbase_connection_open_full (settings->gateways[index].host,
                                     settings->gateways[index].port,
                                     settings->gateways[index].url,
                                     &settings->tls,
                                     settings->kerberos.enabled ? &settings->kerberos : NULL,
                                     settings->protocol,
                                     settings->transport,
                                     settings->connect_timeout_ms,
                                     settings->max_message_size,
                                     deadline, cancellable, &local);
      if (connection != NULL)
        {
          guint qop = _hbase_socket_transport_get_qop (_hbase_connection_get_transport (connection));

          _hbase_connection_set_gateway (connection, index);
          g_mutex_lock (&client->lock);
          client->stats.connections_opened++;
          if (qop != 0)
            client->negotiated_qop = (HBaseKerberosQop) qop;
          g_mutex_unlock (&client->lock);
          return connection;
        }
      /* cancelled, a configuration no gateway can serve (compact over
       * HTTP), or credentials no gateway will take */
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          g_error_matches (local, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT) ||
          g_error_matches (local, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      timed_out = g_error_matches (local, HBASE_ERROR, HBASE_ERROR_TIMEOUT);
      permanent = permanent && _hbase_error_is_permanent (local);
      g_string_append_printf (reasons, "%s%s", reasons->len > 0 ? "; " : "", local->message);
      if (deadline != 0 && g_get_monotonic_time () >= deadline)
        break;
    }
  g_set_error (error, HBASE_ERROR, timed_out ? HBASE_ERROR_TIMEOUT : HBASE_ERROR_CONNECTION,
               "no Thrift2 gateway reachable: %s", reasons->str);
  if (permanent && error != NULL)
    _hbase_error_set_permanent (*error);
  return NULL;
}

/* Whether a pooled connection must be checked before use: always for a
 * call that may not be sent twice, else unless it had a reply very
 * recently and nothing is left in its buffers (which the check would
 * refuse: bytes nobody asked for put the stream out of step). */
static gboolean
needs_check (HBaseConnection *connection, gboolean may_resend)
{
  HBaseSocketTransport *transport = _hbase_connection_get_transport (connection);
  gint64 last;

  if (!may_resend)
    return TRUE;
  last = _hbase_socket_transport_get_last_reply_time (transport);
  return last == 0 || g_get_monotonic_time () - last >= RECENTLY_USED_US ||
         !_hbase_socket_transport_is_idle (transport);
}

static void
wake_waiter (HBaseClient *client)
{
  /* g_cond_signal() is a futex syscall even when nobody waits */
  if (client->waiters > 0)
    g_cond_signal (&client->available);
}

/* Takes a connection from the pool, opens one while the pool is not full,
 * or waits for one (at most the pool wait and the deadline).  @unchecked:
 * set when the connection came from the pool without a liveness check
 * (only when @may_resend). */
static gint
other_gateway (gconstpointer connection, gconstpointer gateway)
{
  return _hbase_connection_get_gateway ((HBaseConnection *) connection) != *(const guint *) gateway;
}

/* The idle connection to use: the most recently used one, or the most
 * recently used one to @gateway. */
static HBaseConnection *
pop_idle (HBaseClient *client, guint gateway)
{
  GList *link;
  HBaseConnection *connection;

  if (gateway == HBASE_ANY_GATEWAY)
    return g_queue_pop_head (&client->idle);
  for (link = client->idle.head; link != NULL; link = link->next)
    if (!other_gateway (link->data, &gateway))
      break;
  if (link == NULL)
    return NULL;
  connection = link->data;
  g_queue_delete_link (&client->idle, link);
  return connection;
}

static HBaseConnection *
acquire (HBaseClient *client, guint gateway, gint64 deadline, gboolean may_resend,
         gboolean *unchecked, GCancellable *cancellable, GError **error)
{
  gint64 wait_until = g_get_monotonic_time () + (gint64) client->settings.pool_wait_ms * 1000;
  HBaseConnection *connection;

  if (deadline != 0 && deadline < wait_until)
    wait_until = deadline;

  *unchecked = FALSE;
  g_mutex_lock (&client->lock);
  for (;;)
    {
      connection = pop_idle (client, gateway);
      if (connection != NULL)
        {
          g_mutex_unlock (&client->lock);
          if (!needs_check (connection, may_resend))
            {
              *unchecked = TRUE;
              return connection;
            }
          if (_hbase_socket_transport_is_alive (_hbase_connection_get_transport (connection)))
            return connection;
          /* the gateway closed it while it idled: replace it, sending nothing */
          g_object_unref (connection);
          connection = open_connection (client, gateway, deadline, cancellable, error);
          g_mutex_lock (&client->lock);
          if (connection != NULL)
            client->stats.connections_reopened++;
          break;
        }
      if (client->open < client->settings.pool_size)
        {
          client->open++;
          g_mutex_unlock (&client->lock);
          connection = open_connection (client, gateway, deadline, cancellable, error);
          g_mutex_lock (&client->lock);
          break;
        }
      if (gateway != HBASE_ANY_GATEWAY && client->idle.length > 0)
        {
          /* the pool is full of connections to other gateways: one of the
           * idle ones makes room for this gateway's */
          HBaseConnection *evicted = g_queue_pop_tail (&client->idle);

          g_mutex_unlock (&client->lock);
          g_clear_object (&evicted);
          connection = open_connection (client, gateway, deadline, cancellable, error);
          g_mutex_lock (&client->lock);
          break;
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          g_mutex_unlock (&client->lock);
          return NULL;
        }
      if (g_get_monotonic_time () >= wait_until)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                       "all %u pooled connections stayed busy for %u ms",
                       client->open, client->settings.pool_wait_ms);
          g_mutex_unlock (&client->lock);
          return NULL;
        }
      /* short slices, so a cancellation is noticed while waiting */
      client->waiters++;
      g_cond_wait_until (&client->available, &client->lock,
                         MIN (wait_until, g_get_monotonic_time () + 50 * G_TIME_SPAN_MILLISECOND));
      client->waiters--;
    }
  if (connection == NULL)
    {
      client->open--;
      wake_waiter (client);
    }
  g_mutex_unlock (&client->lock);
  return connection;
}

static void
release (HBaseClient *client, HBaseConnection *connection, gboolean broken)
{
  g_mutex_lock (&client->lock);
  if (broken)
    {
      client->open--;
      client->stats.connections_discarded++;
    }
  else
    g_queue_push_head (&client->idle, connection);
  wake_waiter (client);
  g_mutex_unlock (&client->lock);
  if (broken)
    g_object_unref (connection);
}

/* --- calls and retries ------------------------------------------------------ */

/* Whether a failure leaves the connection's stream in an unknown state. */
static gboolean
leaves_connection_broken (const GError *error)
{
  return g_error_matches (error, HBASE_ERROR, HBASE_ERROR_CONNECTION) ||
         g_error_matches (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT) ||
         g_error_matches (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
         error->domain != HBASE_ERROR;
}

static gboolean
may_retry (const GError *error, HBaseCallFlags flags, gboolean request_sent)
{
  if (_hbase_error_is_permanent (error))
    return FALSE;
  if (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_CONNECTION))
    return !request_sent || (flags & HBASE_CALL_IDEMPOTENT);
  if (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_IO))
    return (flags & HBASE_CALL_IDEMPOTENT) && hbase_error_get_can_retry (error);
  return FALSE;
}

/* Whether an attempt that failed with @error may have been applied:
 * its request left this process (@sent) and no definitive answer came. */
static gboolean
attempt_in_doubt (const GError *error, gboolean sent)
{
  if (!sent)
    return FALSE;
  if (error->domain != HBASE_ERROR)
    return TRUE;   /* cancelled while waiting for the reply */
  switch (error->code)
    {
    case HBASE_ERROR_CONNECTION:
    case HBASE_ERROR_TIMEOUT:
    case HBASE_ERROR_PROTOCOL:
      return TRUE;
    case HBASE_ERROR_IO:
    case HBASE_ERROR_NOT_FOUND:   /* a batch of which some actions met a missing family */
      return hbase_error_is_in_doubt (error);
    default:
      return FALSE;   /* the gateway answered that it refused the call */
    }
}

/* The error of the whole call: the last attempt's, naming the number of
 * attempts, and the attempt that may have been applied if there was one. */
static void
finish_error (GError **error, GError *last, guint attempts, guint doubt_attempt,
              const char *doubt_message)
{
  if (doubt_attempt != 0 && last->domain == HBASE_ERROR)
    {
      char *message;

      _hbase_error_set_in_doubt (last, TRUE);
      if (doubt_attempt == attempts)
        message = g_strdup_printf ("%s (the request had been sent: it may have been applied)",
                                   last->message);
      else if (g_strcmp0 (doubt_message, last->message) == 0)
        message = g_strdup_printf ("%s (attempt %u had sent its request: it may have been "
                                   "applied)", last->message, doubt_attempt);
      else
        message = g_strdup_printf ("%s; attempt %u had sent its request and may have been "
                                   "applied: %s", last->message, doubt_attempt, doubt_message);
      g_free (last->message);
      last->message = message;
    }
  if (attempts > 1)
    g_prefix_error (&last, "after %u attempts: ", attempts);
  g_propagate_error (error, last);
}

/* Sleeps the backoff before attempt @attempt + 1; FALSE (with @error set
 * if cancelled) when it would pass the deadline or was cancelled. */
static gboolean
back_off (HBaseClient *client, guint attempt, gint64 deadline, GCancellable *cancellable,
          GError **error)
{
  guint64 first = client->settings.retry_backoff_ms;
  guint64 longest = client->settings.retry_backoff_max_ms;
  guint64 delay = first << MIN (attempt - 1, 20u);
  gint64 wake;

  delay = MIN (delay, longest);
  delay = delay / 2 + (guint64) g_random_int_range (0, (gint32) (delay / 2) + 1);
  wake = g_get_monotonic_time () + (gint64) delay * 1000;
  if (wake >= deadline)
    return FALSE;
  for (;;)
    {
      GPollFD pfd = { .fd = -1 };
      gint64 left = wake - g_get_monotonic_time ();
      gboolean have_fd = cancellable != NULL && g_cancellable_make_pollfd (cancellable, &pfd);

      if (left <= 0)
        {
          if (have_fd)
            g_cancellable_release_fd (cancellable);
          return TRUE;
        }
      pfd.events = G_IO_IN;
      g_poll (&pfd, have_fd ? 1 : 0, (gint) ((left + 999) / 1000));
      if (have_fd)
        g_cancellable_release_fd (cancellable);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
    }
}

HBaseBackend
_hbase_client_get_backend (HBaseClient *client)
{
  return client->settings.backend;
}

gpointer
_hbase_client_get_native (HBaseClient *client, gpointer (*make) (const HBaseConfig *config),
                          GDestroyNotify free_func)
{
  gpointer native;

  if (client->settings.backend != HBASE_BACKEND_NATIVE)
    return NULL;
  g_mutex_lock (&client->lock);
  if (client->native == NULL)
    {
      client->native = make (client->config);
      client->native_free = free_func;
    }
  native = client->native;
  g_mutex_unlock (&client->lock);
  return native;
}

/**
 * hbase_client_call:
 * @client: a client
 * @flags: whether the call may be repeated (see #HBaseCallFlags)
 * @func: (scope call): one attempt of the call
 * @user_data: data for @func
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Runs @func on a pooled connection within the operation timeout,
 * retrying it as the rules at the top of hbase-client.c (and the README)
 * say.  Reads and writes of the attempt are bounded by the deadline and
 * interrupted by @cancellable.
 *
 * Returns: %TRUE if an attempt succeeded; otherwise the last attempt's
 *   error.
 *
 * Since: 0.1
 */
gboolean
hbase_client_call (HBaseClient     *client,
                   HBaseCallFlags   flags,
                   HBaseCallFunc    func,
                   gpointer         user_data,
                   GCancellable    *cancellable,
                   GError         **error)
{
  return _hbase_client_call_on (client, flags, NULL, func, user_data, cancellable, error);
}

gboolean
_hbase_client_call_on (HBaseClient     *client,
                       HBaseCallFlags   flags,
                       guint           *gateway,
                       HBaseCallFunc    func,
                       gpointer         user_data,
                       GCancellable    *cancellable,
                       GError         **error)
{
  guint pinned = gateway != NULL ? *gateway : HBASE_ANY_GATEWAY;
  gint64 deadline;
  guint max_attempts;
  gboolean stale_resent = FALSE;
  guint doubt_attempt = 0;   /* the first attempt that may have been applied */
  g_autofree char *doubt_message = NULL;

  if (!HBASE_IS_CLIENT (client) || func == NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "hbase_client_call needs a client and a function");
      return FALSE;
    }
  if (G_UNLIKELY (client->settings.backend != HBASE_BACKEND_THRIFT2))
    {
      /* a native client has no gateway: nothing may go to the default one */
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_NOT_SUPPORTED,
                           "this operation needs the Thrift2 gateway, and the client uses the "
                           "native backend (bootstrap servers are set), which does not support "
                           "it yet: use a client with gateways for it");
      return FALSE;
    }
  /* the first call of an _async job counts from the _async call */
  deadline = _hbase_client_take_call_start ();
  if (deadline == 0)
    deadline = g_get_monotonic_time ();
  deadline += (gint64) client->settings.operation_timeout_ms * 1000;
  max_attempts = (flags & _HBASE_CALL_ONCE) ? 1 : client->settings.max_attempts;

  for (guint attempt = 1;; attempt++)
    {
      g_autoptr(GError) local = NULL;
      HBaseConnection *connection;
      gboolean sent = FALSE, unchecked = FALSE;

      /* a pooled connection sends without waiting, so the transport
       * would not notice a cancellation that came before the call */
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      connection = acquire (client, pinned, deadline, (flags & HBASE_CALL_IDEMPOTENT) && !stale_resent,
                            &unchecked, cancellable, &local);

      if (connection != NULL)
        {
          HBaseSocketTransport *transport = _hbase_connection_get_transport (connection);
          guint64 sent_before = _hbase_socket_transport_get_bytes_sent (transport);
          guint64 received_before = _hbase_socket_transport_get_bytes_received (transport);
          gboolean ok;

          _hbase_socket_transport_set_deadline (transport, deadline);
          _hbase_socket_transport_set_cancellable (transport, cancellable);
          if (gateway != NULL)
            *gateway = _hbase_connection_get_gateway (connection);
          ok = func (hbase_connection_get_service (connection), user_data, &local);
          _hbase_socket_transport_set_cancellable (transport, NULL);
          _hbase_socket_transport_set_deadline (transport, 0);
          if (ok)
            {
              release (client, connection, FALSE);
              return TRUE;
            }
          if (local == NULL)
            g_set_error_literal (&local, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                                 "the call failed without saying why");
          sent = _hbase_socket_transport_get_bytes_sent (transport) != sent_before;
          if (doubt_attempt == 0 && !(flags & HBASE_CALL_READ_ONLY) && attempt_in_doubt (local, sent))
            {
              doubt_attempt = attempt;
              doubt_message = g_strdup (local->message);
            }
          if (unchecked && g_error_matches (local, HBASE_ERROR, HBASE_ERROR_CONNECTION) &&
              _hbase_socket_transport_get_bytes_received (transport) == received_before)
            {
              /* a recently used connection the gateway had closed (the
               * check skipped): replace it and send the idempotent call
               * again, once, as if the check had caught it */
              g_mutex_lock (&client->lock);
              client->open--;
              client->stats.connections_reopened++;
              wake_waiter (client);
              g_mutex_unlock (&client->lock);
              g_object_unref (connection);
              stale_resent = TRUE;
              attempt--;
              continue;
            }
          release (client, connection, leaves_connection_broken (local));
        }

      /* a gateway the call is bound to that cannot be reached is not
       * waited for: what it held (a scanner) is likely gone with it, and
       * the caller can start over on another gateway at once */
      if (attempt >= max_attempts || (connection == NULL && pinned != HBASE_ANY_GATEWAY) ||
          !may_retry (local, flags, sent) ||
          !back_off (client, attempt, deadline, cancellable, error))
        {
          if (error != NULL && *error != NULL)
            return FALSE;   /* cancelled while backing off */
          finish_error (error, g_steal_pointer (&local), attempt, doubt_attempt, doubt_message);
          return FALSE;
        }
      g_mutex_lock (&client->lock);
      client->stats.retries++;
      g_mutex_unlock (&client->lock);
    }
}

/* --- async plumbing ----------------------------------------------------------- */

typedef struct {
  HBaseCallFlags flags;
  HBaseCallFunc func;
  gpointer user_data;
  GDestroyNotify user_data_free;
} CallData;

static void
call_data_free (gpointer data)
{
  CallData *call = data;

  if (call->user_data_free != NULL)
    call->user_data_free (call->user_data);
  g_free (call);
}

static void
call_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  CallData *call = task_data;
  GError *error = NULL;

  if (hbase_client_call (source, call->flags, call->func, call->user_data, cancellable, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/**
 * hbase_client_call_async:
 * @client: a client
 * @flags: whether the call may be repeated
 * @func: (scope notified): one attempt of the call; runs in a worker thread
 * @user_data: data for @func
 * @user_data_free: (nullable): frees @user_data when the call is over
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the thread-default main context of the caller
 * @callback_data: data for @callback
 *
 * hbase_client_call() in one of @client's worker threads (as many as
 * its connection pool holds).  The operation timeout counts from this
 * call: a call still waiting for a worker when it passes, or when
 * @cancellable is cancelled, completes at once.  A cancelled call returns
 * promptly and its connection is closed, not pooled.
 *
 * Since: 0.1
 */
void
hbase_client_call_async (HBaseClient          *client,
                         HBaseCallFlags        flags,
                         HBaseCallFunc         func,
                         gpointer              user_data,
                         GDestroyNotify        user_data_free,
                         GCancellable         *cancellable,
                         GAsyncReadyCallback   callback,
                         gpointer              callback_data)
{
  g_autoptr(GTask) task = NULL;
  CallData *call;

  g_return_if_fail (HBASE_IS_CLIENT (client));
  task = g_task_new (client, cancellable, callback, callback_data);
  g_task_set_source_tag (task, hbase_client_call_async);
  call = g_new0 (CallData, 1);
  call->flags = flags;
  call->func = func;
  call->user_data = user_data;
  call->user_data_free = user_data_free;
  g_task_set_task_data (task, call, call_data_free);
  _hbase_client_run_task (client, task, call_in_thread);
}

/**
 * hbase_client_call_finish:
 * @client: a client
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Finishes hbase_client_call_async().
 *
 * Returns: %TRUE if the call succeeded
 *
 * Since: 0.1
 */
gboolean
hbase_client_call_finish (HBaseClient *client, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* --- the default client ------------------------------------------------------------ */

G_LOCK_DEFINE_STATIC (default_client);
static HBaseClient *default_client;

/**
 * hbase_client_get_default:
 * @error: return location for an error
 *
 * The process-wide client, created on first use from the key file named
 * by `HBASE_GLIB_CONFIG` and the `HBASE_GLIB_*` environment variables
 * (see #HBaseConfig).  Safe to call from any thread; every caller shares
 * one pool.  When the settings are invalid, each call reports why.
 *
 * Returns: (transfer full) (nullable): a reference to the default client
 *
 * Since: 0.1
 */
HBaseClient *
hbase_client_get_default (GError **error)
{
  HBaseClient *client = NULL;

  G_LOCK (default_client);
  if (default_client == NULL)
    {
      g_autoptr(HBaseConfig) config = hbase_config_new_from_environment (error);

      if (config != NULL)
        default_client = hbase_client_new (config);
    }
  if (default_client != NULL)
    client = g_object_ref (default_client);
  G_UNLOCK (default_client);
  return client;
}

/**
 * hbase_client_release_default:
 *
 * Drops the process's reference to the default client (for example at
 * exit, so leak checkers stay quiet).  Holders of references keep a working
 * client; the next hbase_client_get_default() creates a new one.
 *
 * Since: 0.1
 */
void
hbase_client_release_default (void)
{
  HBaseClient *client;

  G_LOCK (default_client);
  client = g_steal_pointer (&default_client);
  G_UNLOCK (default_client);
  g_clear_object (&client);
}
