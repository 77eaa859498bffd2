/* SPDX-License-Identifier: Apache-2.0 */
/* chaos-cam.c: the chaos workload's check-and-mutate worker and its
 * invariant.  Each key holds "cam-KEY-VERSION" in f:v; the worker, the
 * only writer of its keys, moves a key from the version it knows to a new
 * one with a check-and-mutate whose condition is the known value (absent
 * before the first).  Versions never repeat, so a condition on a value
 * that has been replaced can never hold again.
 *
 *   - applied: the key holds the new version, and every earlier write in
 *     doubt is dead (its condition named an older value);
 *   - not applied: only a write in doubt that was applied after all can
 *     have changed the value; with none, the answer is wrong;
 *   - in doubt: the key holds the known version or the new one, and is
 *     read before the next check-and-mutate;
 *   - now and then a check-and-mutate on a value that was never written
 *     (version 0): it must not apply.
 *
 * The invariant: every read, during the run and at the end, finds the
 * known version or one in doubt, and no answer was wrong. */
#include "config.h"

#include <string.h>

#include "chaos-workload.h"

#define CHECK_ATTEMPTS 30       /* reads of the final check: one a second */

typedef struct {
  gint64 current;               /* the version known, -1: none yet */
  GArray *doubts;               /* gint64: versions whose write is in doubt */
  gboolean must_read;           /* the value is not known for sure */
} CamKey;

struct _ChaosCam {
  ChaosRun *run;
  HBaseTable *table;
  char *label;
  guint n;
  char **keys;
  CamKey *models;
  gint64 next_version;
  GRand *rand;
  guint64 applied, not_applied, stale_refused, in_doubt, failed, reads;
  guint64 wrong;                /* wrong answers and wrong values during the run */
  char *first_wrong;
};

ChaosCam *
chaos_cam_new (ChaosRun *run, HBaseTable *table, const char *label, guint n)
{
  ChaosCam *cam = g_new0 (ChaosCam, 1);
  guint i;

  cam->run = run;
  cam->table = g_object_ref (table);
  cam->label = g_strdup (label);
  cam->n = n;
  cam->keys = g_new0 (char *, n + 1);
  cam->models = g_new0 (CamKey, n);
  for (i = 0; i < n; i++)
    {
      cam->keys[i] = chaos_spread_key ("m", i);
      cam->models[i].current = -1;
      cam->models[i].doubts = g_array_new (FALSE, FALSE, sizeof (gint64));
    }
  cam->next_version = 1;
  cam->rand = g_rand_new_with_seed (5151);
  return cam;
}

void
chaos_cam_free (ChaosCam *cam)
{
  guint i;

  for (i = 0; i < cam->n; i++)
    g_array_unref (cam->models[i].doubts);
  g_free (cam->models);
  g_strfreev (cam->keys);
  g_object_unref (cam->table);
  g_rand_free (cam->rand);
  g_free (cam->label);
  g_free (cam->first_wrong);
  g_free (cam);
}

static GBytes *
cam_value (ChaosCam *cam, guint key, gint64 version)
{
  g_autofree char *text = g_strdup_printf ("cam-%s-%" G_GINT64_FORMAT, cam->keys[key], version);

  return chaos_text_bytes (text);
}

/* the version a row holds: -1 for none, -2 for a value no version of the key */
static gint64
cam_version (ChaosCam *cam, guint key, HBaseRow *row)
{
  g_autofree char *text = NULL;
  g_autofree char *prefix = NULL;
  guint64 version;

  if (hbase_row_is_empty (row))
    return -1;
  text = chaos_bytes_text (hbase_row_lookup (row, "f", "v"));
  prefix = g_strdup_printf ("cam-%s-", cam->keys[key]);
  if (!g_str_has_prefix (text, prefix) ||
      !g_ascii_string_to_unsigned (text + strlen (prefix), 10, 1, G_MAXINT64, &version, NULL))
    return -2;
  return (gint64) version;
}

static gboolean
cam_allowed (const CamKey *model, gint64 version)
{
  guint i;

  if (version == model->current)
    return TRUE;
  for (i = 0; i < model->doubts->len; i++)
    if (g_array_index (model->doubts, gint64, i) == version)
      return TRUE;
  return FALSE;
}

