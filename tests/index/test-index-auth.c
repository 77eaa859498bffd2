/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test, on the real stack (HBase through the binary/buffered
 * gateway, the stack's plain redis-server and its second redis-server with
 * ACL users, HBASE_GLIB_REDIS_ACL_PORT, default 6380, started by
 * scripts/stack.sh), of how the index authenticates to Redis:
 *  - an index defined, written and queried through the ACL user "idx"
 *    (AUTH idx password), its password from a file or from the options;
 *  - the legacy AUTH password of the default user, from a file whose
 *    first line (\n or \r\n ended) is the password;
 *  - a wrong password, an unknown user, no credentials (NOAUTH), and a
 *    password sent to a Redis that has none: each its own error code;
 *  - after CLIENT KILL of every connection of the user, the next query
 *    reconnects and authenticates again;
 *  - no error message and nothing logged ever holds the password, a
 *    password file readable by group or others is reported, and the
 *    credentials are checked by hbase_index_open() before any server is
 *    asked. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "index-support.h"

#define SKIP_UNLESS(ok) G_STMT_START { if (!(ok)) return; } G_STMT_END

G_DEFINE_AUTOPTR_CLEANUP_FUNC (redisContext, redisFree)

/* A password no server holds, recognisable in any text. */
#define CANARY "hbglib-CANARY-7f3a9c"

/* --- the ACL redis-server of the stack --------------------------------------------------------- */

static guint
acl_port (void)
{
  const char *spec = g_getenv ("HBASE_GLIB_REDIS_ACL_PORT");

  if (spec == NULL || *spec == '\0')
    return 6380;
  if (strcmp (spec, "none") == 0)
    return 0;
  return (guint) g_ascii_strtoull (spec, NULL, 10);
}

/* <state dir>/redis-acl/<user>.password, as scripts/stack.sh writes it. */
static char *
password_path (const char *user)
{
  const char *state = g_getenv ("HBASE_GLIB_STATE_DIR");
  g_autofree char *name = g_strdup_printf ("%s.password", user);
  g_autofree char *top = NULL;

  if (state != NULL && *state != '\0')
    return g_build_filename (state, "redis-acl", name, NULL);
  top = g_strdup (g_getenv ("top_srcdir") != NULL ? g_getenv ("top_srcdir") : ".");
  return g_build_filename (top, ".stack", "redis-acl", name, NULL);
}

static char *
read_password (const char *user)
{
  g_autofree char *path = password_path (user);
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  g_strchomp (contents);
  return contents;
}

/* A connection to the ACL Redis as user idx, or NULL (test skipped or
 * failed) when it is not there. */
static redisContext *
acl_connect (void)
{
  struct timeval timeout = { 5, 0 };
  g_autofree char *password = NULL;
  redisContext *redis;
  redisReply *reply;

  if (acl_port () == 0)
    {
      g_test_skip ("HBASE_GLIB_REDIS_ACL_PORT is none: no redis-server with ACL users");
      return NULL;
    }
  password = read_password ("idx");
  redis = redisConnectWithTimeout (ix_redis_host (), (int) acl_port (), timeout);
  if (password == NULL || redis == NULL || redis->err != 0)
    {
      if (redis != NULL)
        redisFree (redis);
      test_stack_unreachable ("redis-server with ACL users; scripts/stack.sh start-redis-acl starts it");
      return NULL;
    }
  reply = redisCommand (redis, "AUTH %s %s", "idx", password);
  g_assert_nonnull (reply);
  g_assert_cmpint (reply->type, ==, REDIS_REPLY_STATUS);
  freeReplyObject (reply);
  return redis;
}

static void
acl_options (HBaseIndexOptions *options)
{
  *options = (HBaseIndexOptions) HBASE_INDEX_OPTIONS_INIT;
  options->redis_host = ix_redis_host ();
  options->redis_port = acl_port ();
}

static guint
count_keys (redisContext *redis, const char *prefix)
{
  redisReply *reply = redisCommand (redis, "KEYS %s:*", prefix);
  guint n;

  g_assert_nonnull (reply);
  g_assert_cmpint (reply->type, ==, REDIS_REPLY_ARRAY);
  n = (guint) reply->elements;
  freeReplyObject (reply);
  return n;
}

