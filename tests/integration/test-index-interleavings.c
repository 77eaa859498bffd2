/* Integration test of the Redis index on the real stack: interleavings
 * of a writer and a repair that random concurrent runs hit rarely, made
 * to happen in a fixed order.  A write is split into its two halves (the
 * write buffer's background flush uses the same split: before hook, then
 * HBase write and after hook), and the steps of a read repair (snapshot,
 * HBase read, repair script) run in between. */
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
  return g_test_run ();
}
