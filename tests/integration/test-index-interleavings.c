/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the Redis index on the real stack: interleavings
 * of writers, repairs and rebuilds that random concurrent runs hit
 * rarely, made to happen in a fixed order.  A write is split into its two
 * halves (the write buffer's background flush uses the same split: before
 * hook, then HBase write and after hook), and the steps of a read repair
 * (snapshot, HBase read, repair script), other writes, rebuilds and
 * repairs run in between.  Where the library has no split (the HBase
 * write apart from the after hook; check-and-mutate), the test runs the
 * same steps itself: the index's hooks, and the HBase call through the
 * table's un-indexed handle.  Every test asserts guarantees of
 * docs/index-consistency.md: nothing missing (verify), queries finding a
 * row exactly when HBase has the value.
 *
 * Long because: each scenario is a short script of the same step helpers;
 * split, the scenarios of one guarantee would scatter. */
#include "config.h"

#include "../index/index-support.h"
#include "../../src/index/hbase-index-private.h"
#include "../../src/table/hbase-table-call.h"

static GPtrArray *
one_key (const char *row)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  g_ptr_array_add (keys, ix_bytes (row));
  return keys;
}

static void
put_city (HBaseTable *table, const char *row, const char *city)
{
  g_autofree char *cell = g_strdup_printf ("f:city=%s", city);
  g_autoptr(HBaseMutation) put = ix_put (row, cell, NULL);

  ix_apply (table, put);
}

static GPtrArray *
read_rows (IndexCore *core, GPtrArray *keys)
{
  g_auto(GStrv) columns = _hbase_index_columns (core->spec);
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  GPtrArray *rows;

  read.columns = (const char *const *) columns;
  rows = hbase_table_get_multiple (core->plain, keys, &read, NULL, &error);
  g_assert_no_error (error);
  return rows;
}

/* The row's record lists @put as pending when the HBase read happens,
 * and @put lands in HBase after the read, before the repair: the read is
 * stale, so the repair must not make the index equal to it. */
static void
repair_around_write (IxFixture *fx, const char *row, HBaseMutation *put)
{
  IndexCore *core = fx->index->core;
  g_autoptr(GPtrArray) keys = one_key (row);
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GPtrArray) snapshots = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  TableCall *call;

  g_ptr_array_add (mutations, hbase_mutation_ref (put));
  call = _hbase_table_apply_multiple_prepare (hbase_index_get_table (fx->index), mutations, NULL,
                                              &error);
  g_assert_no_error (error);
  snapshots = _hbase_index_snapshot_rows (core, keys, FALSE, &error);
  g_assert_no_error (error);
  rows = read_rows (core, keys);
  g_assert_true (_hbase_table_apply_multiple_send (call, NULL, &error));
  g_assert_no_error (error);
  _hbase_table_call_free (call);
  g_assert_true (_hbase_index_repair_rows (core, keys, rows, snapshots, NULL, FALSE, NULL, NULL,
                                          &error));
  g_assert_no_error (error);
}

static void
assert_nothing_missing (IxFixture *fx)
{
  g_autoptr(HBaseIndexReport) report = ix_verify (fx->index);

  g_assert_cmpuint (hbase_index_report_get_missing (report), ==, 0);
}

/* The write makes an entry stale (its "after" step removes Lyon at once). */
static void
test_repair_during_changing_write (void)
{
  IxFixture fx;
  g_autoptr(HBaseMutation) put = NULL;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  put_city (hbase_index_get_table (fx.index), "r1", "Lyon");
  put = ix_put ("r1", "f:city=Paris", NULL);
  repair_around_write (&fx, "r1", put);
  g_assert_true (ix_in_set (&fx, "city", "Paris", "r1"));
  assert_nothing_missing (&fx);
  ix_teardown (&fx);
}

/* The write only adds a column: nothing goes stale, so its "after" step
 * leaves the row to be settled lazily, by whatever touches it next (here
 * the repair). */
static void
test_repair_during_adding_write (void)
{
  IxFixture fx;
  g_autoptr(HBaseMutation) put = NULL;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  put_city (hbase_index_get_table (fx.index), "r1", "Lyon");
  put = ix_put ("r1", "f:city=Lyon", "f:age=4", NULL);
  repair_around_write (&fx, "r1", put);
  g_assert_true (ix_in_set (&fx, "age", "4", "r1"));
  assert_nothing_missing (&fx);
  ix_teardown (&fx);
}

/* With nothing in flight, the same steps repair exactly: the entry of a
 * value the row no longer has goes (add-only repair would keep it). */
static void
test_repair_when_quiet (void)
{
  IxFixture fx;
  g_autoptr(GPtrArray) keys = one_key ("r1");
  g_autoptr(GPtrArray) snapshots = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  guint repaired = 0;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  put_city (hbase_index_get_table (fx.index), "r1", "Lyon");
  /* a write the index did not see */
  put_city (fx.index->core->plain, "r1", "Nice");
  snapshots = _hbase_index_snapshot_rows (fx.index->core, keys, FALSE, &error);
  g_assert_no_error (error);
  rows = read_rows (fx.index->core, keys);
  g_assert_true (_hbase_index_repair_rows (fx.index->core, keys, rows, snapshots, NULL, FALSE,
                                          &repaired, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (repaired, ==, 1);
  g_assert_true (ix_in_set (&fx, "city", "Nice", "r1"));
  g_assert_false (ix_in_set (&fx, "city", "Lyon", "r1"));
  ix_teardown (&fx);
}

static void
rebuild (IxFixture *fx)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseIndexReport) report = hbase_index_rebuild (fx->index, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (report);
}

/* A read repair's first two steps (snapshot, HBase read), its last step
 * left to the caller. */
typedef struct {
  GPtrArray *keys;
  GPtrArray *snapshots;
  GPtrArray *rows;
} Repair;

static void
repair_start (IxFixture *fx, const char *row, Repair *repair)
{
  g_autoptr(GError) error = NULL;

  repair->keys = one_key (row);
  repair->snapshots = _hbase_index_snapshot_rows (fx->index->core, repair->keys, FALSE, &error);
  g_assert_no_error (error);
  repair->rows = read_rows (fx->index->core, repair->keys);
}

static void
repair_finish (IxFixture *fx, Repair *repair)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (_hbase_index_repair_rows (fx->index->core, repair->keys, repair->rows,
                                          repair->snapshots, NULL, FALSE, NULL, NULL, &error));
  g_assert_no_error (error);
  g_ptr_array_unref (repair->keys);
  g_ptr_array_unref (repair->snapshots);
  g_ptr_array_unref (repair->rows);
}