static void
write_city (HBaseIndex *index, const char *row, const char *city)
{
  g_autofree char *pair = g_strdup_printf ("f:city=%s", city);
  g_autoptr(HBaseMutation) put = ix_put (row, pair, NULL);

  ix_apply (hbase_index_get_table (index), put);
}

static char *
find_city (HBaseIndex *index, const char *city)
{
  g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal_string ("city", city);

  return ix_find (index, query, NULL);
}

/* The error of a query: NULL when it answered. */
static GError *
query_error (HBaseIndex *index)
{
  g_autoptr(HBaseIndexQuery) query = hbase_index_query_equal_string ("city", "Paris");
  g_autoptr(HBaseIndexPage) page = NULL;
  GError *error = NULL;

  page = hbase_index_find (index, query, NULL, NULL, &error);
  g_assert_true ((page == NULL) == (error != NULL));
  return error;
}

static GError *
write_error (HBaseIndex *index)
{
  g_autoptr(HBaseMutation) put = ix_put ("w1", "f:city=Oslo", NULL);
  GError *error = NULL;

  if (hbase_table_apply (hbase_index_get_table (index), put, NULL, &error))
    g_assert_no_error (error);
  return error;
}

/* --- defined, written, queried through the ACL user ------------------------------------------- */

static void
test_acl_user (void)
{
  g_autoptr(redisContext) acl = acl_connect ();
  g_autofree char *file = NULL;
  g_autofree char *found = NULL;
  g_autofree char *password = NULL;
  g_autofree char *prefix = NULL;
  HBaseIndexOptions options;
  IxFixture fx;

  SKIP_UNLESS (acl != NULL);
  file = password_path ("idx");
  acl_options (&options);
  options.redis_username = "idx";
  options.redis_password_file = file;
  /* defined, built (rebuild) and opened through the ACL user */
  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), &options));
  write_city (fx.index, "r1", "Paris");
  write_city (fx.index, "r2", "Lyon");
  write_city (fx.index, "r3", "Paris");
  found = find_city (fx.index, "Paris");
  g_assert_cmpstr (found, ==, "r1,r3");
  /* the entries are in the ACL Redis, none in the plain one */
  g_assert_cmpuint (count_keys (acl, fx.prefix), >, 0);
  g_assert_cmpuint (count_keys (fx.redis, fx.prefix), ==, 0);

  /* the password given in the options works the same */
  {
    g_autoptr(HBaseIndex) other = NULL;
    g_autofree char *again = NULL;

    password = read_password ("idx");
    options.redis_password_file = NULL;
    options.redis_password = password;
    other = ix_open (&fx, &options);
    again = find_city (other, "Paris");
    g_assert_cmpstr (again, ==, "r1,r3");
  }
  prefix = g_strdup (fx.prefix);
  ix_teardown (&fx);
  g_assert_cmpuint (count_keys (acl, prefix), ==, 0);
}

/* --- the legacy AUTH password (default user) -------------------------------------------------- */

