/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test, on the real stack (HBase through the binary/buffered
 * gateway, the stack's redis-server), of the index's Redis key spaces:
 *  - tables T (default namespace), T:x (namespace T) and default:U have
 *    key spaces that cannot overlap: rebuilding or dropping one leaves the
 *    others answering exactly as before, and a value of T that once made
 *    the same key as one of T:x ("n:v" under index x) stays apart;
 *  - "default:U" and "U" are one table: definitions made under one
 *    spelling are found under the other;
 *  - an index kept in the former layout ("prefix:TABLE", definitions under
 *    "default:NAME") is moved by hbase_index_migrate() and answers again,
 *    without a rebuild. */
#include "config.h"

#include <string.h>

#include "../index/index-support.h"

#define SKIP_UNLESS(ok) G_STMT_START { if (!(ok)) return; } G_STMT_END

typedef struct {
  HBaseClient *client;
  redisContext *redis;
  char *ns;               /* T: a namespace and a default table's name */
  char *t;                /* "T" */
  char *tx;               /* "T:x" */
  char *u;                /* "U" (defined as "default:U") */
  char *meta;
  char *prefix;
  HBaseIndexOptions options;
} Ks;

static HBaseIndexSpec *
spec_of (Ks *ks, const char *exact_name)
{
  HBaseIndexSpec *spec = hbase_index_spec_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_index_spec_set_key_prefix (spec, ks->prefix, &error));
  g_assert_true (hbase_index_spec_add (spec, exact_name, "f", "q", HBASE_INDEX_VALUE_STRING,
                                       HBASE_INDEX_EXACT, &error));
  g_assert_true (hbase_index_spec_add (spec, "age", "f", "age", HBASE_INDEX_VALUE_INT64,
                                       HBASE_INDEX_RANGE, &error));
  g_assert_no_error (error);
  return spec;
}

static void
create_table (Ks *ks, const char *name)
{
  g_autoptr(GError) error = NULL;
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;

  family.name = "f";
  g_assert_true (hbase_client_create_table (ks->client, name, &family, 1, NULL, NULL, &error));
  g_assert_no_error (error);
}

static gboolean
ks_setup (Ks *ks)
{
  g_autoptr(GPtrArray) gateways = test_stack_gateways ();
  const TestGateway *gateway = test_stack_require_gateway (gateways, HBASE_PROTOCOL_BINARY,
                                                           HBASE_TRANSPORT_BUFFERED);
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  struct timeval timeout = { 5, 0 };
  HBaseIndexOptions init = HBASE_INDEX_OPTIONS_INIT;

  memset (ks, 0, sizeof *ks);
  if (gateway == NULL || !test_stack_check_gateway (gateway))
    return FALSE;
  ks->redis = redisConnectWithTimeout (ix_redis_host (), (int) ix_redis_port (), timeout);
  if (ks->redis == NULL || ks->redis->err != 0)
    {
      test_stack_unreachable ("redis-server");
      return FALSE;
    }
  config = test_stack_config (gateway);
  ks->client = hbase_client_new (config);
  ks->ns = test_stack_unique_name ("hbase_glib_ks");
  ks->t = g_strdup (ks->ns);
  ks->tx = g_strconcat (ks->ns, ":x", NULL);
  ks->u = g_strconcat (ks->ns, "u", NULL);
  ks->meta = test_stack_unique_name ("hbase_glib_ks_meta");
  ks->prefix = test_stack_unique_name ("hbidx_ks");
  ks->options = init;
  ks->options.meta_table = ks->meta;
  ks->options.redis_host = ix_redis_host ();
  ks->options.redis_port = ix_redis_port ();
  g_assert_true (hbase_client_create_namespace (ks->client, ks->ns, NULL, &error));
  g_assert_no_error (error);
  create_table (ks, ks->t);
  create_table (ks, ks->tx);
  create_table (ks, ks->u);
  g_assert_true (hbase_index_create_meta_table (ks->client, &ks->options, NULL, &error));
  g_assert_no_error (error);
  return TRUE;
}

/* The keys of the run's prefix in Redis. */
static guint
n_keys (Ks *ks)
{
  redisReply *reply = redisCommand (ks->redis, "KEYS %s:*", ks->prefix);
  guint n;

  g_assert_nonnull (reply);
  g_assert_cmpint (reply->type, ==, REDIS_REPLY_ARRAY);
  n = (guint) reply->elements;
  freeReplyObject (reply);
  return n;
}