/* A rebuild between the read and the repair makes the row's record anew
 * (sequence number 0, as the record the snapshot saw): the repair must
 * still see that the record is not the one it took a snapshot of, since
 * a write landed between the read and the rebuild's scan. */
static void
test_repair_across_rebuild (void)
{
  IxFixture fx;
  Repair repair;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  put_city (hbase_index_get_table (fx.index), "r1", "Lyon");
  rebuild (&fx);
  repair_start (&fx, "r1", &repair);
  put_city (hbase_index_get_table (fx.index), "r1", "Paris");
  rebuild (&fx);
  repair_finish (&fx, &repair);
  g_assert_true (ix_in_set (&fx, "city", "Paris", "r1"));
  assert_nothing_missing (&fx);
  ix_teardown (&fx);
}

/* --- split writes ----------------------------------------------------------------------------- */

/* A mutation of row @row from @what: "delete" (the row), "delete:F:Q"
 * (a column), else "F:Q=V,F:Q=V" (a put). */
static HBaseMutation *
mutation_of (const char *row, const char *what)
{
  g_autoptr(GBytes) key = ix_bytes (row);
  g_auto(GStrv) cells = NULL;
  HBaseMutation *mutation;

  if (g_str_has_prefix (what, "delete"))
    {
      mutation = hbase_mutation_new_delete (key);
      if (what[6] == ':')
        {
          g_auto(GStrv) column = g_strsplit (what + 7, ":", 2);

          hbase_mutation_delete_column (mutation, column[0], column[1]);
        }
      return mutation;
    }
  mutation = hbase_mutation_new_put (key);
  cells = g_strsplit (what, ",", -1);
  for (guint i = 0; cells[i] != NULL; i++)
    {
      const char *colon = strchr (cells[i], ':');
      const char *equal = strchr (cells[i], '=');
      g_autofree char *family = g_strndup (cells[i], (gsize) (colon - cells[i]));
      g_autofree char *qualifier = g_strndup (colon + 1, (gsize) (equal - colon - 1));
      g_autoptr(GBytes) value = ix_bytes (equal + 1);

      hbase_mutation_put (mutation, family, qualifier, value);
    }
  return mutation;
}

/* The first half of a write of @what to each row of the comma-separated
 * @rows: its before hook has run, nothing is in HBase yet. */
static TableCall *
prepare_rows (IxFixture *fx, const char *rows, const char *what)
{
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_auto(GStrv) keys = g_strsplit (rows, ",", -1);
  g_autoptr(GError) error = NULL;
  TableCall *call;

  for (guint i = 0; keys[i] != NULL; i++)
    g_ptr_array_add (mutations, mutation_of (keys[i], what));
  call = _hbase_table_apply_multiple_prepare (hbase_index_get_table (fx->index), mutations, NULL,
                                              &error);
  g_assert_no_error (error);
  g_assert_nonnull (call);
  return call;
}

static TableCall *
prepare (IxFixture *fx, const char *what)
{
  return prepare_rows (fx, "r1", what);
}

/* The second half: the HBase write and the after hook. */
static void
send (TableCall *call)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (_hbase_table_apply_multiple_send (call, NULL, &error));
  g_assert_no_error (error);
  _hbase_table_call_free (call);
}

static void
write_now (IxFixture *fx, const char *what)
{
  g_autoptr(HBaseMutation) mutation = mutation_of ("r1", what);

  ix_apply (hbase_index_get_table (fx->index), mutation);
}

/* The rows hbase_index_find() returns for INDEX=VALUE (@condition), with
 * the query's stats in @stats (nullable). */
static char *
find_stats (IxFixture *fx, const char *condition, HBaseIndexQueryStats *stats)
{
  g_auto(GStrv) pair = g_strsplit (condition, "=", 2);
  g_autoptr(HBaseIndexQuery) query = NULL;

  if (strcmp (pair[0], "city") == 0 || strcmp (pair[0], "tag") == 0)
    {
      g_autoptr(GBytes) value = ix_bytes (pair[1]);

      query = hbase_index_query_equal (pair[0], value);
    }
  else
    query = hbase_index_query_equal_int64 (pair[0], g_ascii_strtoll (pair[1], NULL, 10));
  return ix_find (fx->index, query, stats);
}

static void
assert_finds (IxFixture *fx, const char *condition, const char *rows)
{
  g_autofree char *found = find_stats (fx, condition, NULL);

  g_assert_cmpstr (found, ==, rows);
}

/* Whether r1, as HBase holds it now, has INDEX=VALUE (@condition). */
static gboolean
hbase_has (IxFixture *fx, const char *condition)
{
  g_auto(GStrv) pair = g_strsplit (condition, "=", 2);
  g_autoptr(GPtrArray) keys = one_key ("r1");
  g_autoptr(GPtrArray) rows = read_rows (fx->index->core, keys);
  GBytes *value = hbase_row_lookup (g_ptr_array_index (rows, 0), "f", pair[0]);
  g_autofree char *text = NULL;

  if (value == NULL)
    return FALSE;
  text = g_strndup (g_bytes_get_data (value, NULL), g_bytes_get_size (value));
  return strcmp (text, pair[1]) == 0;
}