static void
test_legacy_password (void)
{
  g_autoptr(redisContext) acl = acl_connect ();
  g_autofree char *password = NULL;
  g_autofree char *dir = NULL;
  HBaseIndexOptions options;
  IxFixture fx;
  const char *const endings[] = { "\n", "\r\nsecond line is ignored\n", "" };

  SKIP_UNLESS (acl != NULL);
  password = read_password ("default");
  g_assert_nonnull (password);
  acl_options (&options);
  options.redis_password = password;
  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), &options));
  write_city (fx.index, "r1", "Paris");

  /* the password from a file: its first line, without \n or \r\n */
  dir = g_dir_make_tmp ("hbase-glib-auth-XXXXXX", NULL);
  g_assert_nonnull (dir);
  for (guint i = 0; i < G_N_ELEMENTS (endings); i++)
    {
      g_autofree char *file = g_build_filename (dir, "password", NULL);
      g_autofree char *contents = g_strconcat (password, endings[i], NULL);
      g_autoptr(HBaseIndex) other = NULL;
      g_autofree char *found = NULL;

      g_assert_true (g_file_set_contents_full (file, contents, -1, G_FILE_SET_CONTENTS_NONE, 0600, NULL));
      options.redis_password = NULL;
      options.redis_password_file = file;
      other = ix_open (&fx, &options);
      found = find_city (other, "Paris");
      g_assert_cmpstr (found, ==, "r1");
      g_assert_cmpint (g_unlink (file), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  ix_teardown (&fx);
}

/* --- refusals --------------------------------------------------------------------------------- */

static void
assert_no_canary (const GError *error)
{
  g_assert_nonnull (error);
  if (strstr (error->message, CANARY) != NULL)
    g_error ("the password is in an error message: %s", error->message);
}

static void
test_refused (void)
{
  g_autoptr(redisContext) acl = acl_connect ();
  g_autofree char *password = NULL;
  HBaseIndexOptions options;
  IxFixture fx;

  SKIP_UNLESS (acl != NULL);
  password = read_password ("idx");
  acl_options (&options);
  options.redis_username = "idx";
  options.redis_password = password;
  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), &options));

  /* a wrong password: WRONGPASS, kept; the password never */
  {
    HBaseIndexOptions wrong = options;
    g_autoptr(HBaseIndex) index = NULL;
    g_autoptr(GError) error = NULL;
    HBaseIndexState state;
    g_autofree char *reason = NULL;

    wrong.redis_password = CANARY;
    index = ix_open (&fx, &wrong);
    error = query_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_FAILED);
    g_assert_nonnull (strstr (error->message, "WRONGPASS"));
    g_assert_nonnull (strstr (error->message, "\"idx\""));
    assert_no_canary (error);
    g_clear_error (&error);
    /* within the retry interval the same error comes at once */
    error = write_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_FAILED);
    assert_no_canary (error);
    g_assert_true (hbase_index_get_state (index, &state, &reason, NULL, NULL));
    g_assert_cmpint (state, ==, HBASE_INDEX_STATE_UNREACHABLE);
    g_assert_null (strstr (reason != NULL ? reason : "", CANARY));
  }
  /* a password that is a word of Redis's answer: masked in the message,
   * the error still told by Redis's own words */
  {
    HBaseIndexOptions wrong = options;
    g_autoptr(HBaseIndex) index = NULL;
    g_autoptr(GError) error = NULL;

    wrong.redis_password = "username";
    index = ix_open (&fx, &wrong);
    error = query_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_FAILED);
    g_assert_nonnull (strstr (error->message, "WRONGPASS invalid (password)-password pair"));
    g_assert_null (strstr (error->message, "username"));
  }
  /* an unknown user: WRONGPASS too */
  {
    HBaseIndexOptions stranger = options;
    g_autoptr(HBaseIndex) index = NULL;
    g_autoptr(GError) error = NULL;

    stranger.redis_username = "nobody-here";
    index = ix_open (&fx, &stranger);
    error = query_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_FAILED);
    g_assert_nonnull (strstr (error->message, "WRONGPASS"));
    g_assert_nonnull (strstr (error->message, "nobody-here"));
  }
  /* no credentials: NOAUTH */
  {
    HBaseIndexOptions none;
    g_autoptr(HBaseIndex) index = NULL;
    g_autoptr(GError) error = NULL;

    acl_options (&none);
    index = ix_open (&fx, &none);
    error = query_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_REQUIRED);
    g_assert_nonnull (strstr (error->message, "NOAUTH"));
    g_clear_error (&error);
    error = write_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_REQUIRED);
  }
  /* a password for the plain Redis, which has none */
  {
    HBaseIndexOptions plain = HBASE_INDEX_OPTIONS_INIT;
    g_autoptr(HBaseIndex) index = NULL;
    g_autoptr(GError) error = NULL;

    plain.redis_host = ix_redis_host ();
    plain.redis_port = ix_redis_port ();
    plain.redis_password = CANARY;
    index = ix_open (&fx, &plain);
    error = query_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_NOT_ENABLED);
    assert_no_canary (error);
    /* a user with it: WRONGPASS (the default user is the only one) */
    plain.redis_username = "idx";
    g_clear_object (&index);
    g_clear_error (&error);
    index = ix_open (&fx, &plain);
    error = query_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_FAILED);
    assert_no_canary (error);
  }
  ix_teardown (&fx);
}

/* --- CLIENT KILL: the next connection authenticates again -------------------------------------- */

