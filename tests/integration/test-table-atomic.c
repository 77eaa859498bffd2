/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the atomic operations of HBaseTable against the real
 * stack: increment, append, 64-bit counters (also under concurrent
 * writers), check-and-mutate with every compare operator and the
 * absent/present tests, their async variants, and the checks made before
 * sending.
 *
 * Runs on the binary/buffered and the compact/framed gateways (the two
 * ends of the protocol/transport matrix; test-table covers all four), and
 * every case on the native backend too. */
#include "config.h"

#include <string.h>

#include "../support/test-rows.h"
#include "../support/test-table-fixture.h"
#include "../support/test-waiter.h"

typedef TestTableFixture Fixture;

#define SKIP_IF_UNREACHABLE TEST_SKIP_IF_UNREACHABLE

static char *
read_back (Fixture *fixture, GBytes *row)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseRow) result = hbase_table_get (fixture->table, row, NULL, NULL, &error);

  g_assert_no_error (error);
  return test_row_summary (result, FALSE);
}

static void
put_text (Fixture *fixture, GBytes *row, const char *family, const char *qualifier,
          const char *value)
{
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(GBytes) bytes = test_text (value);
  g_autoptr(GError) error = NULL;

  hbase_mutation_put (put, family, qualifier, bytes);
  g_assert_true (hbase_table_apply (fixture->table, put, NULL, &error));
  g_assert_no_error (error);
}

static gint64
counter_of (HBaseRow *row, const char *family, const char *qualifier)
{
  g_autoptr(GError) error = NULL;
  gint64 value = G_MININT64;

  g_assert_nonnull (hbase_row_lookup (row, family, qualifier));
  g_assert_true (hbase_counter_decode (hbase_row_lookup (row, family, qualifier), &value, &error));
  g_assert_no_error (error);
  return value;
}

/* --- increment and append ---------------------------------------------------------------- */

static void
test_increment (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(HBaseMutation) first = hbase_mutation_new_increment (row);
  g_autoptr(HBaseMutation) second = hbase_mutation_new_increment (row);
  g_autoptr(HBaseRow) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) qualifier = g_bytes_new ("\x00\xff", 2);
  g_autoptr(GBytes) family = test_text ("g");

  SKIP_IF_UNREACHABLE (fixture);
  /* missing cells count as 0; several columns of two families at once */
  hbase_mutation_increment (first, "f", "a", 5);
  hbase_mutation_increment (first, "f", "b", -7);
  hbase_mutation_increment_bytes (first, family, qualifier, G_MAXINT64);
  result = hbase_table_increment (fixture->table, first, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hbase_row_get_n_cells (result), ==, 3);
  g_assert_cmpint (counter_of (result, "f", "a"), ==, 5);
  g_assert_cmpint (counter_of (result, "f", "b"), ==, -7);
  g_clear_pointer (&result, hbase_row_unref);

  hbase_mutation_increment (second, "f", "a", 10);
  hbase_mutation_increment (second, "f", "b", 0);
  result = hbase_table_increment (fixture->table, second, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (counter_of (result, "f", "a"), ==, 15);
  g_assert_cmpint (counter_of (result, "f", "b"), ==, -7);
  g_clear_pointer (&result, hbase_row_unref);

  /* stored as Bytes.toBytes(long): 8 bytes big-endian */
  {
    g_autofree char *stored = read_back (fixture, row);

    g_assert_cmpstr (stored, ==,
                     "f:a=\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x0f "
                     "f:b=\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xf9 "
                     "g:\\x00\\xff=\\x7f\\xff\\xff\\xff\\xff\\xff\\xff\\xff");
  }
}

static void
test_increment_not_a_counter (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(HBaseMutation) increment = hbase_mutation_new_increment (row);
  g_autoptr(HBaseRow) result = NULL;
  g_autoptr(GError) error = NULL;
  gint64 value = 99;

  SKIP_IF_UNREACHABLE (fixture);
  put_text (fixture, row, "f", "text", "hello");
  put_text (fixture, row, "f", "other", "x");
  hbase_mutation_increment (increment, "f", "text", 1);
  hbase_mutation_increment (increment, "f", "other2", 1);
  result = hbase_table_increment (fixture->table, increment, NULL, &error);
  g_assert_null (result);
  /* HBase's own words reach the caller, and nothing was applied */
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "not a long"));
  g_clear_error (&error);
  {
    g_autofree char *stored = read_back (fixture, row);

    g_assert_cmpstr (stored, ==, "f:other=x f:text=hello");
  }

  /* reading it as a counter is a BAD_DATA error, not a wrong number */
  g_assert_false (hbase_table_get_counter (fixture->table, row, "f", "text", &value, NULL,
                                           &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA);
  g_assert_nonnull (strstr (error->message, "5"));
}

