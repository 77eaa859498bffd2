/* SPDX-License-Identifier: Apache-2.0 */
/* Regression test: the generated get_type() functions are thread-safe.
 *
 * Thrift 0.17's c_glib generator registers each type with an unguarded
 * "static GType type = 0; if (type == 0) type = g_type_register_static
 * (...)": when several threads made their first use of a generated type at
 * the same time, more than one registered it, GObject warned "cannot
 * register existing type" and the losers went on with type 0 and crashed
 * (bench-table --workloads getN --warmup 0, 2 runs of 3).
 * thrift/once-get-type.awk rewrites those functions to g_once.
 *
 * Types are registered once per process, so every race runs in a fresh
 * subprocess (g_test_trap_subprocess) where warnings and criticals are
 * fatal: many threads wait at a start line, then all call every generated
 * get_type() (the list is made at build time from the generated headers:
 * generated-get-types.h) in the same order, and create an instance of each
 * instantiable type.  Before the fix this aborted on the first collision. */
#include "config.h"

#include <hbase-glib/hbase-glib-thrift.h>

typedef GType (*GetTypeFunc) (void);

static const struct {
  const char *name;
  GetTypeFunc func;
} get_types[] = {
#include "generated-get-types.h"
};

#define N_THREADS 16
#define N_PROCESSES 8

static gint waiting;      /* threads not yet at the start line */
static gint go;           /* set when all are there */
static GType seen[N_THREADS][G_N_ELEMENTS (get_types)];

static gpointer
race (gpointer data)
{
  guint index = GPOINTER_TO_UINT (data);

  /* spin rather than block, so all threads leave the start line together */
  g_atomic_int_add (&waiting, -1);
  while (!g_atomic_int_get (&go))
    ;
  for (guint i = 0; i < G_N_ELEMENTS (get_types); i++)
    seen[index][i] = get_types[i].func ();
  for (guint i = 0; i < G_N_ELEMENTS (get_types); i++)
    {
      GType type = seen[index][i];

      if (G_TYPE_IS_OBJECT (type) && !G_TYPE_IS_ABSTRACT (type))
        g_object_unref (g_object_new (type, NULL));
    }
  return NULL;
}

/* In the fresh subprocess: the race itself. */
static void
run_race (void)
{
  GThread *threads[N_THREADS];

  g_log_set_always_fatal (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL);
  g_atomic_int_set (&waiting, N_THREADS);
  for (guint t = 0; t < N_THREADS; t++)
    threads[t] = g_thread_new ("race", race, GUINT_TO_POINTER (t));
  while (g_atomic_int_get (&waiting) > 0)
    g_thread_yield ();
  g_atomic_int_set (&go, 1);
  for (guint t = 0; t < N_THREADS; t++)
    g_thread_join (threads[t]);

  for (guint i = 0; i < G_N_ELEMENTS (get_types); i++)
    {
      if (seen[0][i] == 0)
        g_error ("%s returned 0", get_types[i].name);
      for (guint t = 1; t < N_THREADS; t++)
        if (seen[t][i] != seen[0][i])
          g_error ("%s returned different types in different threads", get_types[i].name);
    }
}

static void
test_first_use_from_many_threads (void)
{
  if (g_test_subprocess ())
    {
      run_race ();
      return;
    }
  g_assert_cmpuint (G_N_ELEMENTS (get_types), >, 100);
  for (guint p = 0; p < N_PROCESSES; p++)
    {
      g_test_trap_subprocess (NULL, 60 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_DEFAULT);
      g_test_message ("fresh process %u of %u", p + 1, N_PROCESSES);
      g_test_trap_assert_stderr_unmatched ("*cannot register existing type*");
      g_test_trap_assert_passed ();
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/thrift/generated/first-use-from-many-threads", test_first_use_from_many_threads);
  return g_test_run ();
}