/* The ids of the connections of user idx, but @self. */
static GHashTable *
idx_clients (redisContext *redis, long long self)
{
  GHashTable *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  redisReply *reply = redisCommand (redis, "CLIENT LIST");
  g_auto(GStrv) lines = NULL;

  g_assert_nonnull (reply);
  g_assert_cmpint (reply->type, ==, REDIS_REPLY_STRING);
  lines = g_strsplit (reply->str, "\n", -1);
  freeReplyObject (reply);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], " ", -1);
      const char *id = NULL;
      gboolean idx = FALSE;

      for (guint f = 0; fields[f] != NULL; f++)
        {
          if (g_str_has_prefix (fields[f], "id="))
            id = fields[f] + 3;
          if (strcmp (fields[f], "user=idx") == 0)
            idx = TRUE;
        }
      if (id != NULL && idx && g_ascii_strtoll (id, NULL, 10) != self)
        g_hash_table_add (ids, g_strdup (id));
    }
  return ids;
}

static void
test_reconnect (void)
{
  g_autoptr(redisContext) acl = acl_connect ();
  g_autofree char *password = NULL;
  g_autoptr(GHashTable) before = NULL;
  g_autoptr(GHashTable) after = NULL;
  HBaseIndexOptions options;
  long long self;
  redisReply *reply;
  IxFixture fx;
  GHashTableIter iter;
  gpointer id;
  gboolean fresh = FALSE;

  SKIP_UNLESS (acl != NULL);
  reply = redisCommand (acl, "CLIENT ID");
  g_assert_nonnull (reply);
  self = reply->integer;
  freeReplyObject (reply);
  password = read_password ("idx");
  acl_options (&options);
  options.redis_username = "idx";
  options.redis_password = password;
  SKIP_UNLESS (ix_setup (&fx, ix_sample_spec (), &options));
  write_city (fx.index, "r1", "Paris");
  {
    g_autofree char *found = find_city (fx.index, "Paris");

    g_assert_cmpstr (found, ==, "r1");
  }
  before = idx_clients (acl, self);
  g_assert_cmpuint (g_hash_table_size (before), >, 0);

  /* every connection of the index is closed by Redis */
  reply = redisCommand (acl, "CLIENT KILL USER idx SKIPME yes");
  g_assert_nonnull (reply);
  g_assert_cmpint (reply->type, ==, REDIS_REPLY_INTEGER);
  g_assert_cmpint (reply->integer, >=, (long long) g_hash_table_size (before));
  freeReplyObject (reply);

  /* written and queried again on new connections, which authenticated */
  write_city (fx.index, "r2", "Paris");
  {
    g_autofree char *found = find_city (fx.index, "Paris");

    g_assert_cmpstr (found, ==, "r1,r2");
  }
  after = idx_clients (acl, self);
  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, &id, NULL))
    {
      g_assert_false (g_hash_table_contains (before, id));
      fresh = TRUE;
    }
  g_assert_true (fresh);
  ix_teardown (&fx);
}

/* --- secrets hygiene --------------------------------------------------------------------------- */

static GPtrArray *logged;

static void
capture (const char *domain, GLogLevelFlags level, const char *message, gpointer user_data)
{
  (void) user_data;
  g_ptr_array_add (logged, g_strdup_printf ("%s [%d]: %s", domain != NULL ? domain : "", (int) level, message));
}

