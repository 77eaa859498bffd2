/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-redis.c: the index's Redis connections: a bounded pool of
 * hiredis contexts (a context is not thread-safe: one user at a time),
 * connect and read/write timeouts, AUTH (an ACL user or the legacy
 * password of the default user, sent again on every new connection, the
 * password never put in a message) and SELECT, fast failure for a
 * while after Redis could not be reached, and command batches sent as one
 * pipeline.  The index script is run with EVALSHA, and sent again with
 * EVAL on NOSCRIPT (a restarted or flushed Redis). */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "hbase-index-private.h"

struct _IndexRedisPool {
  char *host;
  guint port;
  char *socket_path;
  char *username;         /* NULL: the legacy AUTH password */
  char *password;         /* NULL: no AUTH */
  guint db;
  guint connect_timeout_ms;
  guint timeout_ms;
  guint retry_interval_ms;

  GMutex lock;
  GCond cond;
  GQueue idle;            /* redisContext */
  guint open;
  guint max;
  gint64 down_until;      /* monotonic µs: fail fast until then */
  char *down_reason;
  int down_code;          /* the HBaseIndexError of down_reason */
  char *run_id;           /* of the Redis process last connected to */
  gint64 clock_offset_ms; /* Redis's clock minus ours, at the last connect */
};

gboolean
_hbase_index_error_is_auth (const GError *error)
{
  return error != NULL && error->domain == HBASE_INDEX_ERROR &&
         (error->code == HBASE_INDEX_ERROR_AUTH_FAILED || error->code == HBASE_INDEX_ERROR_AUTH_NOT_ENABLED ||
          error->code == HBASE_INDEX_ERROR_AUTH_REQUIRED);
}

void
_hbase_index_free_secret (char *secret)
{
  if (secret == NULL)
    return;
  explicit_bzero (secret, strlen (secret));
  g_free (secret);
}

IndexRedisPool *
_hbase_index_pool_new (const HBaseIndexOptions *options, GError **error)
{
  IndexRedisPool *pool;
  char *password = NULL;

  if (options->redis_password != NULL && options->redis_password_file != NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "set either the Redis password or the Redis password file, not both");
      return NULL;
    }
  if (options->redis_password_file != NULL)
    {
      password = _hbase_index_read_password_file (options->redis_password_file, error);
      if (password == NULL)
        return NULL;
    }
  else
    password = g_strdup (options->redis_password);
  if (options->redis_username != NULL && password == NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "the Redis user \"%s\" needs a password (a password or a password file)",
                   options->redis_username);
      return NULL;
    }

  pool = g_new0 (IndexRedisPool, 1);
  pool->host = g_strdup (options->redis_host != NULL ? options->redis_host : "127.0.0.1");
  pool->port = options->redis_port != 0 ? options->redis_port : 6379;
  pool->socket_path = g_strdup (options->redis_socket);
  pool->username = g_strdup (options->redis_username);
  pool->password = password;
  pool->db = options->redis_db;
  pool->connect_timeout_ms = options->connect_timeout_ms != 0 ? options->connect_timeout_ms : 2000;
  pool->timeout_ms = options->timeout_ms != 0 ? options->timeout_ms : 5000;
  pool->retry_interval_ms = options->retry_interval_ms != 0 ? options->retry_interval_ms : 1000;
  pool->max = options->pool_size != 0 ? options->pool_size : 8;
  g_mutex_init (&pool->lock);
  g_cond_init (&pool->cond);
  g_queue_init (&pool->idle);
  return pool;
}

void
_hbase_index_pool_free (IndexRedisPool *pool)
{
  redisContext *context;

  if (pool == NULL)
    return;
  while ((context = g_queue_pop_head (&pool->idle)) != NULL)
    redisFree (context);
  g_mutex_clear (&pool->lock);
  g_cond_clear (&pool->cond);
  g_free (pool->host);
  g_free (pool->socket_path);
  g_free (pool->username);
  _hbase_index_free_secret (pool->password);
  g_free (pool->down_reason);
  g_free (pool->run_id);
  g_free (pool);
}