static void
ks_teardown (Ks *ks)
{
  g_autoptr(GError) error = NULL;
  const char *tables[] = { ks->t, ks->tx, ks->u, ks->meta };

  if (ks->client != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
        {
          hbase_client_delete_table (ks->client, tables[i], NULL, &error);
          g_assert_no_error (error);
        }
      g_assert_true (hbase_client_delete_namespace (ks->client, ks->ns, NULL, &error));
      g_assert_no_error (error);
    }
  /* nothing of this run may stay in the shared Redis */
  if (ks->redis != NULL)
    g_assert_cmpuint (n_keys (ks), ==, 0);
  g_clear_object (&ks->client);
  g_clear_pointer (&ks->redis, redisFree);
  g_free (ks->ns);
  g_free (ks->t);
  g_free (ks->tx);
  g_free (ks->u);
  g_free (ks->meta);
  g_free (ks->prefix);
}

static HBaseIndex *
open_index (Ks *ks, const char *table)
{
  g_autoptr(GError) error = NULL;
  HBaseIndex *index = hbase_index_open (ks->client, table, &ks->options, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (index);
  return index;
}

static HBaseIndex *
define_and_build (Ks *ks, const char *define_as, const char *open_as, const char *exact_name)
{
  g_autoptr(HBaseIndexSpec) spec = spec_of (ks, exact_name);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseIndexReport) report = NULL;
  HBaseIndex *index;

  g_assert_true (hbase_index_define (ks->client, define_as, spec, &ks->options, NULL, &error));
  g_assert_no_error (error);
  index = open_index (ks, open_as);
  report = hbase_index_rebuild (index, NULL, NULL, &error);
  g_assert_no_error (error);
  return index;
}

static void
put (HBaseIndex *index, const char *row, const char *q, const char *age)
{
  g_autofree char *q_pair = g_strconcat ("f:q=", q, NULL);
  g_autofree char *age_pair = g_strconcat ("f:age=", age, NULL);
  g_autoptr(HBaseMutation) write = ix_put (row, q_pair, age_pair, NULL);

  ix_apply (hbase_index_get_table (index), write);
}

/* "EXACT|RANGE": the rows whose exact index @name is @value, and those
 * whose age is in [0, 100]. */
static char *
answers (HBaseIndex *index, const char *name, const char *value)
{
  g_autoptr(GBytes) bytes = ix_bytes (value);
  g_autoptr(HBaseIndexQuery) exact = hbase_index_query_equal (name, bytes);
  gint64 lo = 0, hi = 100;
  g_autoptr(HBaseIndexQuery) range = hbase_index_query_range_int64 ("age", &lo, TRUE, &hi, TRUE);
  g_autofree char *a = ix_find (index, exact, NULL);
  g_autofree char *b = ix_find (index, range, NULL);

  return g_strdup_printf ("%s|%s", a, b);
}

#define ASSERT_ANSWERS(index, name, value, expected) G_STMT_START { \
    g_autofree char *found_ = answers ((index), (name), (value)); \
    g_assert_cmpstr (found_, ==, (expected)); \
  } G_STMT_END

/* The keys of @base (a new-layout base), renamed as the former layout
 * named them: "OLD" followed by what follows the base.  Returns how many. */
static guint
rename_to_former_layout (Ks *ks, const char *base, const char *old)
{
  redisReply *reply = redisCommand (ks->redis, "KEYS %s:*", base);
  guint n;

  g_assert_nonnull (reply);
  g_assert_cmpint (reply->type, ==, REDIS_REPLY_ARRAY);
  n = (guint) reply->elements;
  for (size_t i = 0; i < reply->elements; i++)
    {
      redisReply *key = reply->element[i];
      g_autofree char *renamed = NULL;
      redisReply *done;

      g_assert_true (g_str_has_prefix (key->str, base));
      renamed = g_strconcat (old, key->str + strlen (base), NULL);
      done = redisCommand (ks->redis, "RENAME %b %s", key->str, key->len, renamed);
      g_assert_nonnull (done);
      g_assert_cmpint (done->type, ==, REDIS_REPLY_STATUS);
      freeReplyObject (done);
    }
  freeReplyObject (reply);
  return n;
}