/* The query for @condition finds r1 exactly when HBase's row has it:
 * guarantees 2 and 3 (no wrong row, no row missed). */
static void
assert_finds_as_hbase (IxFixture *fx, const char *condition)
{
  assert_finds (fx, condition, hbase_has (fx, condition) ? "r1" : "");
}

/* A write that overlaps nothing leaves exactly its values: what
 * overlapping writes left extra (guarantee 4) goes. */
static void
assert_clean_write_settles (IxFixture *fx)
{
  g_autoptr(HBaseIndexReport) report = NULL;

  write_now (fx, "f:city=Rome,f:age=9");
  report = ix_verify (fx->index);
  g_assert_cmpuint (hbase_index_report_get_missing (report), ==, 0);
  g_assert_cmpuint (hbase_index_report_get_extra (report), ==, 0);
  g_assert_cmpuint (hbase_index_report_get_in_doubt (report), ==, 0);
  assert_finds_as_hbase (fx, "city=Rome");
}

/* --- two writers on one row ------------------------------------------------------------------- */

typedef struct {
  const char *a, *b;          /* A prepares first, then B */
  gboolean b_lands_first;     /* HBase order B, A (else A, B) */
  const char *found[3];       /* conditions that find r1 afterwards */
  const char *not_found[3];   /* conditions that do not */
  /* ... or do as HBase has them: a put landing right after a delete of
   * the row or column in the same millisecond is masked by it (HBase
   * orders by timestamp) */
  const char *as_hbase[3];
} TwoWriters;

