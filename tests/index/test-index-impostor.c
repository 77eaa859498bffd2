/* SPDX-License-Identifier: Apache-2.0 */
/* Replies of wrong shapes from an impostor Redis.  The test runs a small
 * RESP server on loopback in front of the stack's redis-server: it passes
 * every command through, but answers one chosen command (TIME, HMGET,
 * SCAN, a function of the index script...) itself, with a reply of a
 * shape that command never gets: nil, an integer, a status, an error, an
 * empty array, an array of the wrong length, of the wrong element types,
 * a nested array, or the header of an array too large to allocate.  For
 * every (command, shape) pair, the operations of the index that send
 * the command (connection set-up, state, queries, writes through the
 * hooks, verify, repair, rebuild) must end with a GError or succeed,
 * never crash; each command must have been answered wrongly at least
 * once (the pair was reached).  Then the hbase-glib command is run
 * against the impostor, and must exit with a status, not a signal. */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "index-support.h"

/* --- the impostor ------------------------------------------------------------------------------ */

typedef struct {
  int listen_fd;
  guint port;
  GThread *thread;
  gint stop;
  GMutex lock;
  char *target;           /* "TIME", "SCRIPT before"...; NULL: none */
  GBytes *shape;          /* what the target gets */
  gint hits;              /* wrong replies sent */
  GPtrArray *clients;     /* GThread */
} Impostor;

typedef struct {
  Impostor *impostor;
  int fd;
} Client;

static void
resp_append (GString *out, const redisReply *reply)
{
  switch (reply->type)
    {
    case REDIS_REPLY_STRING:
      g_string_append_printf (out, "$%zu\r\n", reply->len);
      g_string_append_len (out, reply->str, (gssize) reply->len);
      g_string_append (out, "\r\n");
      break;
    case REDIS_REPLY_STATUS:
      g_string_append_printf (out, "+%s\r\n", reply->str);
      break;
    case REDIS_REPLY_ERROR:
      g_string_append_printf (out, "-%s\r\n", reply->str);
      break;
    case REDIS_REPLY_INTEGER:
      g_string_append_printf (out, ":%lld\r\n", reply->integer);
      break;
    case REDIS_REPLY_ARRAY:
      g_string_append_printf (out, "*%zu\r\n", reply->elements);
      for (size_t i = 0; i < reply->elements; i++)
        resp_append (out, reply->element[i]);
      break;
    case REDIS_REPLY_NIL:
    default:
      g_string_append (out, "$-1\r\n");
      break;
    }
}

/* "SCRIPT FUNCTION" for the index script (EVALSHA or EVAL, the
 * function after the four keys), else the command's name. */
static char *
command_key (const redisReply *command)
{
  const redisReply *name = command->element[0];

  if ((g_ascii_strcasecmp (name->str, "EVALSHA") == 0 || g_ascii_strcasecmp (name->str, "EVAL") == 0) &&
      command->elements > 7)
    return g_strdup_printf ("SCRIPT %s", command->element[7]->str);
  return g_ascii_strup (name->str, -1);
}