static void
cam_wrong (ChaosCam *cam, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
cam_wrong (ChaosCam *cam, const char *format, ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  cam->wrong++;
  chaos_log ("%s: %s", cam->label, text);
  if (cam->first_wrong == NULL)
    cam->first_wrong = g_steal_pointer (&text);
}

/* Learns what a key holds after an answer that left it unsure. */
static void
cam_read (ChaosCam *cam, guint key)
{
  CamKey *model = &cam->models[key];
  g_autoptr(GBytes) row_key = chaos_text_bytes (cam->keys[key]);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseRow) row = hbase_table_get (cam->table, row_key, NULL, NULL, &error);
  gint64 version;

  cam->reads++;
  if (row == NULL)
    {
      g_autofree char *what = g_strdup_printf ("%s: get %s", cam->label, cam->keys[key]);

      chaos_note_read_failed (what, error);
      return;
    }
  chaos_note_success ();
  version = cam_version (cam, key, row);
  if (!cam_allowed (model, version))
    {
      cam_wrong (cam, "get %s read version %" G_GINT64_FORMAT ", known %" G_GINT64_FORMAT " (%u in doubt)",
                 cam->keys[key], version, model->current, model->doubts->len);
      if (version == -2)
        {
          model->must_read = FALSE;     /* the next check-and-mutate fails and says so */
          return;
        }
    }
  model->current = version;
  model->must_read = FALSE;
}

/* A check-and-mutate on a version never written: it must not apply. */
static void
cam_stale (ChaosCam *cam, guint key)
{
  g_autoptr(GBytes) row_key = chaos_text_bytes (cam->keys[key]);
  g_autoptr(GBytes) never = cam_value (cam, key, 0);
  g_autoptr(GBytes) value = cam_value (cam, key, cam->next_version++);
  g_autoptr(HBaseCondition) condition = hbase_condition_new ("f", "v", HBASE_COMPARE_EQUAL, never);
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;
  HBaseMutation *put = hbase_mutation_new_put (row_key);
  gboolean applied = FALSE;

  hbase_mutation_put (put, "f", "v", value);
  g_ptr_array_add (mutations, put);
  if (!hbase_table_check_and_mutate (cam->table, condition, mutations, &applied, NULL, &error))
    {
      g_autofree char *what = g_strdup_printf ("%s: check-and-mutate on a stale value of %s", cam->label,
                                               cam->keys[key]);

      /* applied or not, its condition cannot hold: the final read tells */
      cam->failed++;
      chaos_note_write_failed (what, error, chaos_write_in_doubt (error));
      return;
    }
  chaos_note_success ();
  if (applied)
    cam_wrong (cam, "a check-and-mutate of %s on a value never written was applied", cam->keys[key]);
  else
    cam->stale_refused++;
}

static void
cam_step (ChaosCam *cam, guint key)
{
  CamKey *model = &cam->models[key];
  g_autoptr(GBytes) row_key = chaos_text_bytes (cam->keys[key]);
  gint64 version = cam->next_version++;
  g_autoptr(GBytes) value = cam_value (cam, key, version);
  g_autoptr(GBytes) known = model->current >= 0 ? cam_value (cam, key, model->current) : NULL;
  g_autoptr(HBaseCondition) condition = known != NULL ?
    hbase_condition_new ("f", "v", HBASE_COMPARE_EQUAL, known) : hbase_condition_new_absent ("f", "v");
  g_autoptr(GPtrArray) mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;
  HBaseMutation *put = hbase_mutation_new_put (row_key);
  gboolean applied = FALSE;

  hbase_mutation_put (put, "f", "v", value);
  g_ptr_array_add (mutations, put);
  if (hbase_table_check_and_mutate (cam->table, condition, mutations, &applied, NULL, &error))
    {
      if (applied)
        {
          cam->applied++;
          model->current = version;
          g_array_set_size (model->doubts, 0);
          chaos_note_acked ();
          return;
        }
      cam->not_applied++;
      chaos_note_success ();
      /* only a write in doubt applied after all can have changed it */
      if (model->doubts->len == 0)
        cam_wrong (cam, "a check-and-mutate of %s on its known version %" G_GINT64_FORMAT
                   " was not applied", cam->keys[key], model->current);
      model->must_read = TRUE;
      return;
    }
  if (chaos_write_in_doubt (error))
    {
      g_autofree char *what = g_strdup_printf ("%s: check-and-mutate %s", cam->label, cam->keys[key]);

      cam->in_doubt++;
      g_array_append_val (model->doubts, version);
      model->must_read = TRUE;
      chaos_note_write_failed (what, error, TRUE);
    }
  else
    {
      g_autofree char *what = g_strdup_printf ("%s: check-and-mutate %s", cam->label, cam->keys[key]);

      cam->failed++;
      chaos_note_write_failed (what, error, FALSE);
    }
}