static redisContext *acquire (IndexRedisPool *pool, GError **error);
static void release (IndexRedisPool *pool, redisContext *context, gboolean reusable);

/* The run_id of the Redis server, learnt on connecting: when no connection
 * was made yet, one is made first, so that a later connection to the same
 * server is not taken for a restart.  NULL when Redis cannot be reached. */
char *
_hbase_index_pool_run_id (IndexRedisPool *pool)
{
  char *run_id;
  gboolean known;

  g_mutex_lock (&pool->lock);
  known = pool->run_id != NULL;
  g_mutex_unlock (&pool->lock);
  if (!known)
    {
      redisContext *context = acquire (pool, NULL);

      if (context != NULL)
        release (pool, context, TRUE);
    }

  g_mutex_lock (&pool->lock);
  run_id = g_strdup (pool->run_id);
  g_mutex_unlock (&pool->lock);
  return run_id;
}

gint64
_hbase_index_pool_redis_now_ms (IndexRedisPool *pool)
{
  gint64 offset;

  g_mutex_lock (&pool->lock);
  offset = pool->clock_offset_ms;
  g_mutex_unlock (&pool->lock);
  return g_get_real_time () / 1000 + offset;
}

/* How far Redis's clock is from ours: leases are in Redis time.  FALSE
 * with @error when TIME got no reply (*@no_reply set: the context is
 * unusable) or a reply that is not a time. */
static gboolean
learn_clock (IndexRedisPool *pool, redisContext *context, gboolean *no_reply, GError **error)
{
  gint64 before = g_get_real_time (), after;
  g_autoptr(redisReply) reply = redisCommand (context, "TIME");
  gint64 redis_ms;

  after = g_get_real_time ();
  if (reply == NULL)
    {
      *no_reply = TRUE;
      return FALSE;
    }
  if (!_hbase_index_reply_time (reply, &redis_ms, error))
    return FALSE;
  g_mutex_lock (&pool->lock);
  pool->clock_offset_ms = redis_ms - (before + after) / 2000;
  g_mutex_unlock (&pool->lock);
  return TRUE;
}

/* The run_id of the server behind a new connection: it changes when Redis
 * restarts, which may have lost the last writes.  FALSE when the command
 * got no reply (*@no_reply set: the context is then unusable) or a reply
 * of another shape than INFO's (@error). */
static gboolean
learn_run_id (IndexRedisPool *pool, redisContext *context, char **noauth, gboolean *no_reply,
              GError **error)
{
  g_autoptr(redisReply) reply = redisCommand (context, "INFO server");
  char *run_id = NULL;

  if (reply == NULL)
    {
      *no_reply = TRUE;
      return FALSE;
    }
  /* the first command after connecting: a Redis that wants AUTH says so */
  if (!_hbase_index_parse_info (reply, &run_id, noauth, error))
    return FALSE;
  if (run_id != NULL)
    {
      g_mutex_lock (&pool->lock);
      g_free (pool->run_id);
      pool->run_id = run_id;
      g_mutex_unlock (&pool->lock);
    }
  return TRUE;
}

static struct timeval
timeval_of (guint ms)
{
  struct timeval tv = { (time_t) (ms / 1000), (suseconds_t) ((ms % 1000) * 1000) };

  return tv;
}

static char *
where (IndexRedisPool *pool)
{
  if (pool->socket_path != NULL)
    return g_strdup (pool->socket_path);
  return g_strdup_printf ("%s:%u", pool->host, pool->port);
}

/* Why a command on @context got no reply.  hiredis reports a read or
 * write that ran past the socket timeout as EAGAIN ("Resource temporarily
 * unavailable"): say that it timed out. */