static gboolean
logged_matching (const char *needle)
{
  for (guint i = 0; i < logged->len; i++)
    if (strstr (g_ptr_array_index (logged, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

/* Every error path, with CANARY as the password: no message and nothing
 * logged holds it. */
static void
test_no_secret_anywhere (void)
{
  g_autoptr(redisContext) acl = acl_connect ();
  g_autofree char *dir = NULL;
  g_autofree char *file = NULL;
  HBaseIndexOptions options;
  IxFixture fx;
  guint handler;

  SKIP_UNLESS (acl != NULL);
  logged = g_ptr_array_new_with_free_func (g_free);
  handler = g_log_set_handler (G_LOG_DOMAIN, G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION,
                               capture, NULL);
  acl_options (&options);
  {
    g_autofree char *password = read_password ("idx");

    options.redis_username = "idx";
    options.redis_password = password;
    if (!ix_setup (&fx, ix_sample_spec (), &options))
      {
        g_log_remove_handler (G_LOG_DOMAIN, handler);
        g_clear_pointer (&logged, g_ptr_array_unref);
        return;
      }
  }
  dir = g_dir_make_tmp ("hbase-glib-auth-XXXXXX", NULL);
  file = g_build_filename (dir, "password", NULL);
  g_assert_true (g_file_set_contents_full (file, CANARY "\n", -1, G_FILE_SET_CONTENTS_NONE, 0640, NULL));

  /* mode 600: nothing said */
  g_assert_cmpint (g_chmod (file, 0600), ==, 0);
  g_ptr_array_set_size (logged, 0);
  {
    HBaseIndexOptions o = options;
    g_autoptr(HBaseIndex) index = NULL;
    g_autoptr(GError) error = NULL;

    o.redis_password = NULL;
    o.redis_password_file = file;
    index = ix_open (&fx, &o);
    g_assert_false (logged_matching ("readable"));
    error = write_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_FAILED);
    assert_no_canary (error);
  }
  /* refused by hbase_index_open() itself, before any server is asked */
  {
    HBaseIndexOptions o = options;
    g_autofree char *missing = g_build_filename (dir, "missing", NULL);
    g_autofree char *empty = g_build_filename (dir, "empty", NULL);
    GError *error = NULL;

    o.redis_password = CANARY;
    o.redis_password_file = file;
    g_assert_null (hbase_index_open (fx.client, fx.table, &o, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    assert_no_canary (error);
    g_clear_error (&error);
    o.redis_password = NULL;
    o.redis_password_file = missing;
    g_assert_null (hbase_index_open (fx.client, fx.table, &o, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "missing"));
    g_clear_error (&error);
    g_assert_true (g_file_set_contents_full (empty, "\n" CANARY "\n", -1, G_FILE_SET_CONTENTS_NONE, 0600, NULL));
    o.redis_password_file = empty;
    g_assert_null (hbase_index_open (fx.client, fx.table, &o, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "empty"));
    assert_no_canary (error);
    g_clear_error (&error);
    o.redis_password_file = NULL;
    o.redis_username = "idx";
    g_assert_null (hbase_index_open (fx.client, fx.table, &o, NULL, &error));
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "needs a password"));
    g_clear_error (&error);
    g_assert_cmpint (g_unlink (empty), ==, 0);
  }
  /* the plain Redis, which has no password */
  {
    HBaseIndexOptions o = HBASE_INDEX_OPTIONS_INIT;
    g_autoptr(HBaseIndex) index = NULL;
    g_autoptr(GError) error = NULL;

    o.redis_host = ix_redis_host ();
    o.redis_port = ix_redis_port ();
    o.redis_password = CANARY;
    index = ix_open (&fx, &o);
    error = query_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_NOT_ENABLED);
    assert_no_canary (error);
  }

  /* a password file readable by its group: reported, by its mode; the
   * index marked dirty by a write (last: queries then refuse) logs the
   * mark's reason too */
  g_assert_cmpint (g_chmod (file, 0640), ==, 0);
  {
    HBaseIndexOptions o = options;
    g_autoptr(HBaseIndex) index = NULL;
    g_autoptr(GError) error = NULL;

    o.redis_password = NULL;
    o.redis_password_file = file;
    /* marked dirty instead of failing: the mark's message is logged too */
    o.on_redis_down = HBASE_INDEX_REDIS_DOWN_MARK_DIRTY;
    g_ptr_array_set_size (logged, 0);
    index = ix_open (&fx, &o);
    g_assert_true (logged_matching ("is readable by its group (mode 640)"));
    g_assert_true (logged_matching ("chmod 600"));
    error = query_error (index);
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_FAILED);
    assert_no_canary (error);
    g_clear_error (&error);
    g_assert_null (write_error (index));
    g_assert_true (logged_matching ("marked dirty"));
    g_assert_true (logged_matching ("WRONGPASS"));
  }
  g_assert_cmpint (g_unlink (file), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
  for (guint i = 0; i < logged->len; i++)
    if (strstr (g_ptr_array_index (logged, i), CANARY) != NULL)
      g_error ("the password was logged: %s", (char *) g_ptr_array_index (logged, i));
  g_log_remove_handler (G_LOG_DOMAIN, handler);
  g_clear_pointer (&logged, g_ptr_array_unref);
  ix_teardown (&fx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/index/auth/acl-user", test_acl_user);
  g_test_add_func ("/index/auth/legacy-password", test_legacy_password);
  g_test_add_func ("/index/auth/refused", test_refused);
  g_test_add_func ("/index/auth/reconnect", test_reconnect);
  g_test_add_func ("/index/auth/no-secret-anywhere", test_no_secret_anywhere);
  return g_test_run ();
}