static gboolean
send_all (int fd, const char *data, gsize len)
{
  while (len > 0)
    {
      ssize_t n = send (fd, data, len, MSG_NOSIGNAL);

      if (n <= 0)
        return FALSE;
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static gpointer
client_run (gpointer data)
{
  Client *client = data;
  Impostor *impostor = client->impostor;
  redisReader *reader = redisReaderCreate ();
  struct timeval timeout = { 5, 0 };
  redisContext *upstream = redisConnectWithTimeout (ix_redis_host (), (int) ix_redis_port (), timeout);
  gboolean open = upstream != NULL && upstream->err == 0;

  while (open && !g_atomic_int_get (&impostor->stop))
    {
      struct pollfd pfd = { .fd = client->fd, .events = POLLIN };
      char buf[16384];
      ssize_t n;
      void *request = NULL;

      if (poll (&pfd, 1, 50) <= 0)
        continue;
      n = recv (client->fd, buf, sizeof buf, 0);
      if (n <= 0)
        break;
      redisReaderFeed (reader, buf, (size_t) n);
      while (open && redisReaderGetReply (reader, &request) == REDIS_OK && request != NULL)
        {
          redisReply *command = request;
          g_autofree char *key = NULL;
          g_autoptr(GString) out = g_string_new (NULL);
          gboolean wrong;

          g_assert_cmpint (command->type, ==, REDIS_REPLY_ARRAY);
          g_assert_cmpuint (command->elements, >, 0);
          key = command_key (command);
          g_mutex_lock (&impostor->lock);
          wrong = impostor->target != NULL && strcmp (key, impostor->target) == 0;
          if (wrong)
            {
              gsize len;
              const char *bytes = g_bytes_get_data (impostor->shape, &len);

              g_string_append_len (out, bytes, (gssize) len);
              impostor->hits++;
            }
          g_mutex_unlock (&impostor->lock);
          if (!wrong)
            {
              g_autofree const char **argv = g_new (const char *, command->elements);
              g_autofree size_t *lens = g_new (size_t, command->elements);
              redisReply *reply;

              for (size_t i = 0; i < command->elements; i++)
                {
                  argv[i] = command->element[i]->str;
                  lens[i] = command->element[i]->len;
                }
              reply = redisCommandArgv (upstream, (int) command->elements, argv, lens);
              if (reply == NULL)
                open = FALSE;
              else
                {
                  resp_append (out, reply);
                  freeReplyObject (reply);
                }
            }
          freeReplyObject (command);
          request = NULL;
          if (open)
            open = send_all (client->fd, out->str, out->len);
        }
    }
  close (client->fd);
  redisReaderFree (reader);
  if (upstream != NULL)
    redisFree (upstream);
  g_free (client);
  return NULL;
}

static gpointer
impostor_run (gpointer data)
{
  Impostor *impostor = data;

  while (!g_atomic_int_get (&impostor->stop))
    {
      struct pollfd pfd = { .fd = impostor->listen_fd, .events = POLLIN };
      Client *client;
      int fd;

      if (poll (&pfd, 1, 50) <= 0)
        continue;
      fd = accept (impostor->listen_fd, NULL, NULL);
      if (fd < 0)
        continue;
      client = g_new0 (Client, 1);
      client->impostor = impostor;
      client->fd = fd;
      g_mutex_lock (&impostor->lock);
      g_ptr_array_add (impostor->clients, g_thread_new ("impostor-client", client_run, client));
      g_mutex_unlock (&impostor->lock);
    }
  return NULL;
}

static Impostor *
impostor_start (void)
{
  Impostor *impostor = g_new0 (Impostor, 1);
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  socklen_t len = sizeof addr;

  impostor->listen_fd = socket (AF_INET, SOCK_STREAM, 0);
  g_assert_cmpint (impostor->listen_fd, >=, 0);
  g_assert_cmpint (bind (impostor->listen_fd, (struct sockaddr *) &addr, sizeof addr), ==, 0);
  g_assert_cmpint (listen (impostor->listen_fd, 64), ==, 0);
  g_assert_cmpint (getsockname (impostor->listen_fd, (struct sockaddr *) &addr, &len), ==, 0);
  impostor->port = ntohs (addr.sin_port);
  g_mutex_init (&impostor->lock);
  impostor->clients = g_ptr_array_new ();
  impostor->thread = g_thread_new ("impostor", impostor_run, impostor);
  return impostor;
}

static void
impostor_set (Impostor *impostor, const char *target, const char *shape, gsize shape_len)
{
  g_mutex_lock (&impostor->lock);
  g_free (impostor->target);
  impostor->target = g_strdup (target);
  g_clear_pointer (&impostor->shape, g_bytes_unref);
  if (shape != NULL)
    impostor->shape = g_bytes_new (shape, shape_len);
  impostor->hits = 0;
  g_mutex_unlock (&impostor->lock);
}

static gint
impostor_hits (Impostor *impostor)
{
  gint hits;

  g_mutex_lock (&impostor->lock);
  hits = impostor->hits;
  g_mutex_unlock (&impostor->lock);
  return hits;
}

static void
impostor_stop (Impostor *impostor)
{
  g_atomic_int_set (&impostor->stop, 1);
  g_thread_join (impostor->thread);
  for (guint i = 0; i < impostor->clients->len; i++)
    g_thread_join (g_ptr_array_index (impostor->clients, i));
  g_ptr_array_unref (impostor->clients);
  close (impostor->listen_fd);
  g_mutex_clear (&impostor->lock);
  g_free (impostor->target);
  g_clear_pointer (&impostor->shape, g_bytes_unref);
  g_free (impostor);
}

/* --- shapes and commands ------------------------------------------------------------------------- */

typedef struct {
  const char *name;
  const char *resp;
} Shape;

static const Shape shapes[] = {
  { "nil", "$-1\r\n" },
  { "integer", ":7\r\n" },
  { "status", "+OK\r\n" },
  { "error", "-ERR the impostor refuses\r\n" },
  { "empty-array", "*0\r\n" },
  { "wrong-length", "*5\r\n$1\r\n1\r\n$1\r\n2\r\n$1\r\n3\r\n$1\r\n4\r\n$1\r\n5\r\n" },
  { "wrong-element-types", "*2\r\n:1\r\n:2\r\n" },
  { "nested", "*2\r\n*1\r\n$1\r\n0\r\n*1\r\n$1\r\nb\r\n" },
  { "huge-array", "*2000000000\r\n" },
};

enum {
  OP_CONNECT = 1 << 0,   /* a new pool: INFO, TIME (and AUTH, SELECT) */
  OP_STATE = 1 << 1,
  OP_QUERY = 1 << 2,
  OP_WRITE = 1 << 3,
  OP_VERIFY = 1 << 4,
  OP_REPAIR = 1 << 5,
  OP_REBUILD = 1 << 6,
  OP_AUTH = 1 << 7,      /* connect with a password */
  OP_DB = 1 << 8,        /* connect to database 1 */
  OP_FIND_EQUAL = 1 << 9,
  OP_FIND_RANGE = 1 << 10,
  OP_FIND_LEX = 1 << 11,
  OP_FIND_AND = 1 << 12,
};

typedef struct {
  const char *command;
  guint ops;
  gboolean quiet;   /* a failure the caller is not told of (the write was done) */
} Target;

static const Target targets[] = {
  { "INFO", OP_CONNECT, FALSE },
  { "TIME", OP_CONNECT | OP_FIND_EQUAL, FALSE },
  { "AUTH", OP_AUTH, FALSE },
  { "SELECT", OP_DB, FALSE },
  { "HMGET", OP_STATE | OP_FIND_EQUAL | OP_WRITE, FALSE },
  { "ZRANGE", OP_FIND_EQUAL, FALSE },
  { "SCARD", OP_FIND_EQUAL, FALSE },
  { "ZCOUNT", OP_FIND_RANGE, FALSE },
  { "ZLEXCOUNT", OP_FIND_LEX, FALSE },
  { "SMEMBERS", OP_FIND_EQUAL, FALSE },
  { "ZRANGEBYSCORE", OP_FIND_RANGE, FALSE },
  { "ZRANGEBYLEX", OP_FIND_LEX, FALSE },
  { "SMISMEMBER", OP_FIND_AND, FALSE },
  { "SCRIPT before", OP_WRITE, FALSE },
  { "SCRIPT after", OP_WRITE, TRUE },
  { "HSETNX", OP_WRITE, FALSE },
  { "SADD", OP_WRITE, FALSE },
  { "ZADD", OP_WRITE, FALSE },
  { "SCAN", OP_VERIFY, FALSE },
  { "SSCAN", OP_VERIFY, FALSE },
  { "ZSCAN", OP_VERIFY, FALSE },
  { "HSCAN", OP_VERIFY, FALSE },
  { "SISMEMBER", OP_VERIFY, FALSE },
  { "ZSCORE", OP_VERIFY, FALSE },
  { "SCRIPT snapshot", OP_REPAIR, FALSE },
  { "SCRIPT repair", OP_REPAIR, FALSE },
  { "SCRIPT clear", OP_REBUILD, FALSE },
};

/* An operation's outcome: success, or a GError with a message. */
static void
outcome (const char *what, gboolean ok, GError *error, guint *failures)
{
  if (ok)
    {
      g_assert_null (error);
      return;
    }
  g_assert_nonnull (error);
  g_assert_nonnull (error->message);
  g_assert_cmpstr (error->message, !=, "");
  g_test_message ("  %s: %s", what, error->message);
  (*failures)++;
}

static HBaseIndex *
open_through (IxFixture *fx, Impostor *impostor, guint ops)
{
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;

  options.redis_host = "127.0.0.1";
  options.redis_port = impostor->port;
  options.retry_interval_ms = 1;
  options.timeout_ms = 2000;
  options.on_redis_down = HBASE_INDEX_REDIS_DOWN_FAIL;
  if (ops & OP_AUTH)
    options.redis_password = "not-a-secret";
  if (ops & OP_DB)
    options.redis_db = 1;
  return ix_open (fx, &options);
}

static void
run_ops (IxFixture *fx, HBaseIndex *index, guint ops, guint round, guint *failures)
{
  GError *error = NULL;

  if (ops & (OP_CONNECT | OP_STATE | OP_AUTH | OP_DB))
    {
      HBaseIndexState state;
      g_autofree char *reason = NULL;
      gboolean ok = hbase_index_get_state (index, &state, &reason, NULL, &error);

      /* the state says why Redis cannot answer: in words, never a crash */
      outcome ("state", ok, error, failures);
      g_clear_error (&error);
      if (ok && state != HBASE_INDEX_STATE_READY)
        {
          g_assert_nonnull (reason);
          g_test_message ("  state: %s", reason);
          (*failures)++;
        }
    }
  if (ops & (OP_FIND_EQUAL | OP_FIND_RANGE | OP_FIND_LEX | OP_FIND_AND))
    {
      g_autoptr(GBytes) paris = ix_bytes ("Paris");
      g_autoptr(GBytes) blue = ix_bytes ("blue");
      gint64 big = 5;
      double lo = 1.0, hi = 3.0;
      g_autoptr(HBaseIndexQuery) city = hbase_index_query_equal ("city", paris);
      g_autoptr(HBaseIndexQuery) tag = hbase_index_query_equal ("tag", blue);
      g_autoptr(HBaseIndexQuery) owned =
        (ops & OP_FIND_EQUAL) ? hbase_index_query_ref (city)
        : (ops & OP_FIND_RANGE) ? hbase_index_query_range_double ("score", &lo, TRUE, &hi, FALSE)
        : (ops & OP_FIND_LEX) ? hbase_index_query_range_int64 ("big", &big, TRUE, NULL, TRUE)
        : hbase_index_query_and (city, tag);
      g_autoptr(HBaseIndexPage) page = hbase_index_find (index, owned, NULL, NULL, &error);

      outcome ("find", page != NULL, error, failures);
      g_clear_error (&error);
    }
  if (ops & OP_WRITE)
    {
      HBaseTable *table = hbase_index_get_table (index);
      g_autoptr(GPtrArray) many = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
      g_autofree char *age = g_strdup_printf ("f:age=%u", 30 + round % 2);
      g_autoptr(HBaseMutation) one = ix_put ("one", "f:city=Paris", age, "g:tag=blue", NULL);

      gboolean ok = hbase_table_apply (table, one, NULL, &error);

      outcome ("put", ok, error, failures);
      g_clear_error (&error);
      for (guint i = 0; i < 9; i++)
        {
          g_autofree char *row = g_strdup_printf ("many-%u", i);

          g_ptr_array_add (many, ix_put (row, "f:city=Lyon", age, "f:score=1.5", NULL));
        }
      ok = hbase_table_apply_multiple (table, many, NULL, &error);
      outcome ("put many", ok, error, failures);
      g_clear_error (&error);
    }
  if (ops & OP_VERIFY)
    {
      g_autoptr(HBaseIndexReport) report = hbase_index_verify (index, NULL, NULL, &error);

      outcome ("verify", report != NULL, error, failures);
      g_clear_error (&error);
    }
  if (ops & OP_REPAIR)
    {
      g_autoptr(HBaseIndexReport) report = NULL;
      g_autoptr(HBaseTable) unindexed = ix_unindexed_table (fx);
      g_autofree char *age = g_strdup_printf ("f:age=%u", 50 + round % 2);
      g_autoptr(HBaseMutation) drift = ix_put ("drift", "f:city=Nice", age, NULL);

      /* a row the index missed: something for the repair to fix */
      ix_apply (unindexed, drift);
      report = hbase_index_repair (index, NULL, NULL, &error);

      outcome ("repair", report != NULL, error, failures);
      g_clear_error (&error);
    }
  if (ops & OP_REBUILD)
    {
      g_autoptr(HBaseIndexReport) report = hbase_index_rebuild (index, NULL, NULL, &error);

      outcome ("rebuild", report != NULL, error, failures);
      g_clear_error (&error);
    }
}

static void
test_wrong_shapes (void)
{
  IxFixture fx;
  Impostor *impostor;
  guint round = 0;
  gint64 start = g_get_monotonic_time ();

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  {
    g_autoptr(HBaseMutation) put = ix_put ("ada", "f:city=Paris", "f:age=36", "f:score=2.5",
                                           "f:big=7", "g:tag=blue", NULL);
    g_autoptr(HBaseMutation) other = ix_put ("bob", "f:city=Paris", "f:age=25", "g:tag=red", NULL);

    ix_apply (hbase_index_get_table (fx.index), put);
    ix_apply (hbase_index_get_table (fx.index), other);
  }
  impostor = impostor_start ();

  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      const Target *target = &targets[t];
      gint reached = 0;
      guint failures = 0;

      for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
        {
          g_autoptr(HBaseIndex) index = NULL;

          g_test_message ("%s answered with %s", target->command, shapes[s].name);
          impostor_set (impostor, target->command, shapes[s].resp, strlen (shapes[s].resp));
          index = open_through (&fx, impostor, target->ops);
          run_ops (&fx, index, target->ops, round++, &failures);
          reached += impostor_hits (impostor);
          impostor_set (impostor, NULL, NULL, 0);
          if (target->ops & (OP_WRITE | OP_REPAIR | OP_REBUILD))
            {
              /* a write or maintenance cut short may leave a dirty mark
               * or a half-built index: repaired through the real Redis,
               * so that the next pair meets a ready index */
              HBaseIndexState state;
              g_autoptr(GError) error = NULL;

              g_assert_true (hbase_index_get_state (fx.index, &state, NULL, NULL, &error));
              if (state != HBASE_INDEX_STATE_READY)
                {
                  g_autoptr(HBaseIndexReport) report = ix_repair (fx.index);
                }
            }
        }
      /* every pair was reached, and the wrong shapes were refused */
      g_test_message ("%s: %d wrong replies, %u failures (%.1f s)", target->command, reached,
                      failures, (g_get_monotonic_time () - start) / 1e6);
      g_assert_cmpint (reached, >=, (gint) G_N_ELEMENTS (shapes));
      if (!target->quiet)
        g_assert_cmpuint (failures, >, 0);
    }
  impostor_stop (impostor);
  ix_teardown (&fx);
}

/* The hbase-glib command against the impostor: an exit status, never a
 * signal. */
static void
test_cli (void)
{
  const char *cli = g_getenv ("HBASE_GLIB_CLI");
  g_autofree char *path = NULL;
  IxFixture fx;
  Impostor *impostor;
  /* the command replaced, the shape, the hbase-glib command and its
   * arguments after the table */
  static const char *const runs[][4] = {
    { "TIME", "wrong-element-types", "index-show", NULL },
    { "HMGET", "nested", "index-show", NULL },
    { "SCAN", "wrong-element-types", "index-verify", NULL },
    { "SMEMBERS", "nested", "index-query", "city=Paris" },
    { "TIME", "huge-array", "index-verify", NULL },
  };

  path = g_strdup (cli != NULL ? cli : TOP_BUILDDIR "/tools/hbase-glib");
  if (!g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("the hbase-glib command is not built");
      return;
    }
  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  impostor = impostor_start ();
  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    {
      g_autofree char *redis = g_strdup_printf ("127.0.0.1:%u", impostor->port);
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr(GError) error = NULL;
      const Shape *shape = NULL;
      int status = 0;
      const char *argv[] = { path, "--redis", redis, "--index-meta-table", fx.meta,
                             runs[r][2], fx.table, runs[r][3], NULL };

      for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
        if (strcmp (shapes[s].name, runs[r][1]) == 0)
          shape = &shapes[s];
      g_assert_nonnull (shape);
      impostor_set (impostor, runs[r][0], shape->resp, strlen (shape->resp));
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                                   &out, &err, &status, &error));
      g_assert_no_error (error);
      g_test_message ("%s, %s answered with %s: status %d: %s%s", runs[r][2], runs[r][0],
                      shape->name, status, out, err);
      g_assert_true (WIFEXITED (status));
      /* each run met its wrong reply */
      g_assert_cmpint (impostor_hits (impostor), >, 0);
    }
  impostor_stop (impostor);
  ix_teardown (&fx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/index/impostor/wrong-shapes", test_wrong_shapes);
  g_test_add_func ("/index/impostor/cli", test_cli);
  return g_test_run ();
}