gpointer
chaos_cam_thread (gpointer data)
{
  ChaosCam *cam = data;

  chaos_worker_start (cam->label);
  while (chaos_running (cam->run))
    {
      guint key = (guint) g_rand_int_range (cam->rand, 0, (gint32) cam->n);

      if (cam->models[key].must_read)
        cam_read (cam, key);
      else if (g_rand_int_range (cam->rand, 0, 100) < 10)
        cam_stale (cam, key);
      else
        cam_step (cam, key);
      chaos_pause (cam->run, 5);
    }
  chaos_worker_end ();
  return NULL;
}

void
chaos_cam_check (ChaosCam *cam)
{
  guint64 known = 0, in_doubt = 0, outside = 0, unread = 0;
  GString *examples = g_string_new (NULL);
  guint i;

  for (i = 0; i < cam->n; i++)
    {
      const CamKey *model = &cam->models[i];
      g_autoptr(GBytes) key = chaos_text_bytes (cam->keys[i]);
      g_autoptr(HBaseRow) row = NULL;
      guint attempt;
      gint64 version;

      for (attempt = 0; attempt < CHECK_ATTEMPTS && row == NULL; attempt++)
        {
          g_autoptr(GError) error = NULL;

          row = hbase_table_get (cam->table, key, NULL, NULL, &error);
          if (row == NULL)
            {
              chaos_log ("%s: check: get %s: %s", cam->label, cam->keys[i], error->message);
              g_usleep (G_USEC_PER_SEC);
            }
        }
      if (row == NULL)
        {
          unread++;
          continue;
        }
      version = cam_version (cam, i, row);
      if (version == model->current)
        known++;
      else if (cam_allowed (model, version))
        in_doubt++;
      else if (outside++ < 5)
        g_string_append_printf (examples, "; %s holds version %" G_GINT64_FORMAT ", known %" G_GINT64_FORMAT
                                ", %u in doubt", cam->keys[i], version, model->current, model->doubts->len);
    }
  chaos_invariant (cam->label, outside == 0 && unread == 0 && cam->wrong == 0 && cam->applied > 0,
                   "%u keys: %" G_GUINT64_FORMAT " hold the known version, %" G_GUINT64_FORMAT
                   " one in doubt, %" G_GUINT64_FORMAT " neither, %" G_GUINT64_FORMAT " unreadable; "
                   "during the run %" G_GUINT64_FORMAT " check-and-mutates applied, %" G_GUINT64_FORMAT
                   " not applied (after one in doubt), %" G_GUINT64_FORMAT " on a stale value refused, %"
                   G_GUINT64_FORMAT " in doubt, %" G_GUINT64_FORMAT " failed, %" G_GUINT64_FORMAT
                   " reads, %" G_GUINT64_FORMAT " wrong answers or values%s%s%s",
                   cam->n, known, in_doubt, outside, unread, cam->applied, cam->not_applied,
                   cam->stale_refused, cam->in_doubt, cam->failed, cam->reads, cam->wrong, examples->str,
                   cam->first_wrong != NULL ? "; first wrong: " : "",
                   cam->first_wrong != NULL ? cam->first_wrong : "");
  g_string_free (examples, TRUE);
}