static char *
io_failure (IndexRedisPool *pool, redisContext *context)
{
  /* the reader's limits refuse an array header announcing more elements
   * than HBASE_INDEX_REPLY_MAX_ELEMENTS as if out of memory */
  if (context->err == REDIS_ERR_OOM)
    return g_strdup_printf ("a reply could not be read (an array of more than %u elements, "
                            "or out of memory)", HBASE_INDEX_REPLY_MAX_ELEMENTS);
  if (context->err == REDIS_ERR_IO &&
      (strcmp (context->errstr, strerror (EAGAIN)) == 0 ||
       strcmp (context->errstr, strerror (EWOULDBLOCK)) == 0))
    return g_strdup_printf ("timed out (no answer within %u ms)", pool->timeout_ms);
  return g_strdup (context->errstr[0] != '\0' ? context->errstr : "connection failed");
}

/* A command on a fresh connection, during set-up: its reply is checked. */
static gboolean
setup_command (IndexRedisPool *pool, redisContext *context, GError **error, const char *what,
               int argc, const char **argv)
{
  g_autoptr(redisReply) reply = redisCommandArgv (context, argc, argv, NULL);

  if (reply == NULL)
    {
      g_autofree char *why = io_failure (pool, context);

      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS, "Redis %s failed: %s",
                   what, why);
      return FALSE;
    }
  return _hbase_index_reply_status_ok (reply, what, error);
}

/* @text with every occurrence of @secret replaced: a server's message is
 * quoted in errors, and a proxy or an old server could echo arguments. */
static char *
redact (const char *text, const char *secret)
{
  GString *out;
  const char *at;
  gsize n = strlen (secret);

  if (n == 0 || strstr (text, secret) == NULL)
    return g_strdup (text);
  out = g_string_new (NULL);
  while ((at = strstr (text, secret)) != NULL)
    {
      g_string_append_len (out, text, at - text);
      g_string_append (out, "(password)");
      text = at + n;
    }
  g_string_append (out, text);
  return g_string_free (out, FALSE);
}

/* AUTH user password (Redis 6+ ACL), or the legacy AUTH password, as
 * binary-safe arguments.  Redis's refusal becomes an error of its own
 * code, with Redis's words (the password is never part of them). */
static gboolean
authenticate (IndexRedisPool *pool, redisContext *context, const char *address, GError **error)
{
  const char *argv[3] = { "AUTH", NULL, NULL };
  size_t argvlen[3] = { 4, 0, 0 };
  int argc = 1;
  g_autoptr(redisReply) reply = NULL;
  g_autofree char *said = NULL;
  const char *text;
  const char *user = pool->username != NULL ? pool->username : "default";

  if (pool->username != NULL)
    {
      argv[argc] = pool->username;
      argvlen[argc++] = strlen (pool->username);
    }
  argv[argc] = pool->password;
  argvlen[argc++] = strlen (pool->password);
  reply = redisCommandArgv (context, argc, argv, argvlen);
  if (reply == NULL)
    {
      g_autofree char *why = io_failure (pool, context);

      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "Redis AUTH at %s failed: %s", address, why);
      return FALSE;
    }
  if (reply->type != REDIS_REPLY_ERROR)
    return _hbase_index_reply_status_ok (reply, "AUTH", error);
  /* classified by Redis's own words, quoted with the password masked */
  text = reply->str != NULL ? reply->str : "";
  {
    g_autofree char *redacted = redact (text, pool->password);

    said = _hbase_index_sanitise (redacted, strlen (redacted));
  }
  if (g_str_has_prefix (text, "WRONGPASS"))
    g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_FAILED,
                 "Redis at %s refused the credentials of user \"%s\": %s", address, user, said);
  else if (strstr (text, "without any password configured") != NULL ||
           strstr (text, "no password is set") != NULL)
    g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_NOT_ENABLED,
                 "a Redis password was given but Redis at %s has none configured for its default "
                 "user: %s", address, said);
  else if (pool->username != NULL && strstr (text, "wrong number of arguments") != NULL)
    g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_FAILED,
                 "Redis at %s has no ACL users (Redis 6.0 or later is needed for user \"%s\"): %s",
                 address, user, said);
  else if (g_str_has_prefix (text, "ERR invalid password"))
    /* Redis 5 and older: a wrong requirepass */
    g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_FAILED,
                 "Redis at %s refused the password: %s", address, said);
  else
    g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                 "Redis AUTH at %s failed: %s", address, said);
  return FALSE;
}