static void
test_append (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(HBaseMutation) append = hbase_mutation_new_append (row);
  g_autoptr(HBaseMutation) again = hbase_mutation_new_append (row);
  g_autoptr(GBytes) abc = test_text ("abc");
  g_autoptr(GBytes) binary = g_bytes_new ("\x00'(,\xff", 5);
  g_autoptr(GBytes) family = test_text ("g");
  g_autoptr(GBytes) qualifier = g_bytes_new ("\x00\xff", 2);
  g_autoptr(HBaseRow) result = NULL;
  g_autoptr(GError) error = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  put_text (fixture, row, "f", "a", "start-");
  hbase_mutation_append (append, "f", "a", abc);
  hbase_mutation_append (append, "g", NULL, binary);
  result = hbase_table_append (fixture->table, append, NULL, &error);
  g_assert_no_error (error);
  {
    g_autofree char *returned = test_row_summary (result, FALSE);

    g_assert_cmpstr (returned, ==, "f:a=start-abc g:=\\x00'(,\\xff");
  }
  g_clear_pointer (&result, hbase_row_unref);
  hbase_mutation_append (again, "f", "a", abc);
  /* a column given as bytes: a qualifier with a NUL byte */
  hbase_mutation_append_bytes (again, family, qualifier, abc);
  result = hbase_table_append (fixture->table, again, NULL, &error);
  g_assert_no_error (error);
  {
    g_autofree char *stored = read_back (fixture, row);

    g_assert_cmpstr (stored, ==, "f:a=start-abcabc g:=\\x00'(,\\xff g:\\x00\\xff=abc");
  }
}

/* --- counters ----------------------------------------------------------------------------- */