static void
test_two_writers (gconstpointer data)
{
  const TwoWriters *c = data;
  IxFixture fx;
  TableCall *a, *b;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon,f:age=3");
  a = prepare (&fx, c->a);
  b = prepare (&fx, c->b);
  if (c->b_lands_first)
    {
      send (b);
      send (a);
    }
  else
    {
      send (a);
      send (b);
    }
  assert_nothing_missing (&fx);
  for (guint i = 0; i < G_N_ELEMENTS (c->found) && c->found[i] != NULL; i++)
    assert_finds (&fx, c->found[i], "r1");
  for (guint i = 0; i < G_N_ELEMENTS (c->not_found) && c->not_found[i] != NULL; i++)
    assert_finds (&fx, c->not_found[i], "");
  for (guint i = 0; i < G_N_ELEMENTS (c->as_hbase) && c->as_hbase[i] != NULL; i++)
    assert_finds_as_hbase (&fx, c->as_hbase[i]);
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

static const TwoWriters two_writers[] = {
  { "f:city=Paris", "f:city=Nice", TRUE,
    { "city=Paris", "age=3" }, { "city=Nice", "city=Lyon" }, { NULL } },
  { "f:city=Paris", "f:city=Nice", FALSE,
    { "city=Nice", "age=3" }, { "city=Paris", "city=Lyon" }, { NULL } },
  { "f:city=Paris", "f:age=5", TRUE,
    { "city=Paris", "age=5" }, { "city=Lyon", "age=3" }, { NULL } },
  { "f:city=Paris", "f:age=5", FALSE,
    { "city=Paris", "age=5" }, { "city=Lyon", "age=3" }, { NULL } },
  { "delete:f:city", "f:city=Nice", TRUE,
    { "age=3" }, { "city=Nice", "city=Lyon" }, { NULL } },
  { "delete:f:city", "f:city=Nice", FALSE,
    { "age=3" }, { "city=Lyon" }, { "city=Nice" } },
  { "f:city=Nice", "delete:f:city", TRUE,
    { "age=3" }, { "city=Lyon" }, { "city=Nice" } },
  { "f:city=Nice", "delete:f:city", FALSE,
    { "age=3" }, { "city=Nice", "city=Lyon" }, { NULL } },
  { "delete", "f:city=Nice", TRUE,
    { NULL }, { "city=Nice", "city=Lyon", "age=3" }, { NULL } },
  { "delete", "f:city=Nice", FALSE,
    { NULL }, { "city=Lyon", "age=3" }, { "city=Nice" } },
  { "f:city=Nice,f:age=5", "delete", TRUE,
    { NULL }, { "city=Lyon", "age=3" }, { "city=Nice", "age=5" } },
  { "f:city=Nice,f:age=5", "delete", FALSE,
    { NULL }, { "city=Nice", "age=5", "city=Lyon" }, { NULL } },
};

static const char *const two_writer_names[] = {
  "same-column-b-lands-first", "same-column-a-lands-first",
  "other-columns-b-lands-first", "other-columns-a-lands-first",
  "delete-column-lands-last", "delete-column-lands-first",
  "put-then-delete-column-put-lands-last", "put-then-delete-column-delete-lands-last",
  "delete-row-lands-last", "delete-row-lands-first",
  "put-then-delete-row-put-lands-last", "put-then-delete-row-delete-lands-last",
};

/* --- check-and-mutate against a split write ------------------------------------------------- */

/* check-and-mutate has no split (its prepare and its call are private to
 * hbase-table-atomic.c): it runs whole while the other write is split
 * around it. */
static gboolean
check_and_mutate (IxFixture *fx, const char *city, const char *what)
{
  g_autoptr(GBytes) value = ix_bytes (city);
  HBaseCondition *condition = hbase_condition_new ("f", "city", HBASE_COMPARE_EQUAL, value);
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;
  gboolean applied = FALSE;

  g_ptr_array_add (mutations, mutation_of ("r1", what));
  g_assert_true (hbase_table_check_and_mutate (hbase_index_get_table (fx->index), condition,
                                               mutations, &applied, NULL, &error));
  g_assert_no_error (error);
  hbase_condition_free (condition);
  return applied;
}

/* A check-and-mutate not applied removes the entries it added, but not
 * one a write still pending added too. */
static void
test_check_and_mutate_not_applied_same_value (void)
{
  IxFixture fx;
  TableCall *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  write = prepare (&fx, "f:city=Paris");
  g_assert_false (check_and_mutate (&fx, "Nice", "f:city=Paris"));
  g_assert_true (ix_in_set (&fx, "city", "Paris", "r1"));
  send (write);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* ... nor one of the row's current value: a not-applied delete. */
static void
test_check_and_mutate_not_applied_delete (void)
{
  IxFixture fx;
  TableCall *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  write = prepare (&fx, "f:city=Paris");
  g_assert_false (check_and_mutate (&fx, "Nice", "delete:f:city"));
  assert_finds (&fx, "city=Lyon", "r1");
  send (write);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* An applied check-and-mutate lands between the other write's halves:
 * the other write lands last and wins. */
static void
test_check_and_mutate_applied_during_write (void)
{
  IxFixture fx;
  TableCall *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  write = prepare (&fx, "f:city=Paris");
  g_assert_true (check_and_mutate (&fx, "Lyon", "f:city=Nice"));
  assert_finds (&fx, "city=Nice", "r1");
  send (write);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  assert_finds (&fx, "city=Nice", "");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* --- a write failing in flight ------------------------------------------------------------- */

/* The second half of a write HBase refuses (a family the table does not
 * have): the call fails, so its outcome is unknown to the client. */
static void
send_failing (TableCall *call)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (_hbase_table_apply_multiple_send (call, NULL, &error));
  g_assert_nonnull (error);
  _hbase_table_call_free (call);
}

static void
test_failed_write (gconstpointer data)
{
  gboolean failed_lands_first = GPOINTER_TO_INT (data);
  IxFixture fx;
  g_autoptr(HBaseIndexReport) report = NULL;
  g_autoptr(HBaseIndexReport) repair = NULL;
  g_autoptr(HBaseIndexReport) settled = NULL;
  g_autoptr(GError) error = NULL;
  HBaseIndexMaintenanceOptions options = HBASE_INDEX_MAINTENANCE_OPTIONS_INIT;
  HBaseIndexQueryStats stats;
  g_autofree char *found = NULL;
  TableCall *failing, *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  failing = prepare (&fx, "f:city=Paris,nosuch:q=1");
  write = prepare (&fx, "f:city=Nice");
  if (failed_lands_first)
    {
      send_failing (failing);
      send (write);
    }
  else
    {
      send (write);
      send_failing (failing);
    }
  report = ix_verify (fx.index);
  g_assert_cmpuint (hbase_index_report_get_missing (report), ==, 0);
  g_assert_cmpuint (hbase_index_report_get_in_doubt (report), >=, 1);
  assert_finds (&fx, "city=Nice", "r1");
  /* in doubt until its lease ends: HBase might still apply it, so
   * neither a query's read repair nor a repair may drop its entry */
  found = find_stats (&fx, "city=Paris", &stats);
  g_assert_cmpstr (found, ==, "");
  g_assert_cmpuint (stats.repaired, ==, 0);
  g_assert_true (ix_in_set (&fx, "city", "Paris", "r1"));
  repair = hbase_index_repair (fx.index, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ix_in_set (&fx, "city", "Paris", "r1"));
  assert_nothing_missing (&fx);
  /* told that nothing is in flight, a repair makes the index exact */
  g_clear_pointer (&repair, hbase_index_report_free);
  repair = ix_repair (fx.index);
  settled = ix_verify (fx.index);
  g_assert_cmpuint (hbase_index_report_get_missing (settled), ==, 0);
  g_assert_cmpuint (hbase_index_report_get_extra (settled), ==, 0);
  g_assert_false (ix_in_set (&fx, "city", "Paris", "r1"));
  assert_finds (&fx, "city=Nice", "r1");
  ix_teardown (&fx);
}

/* --- writes around a rebuild or a repair -------------------------------------------------- */

static void
test_write_around_rebuild (void)
{
  IxFixture fx;
  TableCall *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  write = prepare (&fx, "f:city=Paris");
  rebuild (&fx);
  send (write);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  assert_finds (&fx, "city=Lyon", "");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* The rebuild forgets A's pending change, so B, prepared after it, does
 * not know it overlaps A. */
static void
test_two_writes_around_rebuild (gconstpointer data)
{
  gboolean b_lands_first = GPOINTER_TO_INT (data);
  IxFixture fx;
  TableCall *a, *b;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  a = prepare (&fx, "f:city=Paris");
  rebuild (&fx);
  b = prepare (&fx, "f:city=Nice");
  if (b_lands_first)
    {
      send (b);
      send (a);
    }
  else
    {
      send (a);
      send (b);
    }
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", b_lands_first ? "r1" : "");
  assert_finds (&fx, "city=Nice", b_lands_first ? "" : "r1");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* A repair not told that writers are quiet meets a pending change of a
 * row whose entries are wrong (a write the index did not see): it only
 * adds. */
static void
test_write_around_repair (void)
{
  IxFixture fx;
  g_autoptr(HBaseIndexReport) report = NULL;
  g_autoptr(GError) error = NULL;
  HBaseIndexMaintenanceOptions options = HBASE_INDEX_MAINTENANCE_OPTIONS_INIT;
  TableCall *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon,f:age=3");
  put_city (fx.index->core->plain, "r1", "Nice");
  write = prepare (&fx, "f:city=Paris");
  report = hbase_index_repair (fx.index, &options, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (ix_in_set (&fx, "city", "Paris", "r1"));
  g_assert_true (ix_in_set (&fx, "city", "Nice", "r1"));
  send (write);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  assert_finds (&fx, "city=Nice", "");
  assert_finds (&fx, "age=3", "r1");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* The rebuild forgets the write's pending change; a read repair then
 * takes its snapshot and reads the row before the write lands: nothing
 * in the record says the read may be stale. */
static void
test_repair_around_write_after_rebuild (void)
{
  IxFixture fx;
  Repair repair;
  TableCall *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  write = prepare (&fx, "f:city=Paris");
  rebuild (&fx);
  repair_start (&fx, "r1", &repair);
  send (write);
  repair_finish (&fx, &repair);
  g_assert_true (ix_in_set (&fx, "city", "Paris", "r1"));
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  ix_teardown (&fx);
}

/* The second half of a split write, split again: its HBase write alone
 * (the same mutations, through the table's un-indexed handle), and later
 * its after hook, told that every mutation was applied — what
 * _hbase_table_apply_multiple_send() does in one go. */
static void
land (IxFixture *fx, TableCall *call)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_table_apply_multiple (fx->index->core->plain, call->mutations, NULL,
                                             &error));
  g_assert_no_error (error);
}

static void
finish_applied (TableCall *call)
{
  g_autofree HBaseWriteOutcome *outcomes = g_new (HBaseWriteOutcome, call->mutations->len);

  g_assert_true (call->owes_after);
  for (guint i = 0; i < call->mutations->len; i++)
    outcomes[i] = _HBASE_WRITE_APPLIED;
  call->table->hooks->after (call->table, call->mutations, outcomes, NULL,
                             call->table->hooks_data);
  call->owes_after = FALSE;
  _hbase_table_call_free (call);
}

/* A rebuild forgets A's pending change; B, prepared then, lands in HBase
 * first, A lands and ends, and only then B's after hook runs: B must not
 * settle as the last writer. */
static void
test_late_after_around_rebuild (void)
{
  IxFixture fx;
  TableCall *a, *b;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  a = prepare (&fx, "f:city=Paris");
  rebuild (&fx);
  b = prepare (&fx, "f:city=Nice");
  land (&fx, b);
  send (a);
  finish_applied (b);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  assert_finds (&fx, "city=Nice", "");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* Without a rebuild: A prepared, B prepared (both know they overlap), B
 * lands, A lands and ends, B's after hook last. */
static void
test_late_after (void)
{
  IxFixture fx;
  TableCall *a, *b;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  a = prepare (&fx, "f:city=Paris");
  b = prepare (&fx, "f:city=Nice");
  land (&fx, b);
  send (a);
  finish_applied (b);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  assert_finds (&fx, "city=Nice", "");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* A read repair between a write's HBase write and its after hook. */
static void
test_repair_before_after (void)
{
  IxFixture fx;
  Repair repair;
  TableCall *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  write = prepare (&fx, "f:city=Paris");
  land (&fx, write);
  repair_start (&fx, "r1", &repair);
  repair_finish (&fx, &repair);
  g_assert_true (ix_in_set (&fx, "city", "Paris", "r1"));
  finish_applied (write);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  assert_finds (&fx, "city=Lyon", "");
  ix_teardown (&fx);
}

/* A split check-and-mutate, step by step as _hbase_table_call_run() runs
 * it: the index's before hook, the call itself (through the un-indexed
 * handle), the after hook with its outcome. */
typedef struct {
  GPtrArray *mutations;
  HBaseCondition *condition;
  gboolean applied;
} SplitCheck;

static void
check_before (IxFixture *fx, SplitCheck *check, const char *city, const char *what)
{
  HBaseTable *table = hbase_index_get_table (fx->index);
  g_autoptr(GBytes) value = ix_bytes (city);
  g_autoptr(GError) error = NULL;

  check->mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_ptr_array_add (check->mutations, mutation_of ("r1", what));
  check->condition = hbase_condition_new ("f", "city", HBASE_COMPARE_EQUAL, value);
  g_assert_true (table->hooks->before (table, check->mutations, table->hooks_data, NULL, &error));
  g_assert_no_error (error);
}

static void
check_land (IxFixture *fx, SplitCheck *check)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_table_check_and_mutate (fx->index->core->plain, check->condition,
                                               check->mutations, &check->applied, NULL, &error));
  g_assert_no_error (error);
}

static void
check_after (IxFixture *fx, SplitCheck *check)
{
  HBaseTable *table = hbase_index_get_table (fx->index);
  HBaseWriteOutcome outcome = check->applied ? _HBASE_WRITE_APPLIED : _HBASE_WRITE_NOT_APPLIED;

  table->hooks->after (table, check->mutations, &outcome, NULL, table->hooks_data);
  g_ptr_array_unref (check->mutations);
  hbase_condition_free (check->condition);
}

/* The check fails because a write prepared after (or before) its before
 * hook landed first. */
static void
test_split_check_not_applied (gconstpointer data)
{
  gboolean write_prepared_first = GPOINTER_TO_INT (data);
  IxFixture fx;
  SplitCheck check;
  TableCall *write = NULL;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  if (write_prepared_first)
    write = prepare (&fx, "f:city=Nice");
  check_before (&fx, &check, "Lyon", "f:city=Paris");
  if (write == NULL)
    write = prepare (&fx, "f:city=Nice");
  send (write);
  check_land (&fx, &check);
  g_assert_false (check.applied);
  check_after (&fx, &check);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Nice", "r1");
  assert_finds (&fx, "city=Paris", "");
  /* not applied: its entry goes at once, nothing else needs it */
  g_assert_false (ix_in_set (&fx, "city", "Paris", "r1"));
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* The check is applied between the halves of a write prepared after its
 * before hook; its after hook runs before or after the write ends. */
static void
test_split_check_applied (gconstpointer data)
{
  gboolean check_ends_last = GPOINTER_TO_INT (data);
  IxFixture fx;
  SplitCheck check;
  TableCall *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  check_before (&fx, &check, "Lyon", "f:city=Paris");
  write = prepare (&fx, "f:city=Nice");
  check_land (&fx, &check);
  g_assert_true (check.applied);
  if (check_ends_last)
    {
      send (write);
      check_after (&fx, &check);
    }
  else
    {
      check_after (&fx, &check);
      send (write);
    }
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Nice", "r1");
  assert_finds (&fx, "city=Paris", "");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* A write that failed in flight but was applied by HBase (the outcome
 * the client sees is unknown), landing last. */
static void
test_in_doubt_but_applied (void)
{
  IxFixture fx;
  g_autoptr(HBaseIndexReport) report = NULL;
  g_autoptr(HBaseIndexReport) repair = NULL;
  HBaseIndexQueryStats stats;
  g_autofree char *found = NULL;
  g_autofree HBaseWriteOutcome *outcomes = NULL;
  TableCall *doubt, *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  doubt = prepare (&fx, "f:city=Paris");
  write = prepare (&fx, "f:city=Nice");
  send (write);
  land (&fx, doubt);
  outcomes = g_new (HBaseWriteOutcome, 1);
  outcomes[0] = _HBASE_WRITE_UNKNOWN;
  doubt->table->hooks->after (doubt->table, doubt->mutations, outcomes, NULL,
                              doubt->table->hooks_data);
  doubt->owes_after = FALSE;
  _hbase_table_call_free (doubt);
  report = ix_verify (fx.index);
  g_assert_cmpuint (hbase_index_report_get_missing (report), ==, 0);
  g_assert_cmpuint (hbase_index_report_get_in_doubt (report), ==, 1);
  assert_finds (&fx, "city=Paris", "r1");
  found = find_stats (&fx, "city=Nice", &stats);
  g_assert_cmpstr (found, ==, "");
  g_assert_cmpuint (stats.repaired, ==, 0);
  repair = ix_repair (fx.index);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  g_assert_false (ix_in_set (&fx, "city", "Nice", "r1"));
  ix_teardown (&fx);
}

/* --- bulk writes (the pipeline "before") against single-row writes ------------------------ */

#define BULK_ROWS "r1,r2,r3,r4,r5,r6,r7,r8"

typedef struct {
  gboolean existing;          /* the rows have records already */
  gboolean bulk_prepared_first;
  gboolean bulk_lands_first;
} BulkCase;

static void
test_bulk_and_single (gconstpointer data)
{
  const BulkCase *c = data;
  IxFixture fx;
  TableCall *bulk, *single;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  if (c->existing)
    {
      TableCall *first = prepare_rows (&fx, BULK_ROWS, "f:city=Lyon");

      send (first);
    }
  if (c->bulk_prepared_first)
    {
      bulk = prepare_rows (&fx, BULK_ROWS, "f:city=Paris");
      single = prepare (&fx, "f:city=Nice");
    }
  else
    {
      single = prepare (&fx, "f:city=Nice");
      bulk = prepare_rows (&fx, BULK_ROWS, "f:city=Paris");
    }
  if (c->bulk_lands_first)
    {
      send (bulk);
      send (single);
    }
  else
    {
      send (single);
      send (bulk);
    }
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", c->bulk_lands_first ? "r2,r3,r4,r5,r6,r7,r8" : BULK_ROWS);
  assert_finds (&fx, "city=Nice", c->bulk_lands_first ? "r1" : "");
  assert_finds (&fx, "city=Lyon", "");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

static const BulkCase bulk_cases[] = {
  { FALSE, TRUE, TRUE }, { FALSE, TRUE, FALSE }, { FALSE, FALSE, TRUE }, { FALSE, FALSE, FALSE },
  { TRUE, TRUE, TRUE }, { TRUE, TRUE, FALSE }, { TRUE, FALSE, TRUE }, { TRUE, FALSE, FALSE },
};

/* A read repair's snapshot and read on either side of a bulk write's
 * "before" (rows without records: the pipeline makes them). */
static void
test_repair_and_bulk (gconstpointer data)
{
  gboolean repair_first = GPOINTER_TO_INT (data);
  IxFixture fx;
  Repair repair;
  TableCall *bulk;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  if (repair_first)
    {
      repair_start (&fx, "r1", &repair);
      bulk = prepare_rows (&fx, BULK_ROWS, "f:city=Paris");
    }
  else
    {
      bulk = prepare_rows (&fx, BULK_ROWS, "f:city=Paris");
      repair_start (&fx, "r1", &repair);
    }
  send (bulk);
  repair_finish (&fx, &repair);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", BULK_ROWS);
  ix_teardown (&fx);
}

/* A bulk write prepared on rows without records (the pipeline makes
 * them), a rebuild, then a single-row write of one of the rows that no
 * longer sees the bulk write pending. */
static void
test_bulk_around_rebuild (gconstpointer data)
{
  gboolean single_lands_first = GPOINTER_TO_INT (data);
  IxFixture fx;
  TableCall *bulk, *single;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  bulk = prepare_rows (&fx, BULK_ROWS, "f:city=Paris");
  rebuild (&fx);
  single = prepare (&fx, "f:city=Nice");
  if (single_lands_first)
    {
      send (single);
      send (bulk);
    }
  else
    {
      send (bulk);
      send (single);
    }
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", single_lands_first ? BULK_ROWS : "r2,r3,r4,r5,r6,r7,r8");
  assert_finds (&fx, "city=Nice", single_lands_first ? "" : "r1");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* --- values known only after the write ------------------------------------------------------ */

/* An increment (learns its value from the row HBase returns; it has no
 * split, so it runs whole) between the halves of a put or a delete of
 * the counter. */
static void
test_increment_during_write (gconstpointer data)
{
  gboolean delete = GPOINTER_TO_INT (data);
  IxFixture fx;
  g_autoptr(GBytes) key = ix_bytes ("r1");
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;
  HBaseTable *table;
  HBaseMutation *mutation;
  TableCall *write;
  gint64 value = 0;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  table = hbase_index_get_table (fx.index);
  g_assert_true (hbase_table_set_counter (table, key, "f", "hits", 7, NULL, &error));
  g_assert_no_error (error);
  if (delete)
    mutation = mutation_of ("r1", "delete:f:hits");
  else
    {
      g_autoptr(GBytes) hundred = hbase_counter_encode (100);

      mutation = hbase_mutation_new_put (key);
      hbase_mutation_put (mutation, "f", "hits", hundred);
    }
  g_ptr_array_add (mutations, mutation);
  write = _hbase_table_apply_multiple_prepare (table, mutations, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (hbase_table_increment_counter (table, key, "f", "hits", 5, &value, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (value, ==, 12);
  assert_finds (&fx, "hits=12", "r1");
  send (write);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "hits=12", "");
  assert_finds (&fx, "hits=100", delete ? "" : "r1");
  assert_finds (&fx, "hits=7", "");
  ix_teardown (&fx);
}

/* Two puts of one column in one call: which HBase keeps is read after
 * the write; another writer lands before or after it. */
static void
test_several_puts_and_writer (gconstpointer data)
{
  gboolean other_lands_first = GPOINTER_TO_INT (data);
  IxFixture fx;
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;
  TableCall *several, *other;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  g_ptr_array_add (mutations, mutation_of ("r1", "f:city=Paris"));
  g_ptr_array_add (mutations, mutation_of ("r1", "f:city=Rome"));
  several = _hbase_table_apply_multiple_prepare (hbase_index_get_table (fx.index), mutations, NULL,
                                                 &error);
  g_assert_no_error (error);
  other = prepare (&fx, "f:city=Nice");
  if (other_lands_first)
    {
      send (other);
      send (several);
    }
  else
    {
      send (several);
      send (other);
    }
  assert_nothing_missing (&fx);
  assert_finds_as_hbase (&fx, "city=Paris");
  assert_finds_as_hbase (&fx, "city=Rome");
  assert_finds (&fx, "city=Nice", other_lands_first ? "" : "r1");
  assert_finds (&fx, "city=Lyon", "");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

/* --- queries (read repair) while a write is in flight ------------------------------------- */

/* The query meets the new value's entry before the write landed: the row
 * does not match yet, and the repair must keep the entry. */
static void
test_find_during_write (void)
{
  IxFixture fx;
  HBaseIndexQueryStats stats;
  g_autofree char *found = NULL;
  TableCall *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  write = prepare (&fx, "f:city=Paris");
  found = find_stats (&fx, "city=Paris", &stats);
  g_assert_cmpstr (found, ==, "");
  g_assert_cmpuint (stats.stale, ==, 1);
  g_assert_cmpuint (stats.repaired, ==, 0);
  g_assert_true (ix_in_set (&fx, "city", "Paris", "r1"));
  assert_finds (&fx, "city=Lyon", "r1");
  send (write);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  assert_finds (&fx, "city=Lyon", "");
  ix_teardown (&fx);
}

/* The query meets a stale entry (a write the index did not see) while an
 * indexed write is prepared, and again after it was sent. */
static void
test_find_stale_during_write (void)
{
  IxFixture fx;
  HBaseIndexQueryStats stats;
  g_autofree char *found = NULL;
  g_autofree char *again = NULL;
  TableCall *write;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon,f:age=3");
  put_city (fx.index->core->plain, "r1", "Nice");
  write = prepare (&fx, "f:age=4");
  found = find_stats (&fx, "city=Lyon", &stats);
  g_assert_cmpstr (found, ==, "");
  g_assert_cmpuint (stats.repaired, ==, 0);
  send (write);
  assert_finds (&fx, "age=4", "r1");
  /* nothing in flight now: the repair is exact */
  again = find_stats (&fx, "city=Lyon", &stats);
  g_assert_cmpstr (again, ==, "");
  g_assert_cmpuint (stats.repaired, ==, 1);
  g_assert_false (ix_in_set (&fx, "city", "Lyon", "r1"));
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Nice", "r1");
  ix_teardown (&fx);
}

/* Two writers, the query between their landings. */
static void
test_find_between_writers (void)
{
  IxFixture fx;
  HBaseIndexQueryStats stats;
  g_autofree char *found = NULL;
  TableCall *a, *b;

  if (!ix_setup (&fx, ix_sample_spec (), NULL))
    return;
  write_now (&fx, "f:city=Lyon");
  a = prepare (&fx, "f:city=Paris");
  b = prepare (&fx, "f:city=Nice");
  send (b);
  assert_finds (&fx, "city=Nice", "r1");
  found = find_stats (&fx, "city=Paris", &stats);
  g_assert_cmpstr (found, ==, "");
  g_assert_cmpuint (stats.repaired, ==, 0);
  send (a);
  assert_nothing_missing (&fx);
  assert_finds (&fx, "city=Paris", "r1");
  assert_finds (&fx, "city=Nice", "");
  assert_clean_write_settles (&fx);
  ix_teardown (&fx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/integration/index/interleavings/repair-during-changing-write",
                   test_repair_during_changing_write);
  g_test_add_func ("/integration/index/interleavings/repair-during-adding-write",
                   test_repair_during_adding_write);
  g_test_add_func ("/integration/index/interleavings/repair-when-quiet", test_repair_when_quiet);
  g_test_add_func ("/integration/index/interleavings/repair-across-rebuild",
                   test_repair_across_rebuild);
  G_STATIC_ASSERT (G_N_ELEMENTS (two_writers) == G_N_ELEMENTS (two_writer_names));
  for (guint i = 0; i < G_N_ELEMENTS (two_writers); i++)
    {
      g_autofree char *path = g_strdup_printf ("/integration/index/interleavings/two-writers/%s",
                                               two_writer_names[i]);

      g_test_add_data_func (path, &two_writers[i], test_two_writers);
    }
  g_test_add_func ("/integration/index/interleavings/check-and-mutate/not-applied-same-value",
                   test_check_and_mutate_not_applied_same_value);
  g_test_add_func ("/integration/index/interleavings/check-and-mutate/not-applied-delete",
                   test_check_and_mutate_not_applied_delete);
  g_test_add_func ("/integration/index/interleavings/check-and-mutate/applied-during-write",
                   test_check_and_mutate_applied_during_write);
  g_test_add_data_func ("/integration/index/interleavings/failed-write/lands-first",
                        GINT_TO_POINTER (TRUE), test_failed_write);
  g_test_add_data_func ("/integration/index/interleavings/failed-write/lands-last",
                        GINT_TO_POINTER (FALSE), test_failed_write);
  g_test_add_func ("/integration/index/interleavings/rebuild/write-around",
                   test_write_around_rebuild);
  g_test_add_data_func ("/integration/index/interleavings/rebuild/two-writes-b-lands-first",
                        GINT_TO_POINTER (TRUE), test_two_writes_around_rebuild);
  g_test_add_data_func ("/integration/index/interleavings/rebuild/two-writes-a-lands-first",
                        GINT_TO_POINTER (FALSE), test_two_writes_around_rebuild);
  g_test_add_func ("/integration/index/interleavings/rebuild/repair-around-write",
                   test_repair_around_write_after_rebuild);
  g_test_add_func ("/integration/index/interleavings/late-after/around-rebuild",
                   test_late_after_around_rebuild);
  g_test_add_func ("/integration/index/interleavings/late-after/two-writers", test_late_after);
  g_test_add_func ("/integration/index/interleavings/late-after/repair-between",
                   test_repair_before_after);
  g_test_add_data_func ("/integration/index/interleavings/split-check/not-applied-write-first",
                        GINT_TO_POINTER (TRUE), test_split_check_not_applied);
  g_test_add_data_func ("/integration/index/interleavings/split-check/not-applied-check-first",
                        GINT_TO_POINTER (FALSE), test_split_check_not_applied);
  g_test_add_data_func ("/integration/index/interleavings/split-check/applied-ends-last",
                        GINT_TO_POINTER (TRUE), test_split_check_applied);
  g_test_add_data_func ("/integration/index/interleavings/split-check/applied-ends-first",
                        GINT_TO_POINTER (FALSE), test_split_check_applied);
  g_test_add_func ("/integration/index/interleavings/late-after/in-doubt-but-applied",
                   test_in_doubt_but_applied);
  g_test_add_func ("/integration/index/interleavings/repair/write-around",
                   test_write_around_repair);
  for (guint i = 0; i < G_N_ELEMENTS (bulk_cases); i++)
    {
      const BulkCase *c = &bulk_cases[i];
      g_autofree char *path = g_strdup_printf ("/integration/index/interleavings/bulk/%s-%s-prepared-"
                                               "first-%s-lands-first",
                                               c->existing ? "existing" : "new",
                                               c->bulk_prepared_first ? "bulk" : "single",
                                               c->bulk_lands_first ? "bulk" : "single");

      g_test_add_data_func (path, c, test_bulk_and_single);
    }
  g_test_add_data_func ("/integration/index/interleavings/bulk/around-rebuild-single-lands-first",
                        GINT_TO_POINTER (TRUE), test_bulk_around_rebuild);
  g_test_add_data_func ("/integration/index/interleavings/bulk/around-rebuild-bulk-lands-first",
                        GINT_TO_POINTER (FALSE), test_bulk_around_rebuild);
  g_test_add_data_func ("/integration/index/interleavings/bulk/repair-snapshot-first",
                        GINT_TO_POINTER (TRUE), test_repair_and_bulk);
  g_test_add_data_func ("/integration/index/interleavings/bulk/repair-snapshot-after",
                        GINT_TO_POINTER (FALSE), test_repair_and_bulk);
  g_test_add_data_func ("/integration/index/interleavings/known-after/increment-during-put",
                        GINT_TO_POINTER (FALSE), test_increment_during_write);
  g_test_add_data_func ("/integration/index/interleavings/known-after/increment-during-delete",
                        GINT_TO_POINTER (TRUE), test_increment_during_write);
  g_test_add_data_func ("/integration/index/interleavings/known-after/several-puts-land-last",
                        GINT_TO_POINTER (TRUE), test_several_puts_and_writer);
  g_test_add_data_func ("/integration/index/interleavings/known-after/several-puts-land-first",
                        GINT_TO_POINTER (FALSE), test_several_puts_and_writer);
  g_test_add_func ("/integration/index/interleavings/find/during-write", test_find_during_write);
  g_test_add_func ("/integration/index/interleavings/find/stale-during-write",
                   test_find_stale_during_write);
  g_test_add_func ("/integration/index/interleavings/find/between-writers",
                   test_find_between_writers);
  return g_test_run ();
}