static redisContext *
connect_one (IndexRedisPool *pool, GError **error)
{
  struct timeval connect_timeout = timeval_of (pool->connect_timeout_ms);
  redisContext *context;
  g_autofree char *address = where (pool);
  g_autofree char *noauth = NULL;
  gboolean no_reply = FALSE;
  GError *local = NULL;

  if (pool->socket_path != NULL)
    context = redisConnectUnixWithTimeout (pool->socket_path, connect_timeout);
  else
    context = redisConnectWithTimeout (pool->host, (int) pool->port, connect_timeout);
  if (context == NULL || context->err != 0)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "cannot connect to Redis at %s: %s", address,
                   context != NULL ? context->errstr : "out of memory");
      if (context != NULL)
        redisFree (context);
      return NULL;
    }
  if (redisSetTimeout (context, timeval_of (pool->timeout_ms)) != REDIS_OK)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "cannot set the Redis timeout on %s: %s", address, context->errstr);
      redisFree (context);
      return NULL;
    }
  redisEnableKeepAlive (context);
  _hbase_index_reader_limit (context->reader);
  if (pool->password != NULL && !authenticate (pool, context, address, error))
    {
      redisFree (context);
      return NULL;
    }
  if (pool->db != 0)
    {
      g_autofree char *db = g_strdup_printf ("%u", pool->db);
      const char *argv[] = { "SELECT", db };

      if (!setup_command (pool, context, error, "SELECT", 2, argv))
        {
          redisFree (context);
          return NULL;
        }
    }
  /* a connection whose set-up got no answer is not used: its run_id and
   * clock would be unknown, and the stream is out of step */
  if (!learn_run_id (pool, context, &noauth, &no_reply, &local) ||
      (noauth == NULL && !learn_clock (pool, context, &no_reply, &local)))
    {
      if (no_reply)
        {
          g_autofree char *why = io_failure (pool, context);

          g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                       "setting up a connection to Redis at %s failed: %s", address, why);
        }
      else
        g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                    "setting up a connection to Redis at %s failed: ", address);
      redisFree (context);
      return NULL;
    }
  if (noauth != NULL)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_REQUIRED,
                   "Redis at %s requires authentication and no password was given (%s)",
                   address, noauth);
      redisFree (context);
      return NULL;
    }
  return context;
}

/* An idle connection Redis closed (restart, timeout) is readable at EOF:
 * Redis sends nothing unasked outside pub/sub. */
static gboolean
still_open (redisContext *context)
{
  struct pollfd fd = { context->fd, POLLIN | POLLRDHUP, 0 };

  return context->err == 0 && poll (&fd, 1, 0) == 0;
}

static redisContext *
acquire (IndexRedisPool *pool, GError **error)
{
  redisContext *context = NULL;
  GError *local = NULL;

  g_mutex_lock (&pool->lock);
  for (;;)
    {
      while ((context = g_queue_pop_head (&pool->idle)) != NULL)
        {
          if (still_open (context))
            break;
          redisFree (context);
          pool->open--;
        }
      if (context != NULL || pool->open < pool->max)
        break;
      g_cond_wait (&pool->cond, &pool->lock);
    }
  if (context != NULL)
    {
      g_mutex_unlock (&pool->lock);
      return context;
    }
  if (g_get_monotonic_time () < pool->down_until)
    {
      g_set_error (error, HBASE_INDEX_ERROR, pool->down_code, "%s (not retried for %u ms)",
                   pool->down_reason, pool->retry_interval_ms);
      g_mutex_unlock (&pool->lock);
      return NULL;
    }
  pool->open++;
  g_mutex_unlock (&pool->lock);

  context = connect_one (pool, &local);

  g_mutex_lock (&pool->lock);
  if (context == NULL)
    {
      pool->open--;
      pool->down_until = g_get_monotonic_time () + (gint64) pool->retry_interval_ms * 1000;
      g_free (pool->down_reason);
      pool->down_reason = g_strdup (local->message);
      pool->down_code = local->domain == HBASE_INDEX_ERROR ? local->code : HBASE_INDEX_ERROR_REDIS;
      g_cond_signal (&pool->cond);
      g_propagate_error (error, local);
    }
  else
    pool->down_until = 0;
  g_mutex_unlock (&pool->lock);
  return context;
}