/* The definitions row of @from copied to @to, and @from deleted: where
 * the former version stored the definitions of "default:NAME". */
static void
move_definitions (Ks *ks, const char *from, const char *to)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseTable) meta = hbase_table_new (ks->client, ks->meta, &error);
  g_autoptr(GBytes) from_key = ix_bytes (from);
  g_autoptr(GBytes) to_key = ix_bytes (to);
  g_autoptr(HBaseRow) row = hbase_table_get (meta, from_key, NULL, NULL, &error);
  g_autoptr(HBaseMutation) copy = hbase_mutation_new_put (to_key);
  g_autoptr(HBaseMutation) remove = hbase_mutation_new_delete (from_key);

  g_assert_no_error (error);
  hbase_mutation_put (copy, "d", "spec", hbase_row_lookup (row, "d", "spec"));
  hbase_mutation_put (copy, "d", "version", hbase_row_lookup (row, "d", "version"));
  g_assert_true (hbase_table_apply (meta, copy, NULL, &error));
  g_assert_true (hbase_table_apply (meta, remove, NULL, &error));
  g_assert_no_error (error);
}

static void
migrate_done (GObject *source, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

/* hbase_index_migrate() through its _async/_finish pair, on this thread's
 * main context */
static gboolean
migrate_on_main_loop (HBaseIndex *index, guint64 *moved, GError **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  hbase_index_migrate_async (index, NULL, migrate_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return hbase_index_migrate_finish (index, result, moved, error);
}

/* @tx and @u's keys and definitions put back as the former version
 * left them (T:x's keys under "prefix:T:x", U's under "prefix:default:U",
 * U's definitions under "default:U"), then migrated: both answer again
 * without a rebuild, and a second migration moves nothing. */
static void
migrate_former_layout (Ks *ks, HBaseIndex **tx, HBaseIndex **u)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *default_u = g_strconcat ("default:", ks->u, NULL);
  g_autofree char *tx_base = g_strdup_printf ("%s:%zu=%s", ks->prefix, strlen (ks->tx), ks->tx);
  g_autofree char *tx_old = g_strdup_printf ("%s:%s", ks->prefix, ks->tx);
  g_autofree char *u_base = g_strdup_printf ("%s:%zu=%s", ks->prefix, strlen (ks->u), ks->u);
  g_autofree char *u_old = g_strdup_printf ("%s:%s", ks->prefix, default_u);
  guint tx_keys, u_keys;
  guint64 moved = 0;
  HBaseIndexState state;

  g_clear_object (tx);
  g_clear_object (u);
  tx_keys = rename_to_former_layout (ks, tx_base, tx_old);
  u_keys = rename_to_former_layout (ks, u_base, u_old);
  g_assert_cmpuint (tx_keys, >=, 5);   /* state, seq, records, a set, a sorted set */
  g_assert_cmpuint (u_keys, >=, 5);
  move_definitions (ks, ks->u, default_u);

  *tx = open_index (ks, ks->tx);
  *u = open_index (ks, ks->u);
  g_assert_true (hbase_index_get_state (*tx, &state, NULL, NULL, &error));
  g_assert_cmpint (state, ==, HBASE_INDEX_STATE_NOT_BUILT);
  g_assert_true (hbase_index_migrate (*tx, &moved, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (moved, ==, tx_keys);
  /* the async pair carries the count back as the call does */
  g_assert_true (migrate_on_main_loop (*u, &moved, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (moved, ==, u_keys);
  ASSERT_ANSWERS (*tx, "n", "v", "s1|s1,s2");
  ASSERT_ANSWERS (*u, "x", "n:v", "u1|u1");
  {
    g_autoptr(HBaseIndexReport) report = ix_verify (*u);

    g_assert_true (hbase_index_report_is_consistent (report));
  }
  /* writes go on in the current layout */
  put (*u, "u2", "n:v", "6");
  ASSERT_ANSWERS (*u, "x", "n:v", "u1,u2|u1,u2");
  /* done once: nothing more to move */
  g_assert_true (hbase_index_migrate (*u, &moved, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (moved, ==, 0);
}

/* T, T:x and default:U indexed side by side; each rebuilt in turn, then
 * T:x and U moved to the former layout and migrated back, then each
 * dropped in turn; the others answer exactly as they should all along. */
static void
test_key_spaces (void)
{
  Ks ks;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseIndex) t = NULL;
  g_autoptr(HBaseIndex) tx = NULL;
  g_autoptr(HBaseIndex) u = NULL;
  g_autofree char *default_u = NULL;
  guint keys_before;

  SKIP_UNLESS (ks_setup (&ks));
  default_u = g_strconcat ("default:", ks.u, NULL);
  /* T's index "x" holds the value "n:v" and T:x's index "n" the value "v":
   * "prefix:T" ":x:x:" "n:v" and "prefix:T:x" ":x:n:" "v" were one key */
  t = define_and_build (&ks, ks.t, ks.t, "x");
  tx = define_and_build (&ks, ks.tx, ks.tx, "n");
  /* defined under one spelling, opened under the other (index-query U) */
  u = define_and_build (&ks, default_u, ks.u, "x");
  put (t, "r1", "n:v", "1");
  put (t, "r2", "a:b", "2");
  put (tx, "s1", "v", "10");
  put (tx, "s2", "w", "20");
  put (u, "u1", "n:v", "5");

  ASSERT_ANSWERS (t, "x", "n:v", "r1|r1,r2");
  ASSERT_ANSWERS (t, "x", "a:b", "r2|r1,r2");
  ASSERT_ANSWERS (tx, "n", "v", "s1|s1,s2");
  ASSERT_ANSWERS (u, "x", "n:v", "u1|u1");
  {
    /* one table, both spellings: one index */
    g_autoptr(HBaseIndex) u_default = open_index (&ks, default_u);

    ASSERT_ANSWERS (u_default, "x", "n:v", "u1|u1");
  }

  /* rebuild (clear and refill) each in turn: the others keep their entries */
  {
    HBaseIndex *order[] = { t, tx, u };

    for (guint i = 0; i < G_N_ELEMENTS (order); i++)
      {
        g_autoptr(HBaseIndexReport) report = hbase_index_rebuild (order[i], NULL, NULL, &error);

        g_assert_no_error (error);
        ASSERT_ANSWERS (t, "x", "n:v", "r1|r1,r2");
        ASSERT_ANSWERS (tx, "n", "v", "s1|s1,s2");
        ASSERT_ANSWERS (u, "x", "n:v", "u1|u1");
      }
  }

  migrate_former_layout (&ks, &tx, &u);
  ASSERT_ANSWERS (t, "x", "n:v", "r1|r1,r2");

  /* drop T: T:x and U answer as before */
  keys_before = n_keys (&ks);
  g_assert_true (hbase_index_drop (t, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_keys (&ks), <, keys_before);
  ASSERT_ANSWERS (tx, "n", "v", "s1|s1,s2");
  ASSERT_ANSWERS (u, "x", "n:v", "u1,u2|u1,u2");
  {
    g_autoptr(HBaseIndexReport) report = ix_verify (tx);

    g_assert_true (hbase_index_report_is_consistent (report));
  }
  g_assert_true (hbase_index_drop (tx, NULL, &error));
  g_assert_no_error (error);
  ASSERT_ANSWERS (u, "x", "n:v", "u1,u2|u1,u2");
  {
    g_autoptr(HBaseIndexReport) report = ix_verify (u);

    g_assert_true (hbase_index_report_is_consistent (report));
  }
  /* dropped under the other spelling: the definitions are gone for both */
  {
    g_autoptr(HBaseIndex) u_default = open_index (&ks, default_u);

    g_assert_true (hbase_index_drop (u_default, NULL, &error));
    g_assert_no_error (error);
    g_assert_null (hbase_index_get_definitions (ks.client, ks.u, &ks.options, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX);
    g_clear_error (&error);
    g_assert_null (hbase_index_get_definitions (ks.client, default_u, &ks.options, NULL, &error));
    g_assert_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX);
    g_clear_error (&error);
  }
  g_clear_object (&t);
  g_clear_object (&tx);
  g_clear_object (&u);
  ks_teardown (&ks);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/index-keyspace/separate-and-migrate", test_key_spaces);
  return g_test_run ();
}