static void
test_counters (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(GError) error = NULL;
  gint64 value = 42;

  SKIP_IF_UNREACHABLE (fixture);
  /* a missing counter reads as 0 */
  g_assert_true (hbase_table_get_counter (fixture->table, row, "f", "n", &value, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (value, ==, 0);

  g_assert_true (hbase_table_set_counter (fixture->table, row, "f", "n", G_MININT64 + 1, NULL,
                                          &error));
  g_assert_no_error (error);
  g_assert_true (hbase_table_increment_counter (fixture->table, row, "f", "n", -1, &value, NULL,
                                                &error));
  g_assert_no_error (error);
  g_assert_cmpint (value, ==, G_MININT64);
  g_assert_true (hbase_table_get_counter (fixture->table, row, "f", "n", &value, NULL, &error));
  g_assert_cmpint (value, ==, G_MININT64);

  /* amount 0 reads through the increment path; NULL qualifier = empty */
  g_assert_true (hbase_table_increment_counter (fixture->table, row, "g", NULL, 0, &value, NULL,
                                                &error));
  g_assert_no_error (error);
  g_assert_cmpint (value, ==, 0);
  g_assert_true (hbase_table_increment_counter (fixture->table, row, "g", NULL, 1000000000000,
                                                NULL, NULL, &error));
  g_assert_true (hbase_table_get_counter (fixture->table, row, "g", "", &value, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (value, ==, 1000000000000);

  /* bad input */
  g_assert_false (hbase_table_increment_counter (fixture->table, row, NULL, "n", 1, &value, NULL,
                                                 &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_table_get_counter (fixture->table, NULL, "f", "n", &value, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_table_set_counter (fixture->table, row, "nofamily", "n", 1, NULL,
                                           &error));
  g_assert_nonnull (error);
}

#define THREADS 4
#define INCREMENTS_PER_THREAD 50

typedef struct {
  HBaseTable *table;
  GBytes *row;
} Worker;

static gpointer
increment_worker (gpointer data)
{
  Worker *worker = data;

  for (guint i = 0; i < INCREMENTS_PER_THREAD; i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_true (hbase_table_increment_counter (worker->table, worker->row, "f", "n", 3,
                                                    NULL, NULL, &error));
      g_assert_no_error (error);
    }
  return NULL;
}

static void
test_counters_concurrent (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  GThread *threads[THREADS];
  Worker worker;
  g_autoptr(GError) error = NULL;
  gint64 value = 0;

  SKIP_IF_UNREACHABLE (fixture);
  worker.table = fixture->table;
  worker.row = row;
  for (guint i = 0; i < THREADS; i++)
    threads[i] = g_thread_new ("increment", increment_worker, &worker);
  for (guint i = 0; i < THREADS; i++)
    g_thread_join (threads[i]);
  g_assert_true (hbase_table_get_counter (fixture->table, row, "f", "n", &value, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (value, ==, THREADS * INCREMENTS_PER_THREAD * 3);
}

/* --- check-and-mutate --------------------------------------------------------------------- */

/* Runs check-and-mutate on a row whose f:c is "m" (or absent when
 * @stored is NULL) with the condition f:c OP @given, putting f:done. */
static gboolean
check_passes (Fixture *fixture, const char *suffix, const char *stored, HBaseCompareOp op,
              const char *given)
{
  g_autoptr(GBytes) row = test_key (suffix);
  g_autoptr(GBytes) given_bytes = given != NULL ? test_text (given) : NULL;
  g_autoptr(HBaseCondition) condition = hbase_condition_new ("f", "c", op, given_bytes);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(GBytes) yes = test_text ("yes");
  g_autoptr(GPtrArray) mutations = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *after = NULL;
  gboolean applied = !FALSE;

  if (stored != NULL)
    put_text (fixture, row, "f", "c", stored);
  hbase_mutation_put (put, "f", "done", yes);
  g_ptr_array_add (mutations, put);
  g_assert_true (hbase_table_check_and_mutate (fixture->table, condition, mutations, &applied,
                                               NULL, &error));
  g_assert_no_error (error);
  /* the reply and the row agree */
  after = read_back (fixture, row);
  g_assert_cmpint (strstr (after, "f:done=yes") != NULL, ==, applied);
  return applied;
}

static void
test_check_operators (Fixture *fixture, gconstpointer data)
{
  /* stored "m" compared with "a" (cell greater), "m" (equal), "z" (cell
   * less); the expectation reads "cell OP given".  (NO_OP is refused
   * before sending: see check-bad-input.) */
  static const struct {
    HBaseCompareOp op;
    gboolean with_a, with_m, with_z;
  } cases[] = {
    { HBASE_COMPARE_LESS, FALSE, FALSE, TRUE },
    { HBASE_COMPARE_LESS_OR_EQUAL, FALSE, TRUE, TRUE },
    { HBASE_COMPARE_EQUAL, FALSE, TRUE, FALSE },
    { HBASE_COMPARE_NOT_EQUAL, TRUE, FALSE, TRUE },
    { HBASE_COMPARE_GREATER_OR_EQUAL, TRUE, TRUE, FALSE },
    { HBASE_COMPARE_GREATER, TRUE, FALSE, FALSE },
  };

  SKIP_IF_UNREACHABLE (fixture);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *a = g_strdup_printf ("op%u-a", i);
      g_autofree char *m = g_strdup_printf ("op%u-m", i);
      g_autofree char *z = g_strdup_printf ("op%u-z", i);
      g_autofree char *missing = g_strdup_printf ("op%u-missing", i);

      g_test_message ("operator %d", cases[i].op);
      g_assert_cmpint (check_passes (fixture, a, "m", cases[i].op, "a"), ==, cases[i].with_a);
      g_assert_cmpint (check_passes (fixture, m, "m", cases[i].op, "m"), ==, cases[i].with_m);
      g_assert_cmpint (check_passes (fixture, z, "m", cases[i].op, "z"), ==, cases[i].with_z);
      /* a missing cell passes no comparison with a value */
      g_assert_false (check_passes (fixture, missing, NULL, cases[i].op, "m"));
    }
  /* bytes compare unsigned: 0xff sorts after 'z'; a prefix sorts first */
  g_assert_true (check_passes (fixture, "unsigned", "\xff", HBASE_COMPARE_GREATER, "z"));
  g_assert_true (check_passes (fixture, "prefix", "ab", HBASE_COMPARE_GREATER, "a"));
}

static void
test_check_absent_present (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(HBaseCondition) absent = hbase_condition_new_absent ("f", "c");
  g_autoptr(HBaseCondition) present = hbase_condition_new_present ("f", "c");
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) remove = hbase_mutation_new_delete (row);
  g_autoptr(GBytes) first = test_text ("first");
  g_autoptr(GPtrArray) puts = g_ptr_array_new ();
  g_autoptr(GPtrArray) removes = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  gboolean applied = FALSE;

  SKIP_IF_UNREACHABLE (fixture);
  hbase_mutation_put (put, "f", "c", first);
  g_ptr_array_add (puts, put);
  hbase_mutation_delete_column (remove, "f", "c");
  g_ptr_array_add (removes, remove);

  /* "present" fails on a missing cell; "absent" passes once, then not */
  g_assert_true (hbase_table_check_and_mutate (fixture->table, present, removes, &applied, NULL,
                                               &error));
  g_assert_false (applied);
  g_assert_true (hbase_table_check_and_mutate (fixture->table, absent, puts, &applied, NULL,
                                               &error));
  g_assert_no_error (error);
  g_assert_true (applied);
  g_assert_true (hbase_table_check_and_mutate (fixture->table, absent, puts, &applied, NULL,
                                               &error));
  g_assert_false (applied);
  g_assert_true (hbase_table_check_and_mutate (fixture->table, present, removes, &applied, NULL,
                                               &error));
  g_assert_no_error (error);
  g_assert_true (applied);
  {
    g_autofree char *stored = read_back (fixture, row);

    g_assert_cmpstr (stored, ==, "");
  }
}

/* Puts and deletes of one row applied together, or not at all. */
static void
test_check_and_mutate_row (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(GBytes) v1 = test_text ("v1");
  g_autoptr(HBaseCondition) is_v1 = hbase_condition_new ("f", "version", HBASE_COMPARE_EQUAL, v1);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) remove = hbase_mutation_new_delete (row);
  g_autoptr(GBytes) v2 = test_text ("v2");
  g_autoptr(GPtrArray) mutations = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  gboolean applied = FALSE;

  SKIP_IF_UNREACHABLE (fixture);
  put_text (fixture, row, "f", "version", "v1");
  put_text (fixture, row, "g", "old", "x");
  hbase_mutation_put (put, "f", "version", v2);
  hbase_mutation_put (put, "f", "extra", v2);
  hbase_mutation_delete_family (remove, "g");
  g_ptr_array_add (mutations, put);
  g_ptr_array_add (mutations, remove);
  g_assert_true (hbase_table_check_and_mutate (fixture->table, is_v1, mutations, &applied, NULL,
                                               &error));
  g_assert_no_error (error);
  g_assert_true (applied);
  {
    g_autofree char *stored = read_back (fixture, row);

    g_assert_cmpstr (stored, ==, "f:extra=v2 f:version=v2");
  }
  /* optimistic concurrency: the same change again finds v2 and fails */
  g_assert_true (hbase_table_check_and_mutate (fixture->table, is_v1, mutations, &applied, NULL,
                                               &error));
  g_assert_false (applied);
}

static void
test_check_bad_input (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(GBytes) other = test_key ("other");
  g_autoptr(GBytes) value = test_text ("v");
  g_autoptr(HBaseCondition) good = hbase_condition_new ("f", "c", HBASE_COMPARE_EQUAL, value);
  g_autoptr(HBaseCondition) no_family = hbase_condition_new (NULL, "c", HBASE_COMPARE_EQUAL, value);
  g_autoptr(HBaseCondition) ordering_empty = hbase_condition_new ("f", "c", HBASE_COMPARE_LESS,
                                                                  NULL);
  g_autoptr(HBaseCondition) bad_op = hbase_condition_new ("f", "c", (HBaseCompareOp) 42, value);
  g_autoptr(HBaseCondition) no_op = hbase_condition_new ("f", "c", HBASE_COMPARE_NO_OP, value);
  g_autoptr(HBaseCondition) unknown_family = hbase_condition_new ("nofamily", "c",
                                                                  HBASE_COMPARE_EQUAL, value);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(HBaseMutation) put_other = hbase_mutation_new_put (other);
  g_autoptr(HBaseMutation) increment = hbase_mutation_new_increment (row);
  g_autoptr(GPtrArray) good_list = g_ptr_array_new ();
  g_autoptr(GPtrArray) two_rows = g_ptr_array_new ();
  g_autoptr(GPtrArray) with_increment = g_ptr_array_new ();
  g_autoptr(GPtrArray) empty = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  gboolean applied = TRUE;
  struct {
    const HBaseCondition *condition;
    GPtrArray *mutations;
    const char *expected;
  } cases[] = {
    { NULL, good_list, "condition is NULL" },
    { no_family, good_list, "no column family" },
    { ordering_empty, good_list, "empty value" },
    { bad_op, good_list, "unknown operator 42" },
    { no_op, good_list, "Unknown Compare op NO_OP" },
    { good, NULL, "mutations is NULL" },
    { good, empty, "at least one mutation" },
    { good, two_rows, "another row" },
    { good, with_increment, "hbase_table_increment()" },
  };

  SKIP_IF_UNREACHABLE (fixture);
  hbase_mutation_put (put, "f", "c", value);
  hbase_mutation_put (put_other, "f", "c", value);
  hbase_mutation_increment (increment, "f", "n", 1);
  g_ptr_array_add (good_list, put);
  g_ptr_array_add (two_rows, put);
  g_ptr_array_add (two_rows, put_other);
  g_ptr_array_add (with_increment, put);
  g_ptr_array_add (with_increment, increment);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      applied = TRUE;
      g_assert_false (hbase_table_check_and_mutate (fixture->table, cases[i].condition,
                                                    cases[i].mutations, &applied, NULL, &error));
      g_assert_false (applied);
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      if (strstr (error->message, cases[i].expected) == NULL)
        g_error ("case %u: \"%s\" does not say \"%s\"", i, error->message, cases[i].expected);
      g_clear_error (&error);
    }
  /* a family the table lacks: the gateway says so, nothing is written */
  g_assert_false (hbase_table_check_and_mutate (fixture->table, unknown_family, good_list,
                                                &applied, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "nofamily"));
  g_clear_error (&error);
  {
    g_autofree char *stored = read_back (fixture, row);

    g_assert_cmpstr (stored, ==, "");
  }
}

static void
test_mutation_kinds (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(GBytes) value = test_text ("v");
  g_autoptr(HBaseMutation) increment = hbase_mutation_new_increment (row);
  g_autoptr(HBaseMutation) append = hbase_mutation_new_append (row);
  g_autoptr(HBaseMutation) stamped = hbase_mutation_new_increment (row);
  g_autoptr(HBaseMutation) empty = hbase_mutation_new_increment (row);
  g_autoptr(GPtrArray) list = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  SKIP_IF_UNREACHABLE (fixture);
  g_assert_cmpint (hbase_mutation_get_kind (increment), ==, HBASE_MUTATION_INCREMENT);
  g_assert_cmpint (hbase_mutation_get_kind (append), ==, HBASE_MUTATION_APPEND);
  g_assert_false (hbase_mutation_is_put (increment));

  /* a put builder on an increment is reported when sent */
  hbase_mutation_put (increment, "f", "a", value);
  g_assert_null (hbase_table_increment (fixture->table, increment, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "hbase_mutation_put on an increment"));
  g_clear_error (&error);

  /* an append sent as an increment, and the other way round */
  hbase_mutation_append (append, "f", "a", value);
  g_assert_null (hbase_table_increment (fixture->table, append, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  /* the Thrift2 TIncrement has no timestamp */
  hbase_mutation_increment (stamped, "f", "a", 1);
  hbase_mutation_set_timestamp (stamped, 100);
  g_assert_null (hbase_table_increment (fixture->table, stamped, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);

  g_assert_null (hbase_table_increment (fixture->table, empty, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "no columns"));
  g_clear_error (&error);

  /* increments do not travel with puts */
  g_ptr_array_add (list, stamped);
  g_assert_false (hbase_table_apply_multiple (fixture->table, list, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (hbase_table_mutate_row (fixture->table, list, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (&error);
  {
    g_autofree char *stored = read_back (fixture, row);

    g_assert_cmpstr (stored, ==, "");
  }
}

static void
test_missing_table (Fixture *fixture, gconstpointer data)
{
  g_autofree char *name = test_stack_unique_name ("hbase_glib_no_such_table");
  g_autoptr(HBaseTable) missing = NULL;
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(GError) error = NULL;
  gint64 value = 0;

  SKIP_IF_UNREACHABLE (fixture);
  missing = hbase_table_new (fixture->client, name, &error);
  g_assert_no_error (error);
  g_assert_false (hbase_table_increment_counter (missing, row, "f", "n", 1, &value, NULL, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
}

/* --- async -------------------------------------------------------------------------------- */

static void
test_async (Fixture *fixture, gconstpointer data)
{
  g_autoptr(GBytes) row = test_key ("r");
  g_autoptr(HBaseMutation) increment = hbase_mutation_new_increment (row);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (row);
  g_autoptr(HBaseCondition) absent = hbase_condition_new_absent ("f", "c");
  g_autoptr(HBaseCondition) bad = hbase_condition_new (NULL, "c", HBASE_COMPARE_EQUAL, NULL);
  g_autoptr(GBytes) value = test_text ("v");
  g_autoptr(GPtrArray) mutations = g_ptr_array_new ();
  g_autoptr(HBaseRow) result = NULL;
  g_autoptr(GError) error = NULL;
  TestWaiter waiter;
  gboolean applied = FALSE;

  SKIP_IF_UNREACHABLE (fixture);
  hbase_mutation_increment (increment, "f", "n", 7);
  test_waiter_init (&waiter);
  hbase_table_increment_async (fixture->table, increment, NULL, test_waiter_done, &waiter);
  result = hbase_table_increment_finish (fixture->table, test_waiter_run (&waiter), &error);
  g_assert_no_error (error);
  g_assert_cmpint (counter_of (result, "f", "n"), ==, 7);
  test_waiter_clear (&waiter);

  hbase_mutation_put (put, "f", "c", value);
  g_ptr_array_add (mutations, put);
  for (guint round = 0; round < 2; round++)
    {
      test_waiter_init (&waiter);
      hbase_table_check_and_mutate_async (fixture->table, absent, mutations, NULL,
                                          test_waiter_done, &waiter);
      g_assert_true (hbase_table_check_and_mutate_finish (fixture->table,
                                                          test_waiter_run (&waiter), &applied,
                                                          &error));
      g_assert_no_error (error);
      /* applied the first time only */
      g_assert_cmpint (applied, ==, round == 0);
      test_waiter_clear (&waiter);
    }

  /* bad input is reported through the callback too */
  test_waiter_init (&waiter);
  hbase_table_check_and_mutate_async (fixture->table, bad, mutations, NULL, test_waiter_done,
                                      &waiter);
  g_assert_false (hbase_table_check_and_mutate_finish (fixture->table, test_waiter_run (&waiter),
                                                       &applied, &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_assert_false (applied);
  test_waiter_clear (&waiter);
}

/* --- main --------------------------------------------------------------------------------- */

int
main (int argc, char **argv)
{
  static const TestTableCase cases[] = {
    { "increment", test_increment },
    { "increment-not-a-counter", test_increment_not_a_counter },
    { "append", test_append },
    { "counters", test_counters },
    { "counters-concurrent", test_counters_concurrent },
    { "check-operators", test_check_operators },
    { "check-absent-present", test_check_absent_present },
    { "check-and-mutate-row", test_check_and_mutate_row },
    { "check-bad-input", test_check_bad_input },
    { "mutation-kinds", test_mutation_kinds },
    { "missing-table", test_missing_table },
    { "async", test_async },
  };
  static HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  static const TestTableSuite suite = {
    "/integration/table-atomic", "hbase_glib_atomic", families, 2, TEST_GATEWAYS_ENDS
  };

  static const char *const native_cases[] = {
    "increment", "increment-not-a-counter", "append", "counters", "counters-concurrent",
    "check-operators", "check-absent-present", "check-and-mutate-row", "check-bad-input",
    "mutation-kinds", "missing-table", "async", NULL
  };
  static const TestTableSuiteOptions options = { .native_cases = native_cases };

  g_test_init (&argc, &argv, NULL);
  families[0].name = "f";
  families[1].name = "g";
  test_table_suite_add_full (&suite, &options, cases, G_N_ELEMENTS (cases));
  return test_table_suite_run ();
}