static void
release (IndexRedisPool *pool, redisContext *context, gboolean reusable)
{
  g_mutex_lock (&pool->lock);
  if (reusable && context->err == 0)
    g_queue_push_head (&pool->idle, context);
  else
    {
      redisFree (context);
      pool->open--;
    }
  g_cond_signal (&pool->cond);
  g_mutex_unlock (&pool->lock);
}

/* --- batches ----------------------------------------------------------------------------- */

RedisBatch *
_hbase_index_batch_new (void)
{
  RedisBatch *batch = g_new0 (RedisBatch, 1);

  batch->data = g_byte_array_new ();
  batch->args = g_array_new (FALSE, FALSE, sizeof (RedisArg));
  batch->commands = g_array_new (FALSE, FALSE, sizeof (guint));
  return batch;
}

void
_hbase_index_batch_free (RedisBatch *batch)
{
  if (batch == NULL)
    return;
  g_byte_array_unref (batch->data);
  g_array_unref (batch->args);
  g_array_unref (batch->commands);
  g_free (batch);
}

void
_hbase_index_batch_command (RedisBatch *batch)
{
  guint first = batch->args->len;

  g_array_append_val (batch->commands, first);
}

/* "KIND N\r\n" (no space) written at the start of @text; its length. */
static gsize
resp_header (char text[24], char kind, gsize n)
{
  char digits[20];
  gsize d = 0, len = 0;

  do
    digits[d++] = (char) ('0' + n % 10);
  while ((n /= 10) > 0);
  text[len++] = kind;
  while (d > 0)
    text[len++] = digits[--d];
  text[len++] = '\r';
  text[len++] = '\n';
  return len;
}

void
_hbase_index_batch_arg2 (RedisBatch *batch, const void *data, gsize len, const void *more,
                         gsize more_len)
{
  char header[24];
  gsize header_len = resp_header (header, '$', len + more_len);
  RedisArg arg;
  guint8 *at;

  arg.start = batch->data->len;
  arg.offset = arg.start + header_len;
  arg.len = len + more_len;
  /* one growth of the array per argument, then plain copies */
  g_byte_array_set_size (batch->data, (guint) (arg.offset + arg.len + 2));
  at = batch->data->data + arg.start;
  memcpy (at, header, header_len);
  at += header_len;
  if (len > 0)
    memcpy (at, data, len);
  at += len;
  if (more_len > 0)
    memcpy (at, more, more_len);
  at += more_len;
  at[0] = '\r';
  at[1] = '\n';
  g_array_append_val (batch->args, arg);
}

void
_hbase_index_batch_arg (RedisBatch *batch, const void *data, gsize len)
{
  _hbase_index_batch_arg2 (batch, data, len, NULL, 0);
}

void
_hbase_index_batch_str (RedisBatch *batch, const char *text)
{
  _hbase_index_batch_arg (batch, text, strlen (text));
}

void
_hbase_index_batch_bytes (RedisBatch *batch, GBytes *bytes)
{
  gsize len;
  const void *data = g_bytes_get_data (bytes, &len);

  _hbase_index_batch_arg (batch, data, len);
}

void
_hbase_index_batch_uint (RedisBatch *batch, guint64 value)
{
  char text[24];

  g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, value);
  _hbase_index_batch_str (batch, text);
}

guint
_hbase_index_batch_n_commands (RedisBatch *batch)
{
  return batch->commands->len;
}

const char *
_hbase_index_script_sha (void)
{
  static char *sha;
  static gsize once;

  if (g_once_init_enter (&once))
    {
      sha = g_compute_checksum_for_string (G_CHECKSUM_SHA1, _hbase_index_script, -1);
      g_once_init_leave (&once, 1);
    }
  return sha;
}

void
_hbase_index_batch_script (RedisBatch *batch, const char *base, const char *function)
{
  static const char *const suffixes[] = { "state", "seq", "r", "f" };

  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "EVALSHA");
  _hbase_index_batch_str (batch, _hbase_index_script_sha ());
  _hbase_index_batch_str (batch, "4");
  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *key = _hbase_index_key (base, suffixes[i]);

      _hbase_index_batch_str (batch, key);
    }
  _hbase_index_batch_str (batch, function);
  _hbase_index_batch_str (batch, base);
}

static gboolean is_evalsha (RedisBatch *batch, guint i);

char *
_hbase_index_batch_name (RedisBatch *batch, guint i)
{
  guint first, end;
  const RedisArg *arg;

  if (i >= batch->commands->len)
    return g_strdup ("a command");
  first = g_array_index (batch->commands, guint, i);
  end = i + 1 < batch->commands->len ? g_array_index (batch->commands, guint, i + 1) : batch->args->len;
  if (first >= end)
    return g_strdup ("a command");
  /* EVALSHA sha 4 key key key key function: the script's function */
  if (is_evalsha (batch, i) && end - first > 7)
    {
      arg = &g_array_index (batch->args, RedisArg, first + 7);
      return g_strdup_printf ("the index script (%.*s)", (int) MIN (arg->len, 32),
                              (const char *) batch->data->data + arg->offset);
    }
  arg = &g_array_index (batch->args, RedisArg, first);
  return g_strndup ((const char *) batch->data->data + arg->offset, MIN (arg->len, 32));
}

static void
append_resp_header (GByteArray *out, char kind, gsize n)
{
  char text[24];

  g_byte_array_append (out, (const guint8 *) text, (guint) resp_header (text, kind, n));
}

/* Command @i in RESP, appended to @out: its "*N" header and its
 * arguments, already in RESP in the batch.  @as_eval swaps the first two
 * arguments (EVALSHA sha) for (EVAL script).  Formatted here rather than
 * by redisAppendCommandArgv(), whose sds formatting cost about 4,000
 * instructions a row of an indexed bulk load (callgrind, bench-index). */
static void
format_command (GByteArray *out, RedisBatch *batch, guint i, gboolean as_eval)
{
  guint first = g_array_index (batch->commands, guint, i);
  guint end = i + 1 < batch->commands->len ? g_array_index (batch->commands, guint, i + 1)
                                           : batch->args->len;
  const RedisArg *last;

  append_resp_header (out, '*', end - first);
  if (end == first)
    return;
  if (as_eval)
    {
      const char *script = _hbase_index_script;

      append_resp_header (out, '$', 4);
      g_byte_array_append (out, (const guint8 *) "EVAL\r\n", 6);
      append_resp_header (out, '$', strlen (script));
      g_byte_array_append (out, (const guint8 *) script, (guint) strlen (script));
      g_byte_array_append (out, (const guint8 *) "\r\n", 2);
      first += 2;
      if (first >= end)
        return;
    }
  last = &g_array_index (batch->args, RedisArg, end - 1);
  g_byte_array_append (out, batch->data->data + g_array_index (batch->args, RedisArg, first).start,
                       (guint) (last->offset + last->len + 2 - g_array_index (batch->args, RedisArg, first).start));
}

/* Commands [@from, @to) of @batch, queued on @context in one piece. */
static gboolean
append_commands (redisContext *context, RedisBatch *batch, guint from, guint to, gboolean as_eval)
{
  g_autoptr(GByteArray) resp = g_byte_array_sized_new (batch->data->len + 16 * (to - from) + 64);

  for (guint i = from; i < to; i++)
    format_command (resp, batch, i, as_eval);
  return redisAppendFormattedCommand (context, (const char *) resp->data, resp->len) == REDIS_OK;
}

/* hiredis writes with write(2): a connection Redis closed would raise
 * SIGPIPE, which kills a process that did not ignore it.  SIGPIPE is
 * blocked in this thread while Redis is talked to, and one raised is
 * consumed before unblocking. */
typedef struct {
  sigset_t old;
  gboolean pending_before;
} SigpipeGuard;

static void
sigpipe_block (SigpipeGuard *guard)
{
  sigset_t block, pending;

  sigemptyset (&block);
  sigaddset (&block, SIGPIPE);
  sigpending (&pending);
  guard->pending_before = sigismember (&pending, SIGPIPE);
  pthread_sigmask (SIG_BLOCK, &block, &guard->old);
}

static void
sigpipe_unblock (SigpipeGuard *guard)
{
  sigset_t pending, only;
  struct timespec zero = { 0, 0 };

  sigpending (&pending);
  if (!guard->pending_before && sigismember (&pending, SIGPIPE))
    {
      sigemptyset (&only);
      sigaddset (&only, SIGPIPE);
      while (sigtimedwait (&only, NULL, &zero) < 0 && errno == EINTR)
        ;
    }
  pthread_sigmask (SIG_SETMASK, &guard->old, NULL);
}

static gboolean
is_noscript (redisReply *reply)
{
  return reply != NULL && reply->type == REDIS_REPLY_ERROR && reply->str != NULL &&
         g_str_has_prefix (reply->str, "NOSCRIPT");
}

static gboolean
is_evalsha (RedisBatch *batch, guint i)
{
  guint first = g_array_index (batch->commands, guint, i);
  const RedisArg *arg;

  if (first >= batch->args->len)
    return FALSE;
  arg = &g_array_index (batch->args, RedisArg, first);
  return arg->len == 7 && memcmp (batch->data->data + arg->offset, "EVALSHA", 7) == 0;
}

static void
reply_free (gpointer reply)
{
  if (reply != NULL)
    freeReplyObject (reply);
}

GPtrArray *
_hbase_index_redis_run (IndexRedisPool *pool, RedisBatch *batch, GError **error)
{
  g_autoptr(GPtrArray) replies = g_ptr_array_new_with_free_func (reply_free);
  redisContext *context;
  SigpipeGuard guard;
  gboolean ok = TRUE;

  context = acquire (pool, error);
  if (context == NULL)
    return NULL;
  sigpipe_block (&guard);
  ok = append_commands (context, batch, 0, batch->commands->len, FALSE);
  for (guint i = 0; ok && i < batch->commands->len; i++)
    {
      void *reply = NULL;

      if (redisGetReply (context, &reply) != REDIS_OK)
        ok = FALSE;
      else
        g_ptr_array_add (replies, reply);
    }
  /* the script is not loaded (Redis restarted or was flushed): EVAL it */
  for (guint i = 0; ok && i < replies->len; i++)
    if (is_noscript (g_ptr_array_index (replies, i)) && is_evalsha (batch, i))
      {
        void *reply = NULL;

        if (!append_commands (context, batch, i, i + 1, TRUE) ||
            redisGetReply (context, &reply) != REDIS_OK)
          ok = FALSE;
        else
          {
            freeReplyObject (g_ptr_array_index (replies, i));
            g_ptr_array_index (replies, i) = reply;
          }
      }
  sigpipe_unblock (&guard);
  if (!ok)
    {
      g_autofree char *address = where (pool);
      g_autofree char *why = io_failure (pool, context);

      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS, "Redis at %s: %s",
                   address, why);
      release (pool, context, FALSE);
      return NULL;
    }
  release (pool, context, TRUE);
  return g_steal_pointer (&replies);
}

redisReply *
_hbase_index_redis_command (IndexRedisPool *pool, RedisBatch *batch, GError **error)
{
  g_autoptr(GPtrArray) replies = _hbase_index_redis_run (pool, batch, error);
  redisReply *reply;
  g_autofree char *name = _hbase_index_batch_name (batch, 0);

  if (replies == NULL)
    return NULL;
  g_assert (replies->len == 1);
  reply = g_ptr_array_steal_index (replies, 0);
  if (_hbase_index_reply_failed (reply, name, error))
    {
      freeReplyObject (reply);
      return NULL;
    }
  return reply;
}
