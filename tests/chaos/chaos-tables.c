/* SPDX-License-Identifier: Apache-2.0 */
/* chaos-tables.c: the chaos workload's tables (created pre-split), and its
 * table workers with their invariants: puts, buffered puts and gets of
 * versioned values (a plain table and an indexed one; on the native
 * backend also batches through apply_multiple and get_multiple), counters,
 * and long scans of a table filled before the chaos starts (forward and
 * reversed; on the native backend of rows of several cells, some with a
 * batch, so that rows come in pieces).
 *
 * Long because: the workers share the key model, the value checks and the
 * table helpers, and each worker's invariant sits next to its loop. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chaos-workload.h"

#define CHECK_ATTEMPTS 30       /* reads of the final check: one a second */
#define KIND_FLOOR 20           /* successes each kind of operation needs */
#define SCAN_KIND_FLOOR 1       /* whole-table scans of each kind (each takes 6-40 s) */

/* "LABEL: WHAT", the name of an operation kind */
static void
kind_done (const char *label, const char *what, gboolean ok)
{
  g_autofree char *kind = g_strdup_printf ("%s: %s", label, what);

  chaos_kind_done (kind, ok);
}

static void
kind_expect (const char *label, const char *what, guint floor)
{
  g_autofree char *kind = g_strdup_printf ("%s: %s", label, what);

  chaos_kind_expect (kind, floor);
}

/* --- tables ----------------------------------------------------------------------------- */

static GPtrArray *
split_keys (const char *const *keys)
{
  GPtrArray *array = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (; *keys != NULL; keys++)
    g_ptr_array_add (array, g_bytes_new (*keys, strlen (*keys)));
  return array;
}

static gboolean
create_table (HBaseClient *client, const char *name, const char *const *families,
              const char *const *splits, GError **error)
{
  HBaseFamilyOptions options[3] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT,
                                    HBASE_FAMILY_OPTIONS_INIT };
  g_autoptr(GPtrArray) keys = split_keys (splits);
  gboolean exists = FALSE;
  guint n = 0;

  if (!hbase_client_table_exists (client, name, &exists, NULL, error))
    return FALSE;
  if (exists && !hbase_client_delete_table (client, name, NULL, error))
    return FALSE;
  for (; families[n] != NULL && n < G_N_ELEMENTS (options); n++)
    options[n].name = families[n];
  return hbase_client_create_table (client, name, options, n, keys, NULL, error);
}

gboolean
chaos_setup_tables (HBaseClient *client, gboolean native, GError **error)
{
  static const char *const f[] = { "f", NULL };
  static const char *const c[] = { "c", NULL };
  static const char *const sz[] = { "s", "z", NULL };
  static const char *const kv_splits[] = { "k40", "k80", "kc0", NULL };
  static const char *const indexed_splits[] = { "p55", "paa", NULL };
  static const char *const scan_splits[] = { "s000750", "s001500", "s002250", NULL };
  static const char *const counter_splits[] = { "c80", NULL };
  static const char *const set_splits[] = { "set-3", "zset-0", "zset-3", NULL };
  static const char *const cf[] = { "c", "f", NULL };
  static const char *const native_kv_splits[] = { "n40", "n80", "nc0", NULL };
  static const char *const native_atomic_splits[] = { "c80", "m00", "m80", NULL };
  static const char *const none[] = { NULL };
  gboolean exists = FALSE;

  /* the index's definitions go in a table of their own, made on demand */
  if (!hbase_client_table_exists (client, CHAOS_INDEX_META, &exists, NULL, error) ||
      (exists && !hbase_client_delete_table (client, CHAOS_INDEX_META, NULL, error)))
    return FALSE;
  (void) none;
  return create_table (client, CHAOS_KV_TABLE, f, kv_splits, error) &&
         create_table (client, CHAOS_INDEXED_TABLE, f, indexed_splits, error) &&
         create_table (client, CHAOS_SCAN_TABLE, f, scan_splits, error) &&
         create_table (client, CHAOS_COUNTER_TABLE, c, counter_splits, error) &&
         create_table (client, CHAOS_SET_TABLE, sz, set_splits, error) &&
         (!native ||
          (create_table (client, CHAOS_NATIVE_KV_TABLE, f, native_kv_splits, error) &&
           create_table (client, CHAOS_NATIVE_SCAN_TABLE, f, scan_splits, error) &&
           create_table (client, CHAOS_NATIVE_ATOMIC_TABLE, cf, native_atomic_splits, error)));
}

/* Rows spread evenly over the pre-split regions: PREFIX, two hex digits of
 * a hash, the number. */
char *
chaos_spread_key (const char *prefix, guint i)
{
  return g_strdup_printf ("%s%02x-%05u", prefix, (guint) ((i * 2654435761u) >> 24), i);
}

GBytes *
chaos_text_bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static gboolean
bytes_equal_text (GBytes *bytes, const char *text)
{
  gsize size;
  const char *data = bytes != NULL ? g_bytes_get_data (bytes, &size) : NULL;

  return data != NULL && size == strlen (text) && memcmp (data, text, size) == 0;
}

char *
chaos_bytes_text (GBytes *bytes)
{
  gsize size;
  const char *data;

  if (bytes == NULL)
    return g_strdup ("(none)");
  data = g_bytes_get_data (bytes, &size);
  return g_strndup (data, size);
}

/* A get that the final check may retry: the cluster settled, but a read
 * may still meet a gateway that has just come back. */
static HBaseRow *
get_retrying (HBaseTable *table, GBytes *key, GError **error)
{
  guint attempt;

  for (attempt = 1;; attempt++)
    {
      g_autoptr(GError) local = NULL;
      HBaseRow *row = hbase_table_get (table, key, NULL, NULL, &local);

      if (row != NULL)
        return row;
      if (attempt == CHECK_ATTEMPTS)
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      g_usleep (G_USEC_PER_SEC);
    }
}

static void
put_text (HBaseMutation *put, const char *family, const char *qualifier, const char *text)
{
  g_autoptr(GBytes) value = chaos_text_bytes (text);

  hbase_mutation_put (put, family, qualifier, value);
}

/* --- versioned puts: what a key may hold --------------------------------------------------- */

/* One key's writes, all from one thread: the last acknowledged version and
 * the versions written after it whose outcome is unknown.  The key may
 * hold the acknowledged version or one in doubt; with neither, nothing. */
typedef struct {
  gint64 acked;                 /* -1: none */
  GArray *doubts;               /* gint64 */
  gint64 oldest_written;        /* -1: none */
  gboolean ever_in_doubt;       /* a write of the key ended in doubt */
} KeyModel;

typedef enum { HOLDS_OK, HOLDS_IN_DOUBT_APPLIED, HOLDS_NOTHING_OK, HOLDS_LOST, HOLDS_WRONG } Holds;

static void
model_acked (KeyModel *model, gint64 version)
{
  model->acked = version;
  g_array_set_size (model->doubts, 0);
  if (model->oldest_written < 0)
    model->oldest_written = version;
}

static void
model_in_doubt (KeyModel *model, gint64 version)
{
  g_array_append_val (model->doubts, version);
  model->ever_in_doubt = TRUE;
  if (model->oldest_written < 0)
    model->oldest_written = version;
}

/* version: what the key holds, -1 for nothing, -2 for a value that is no
 * version of this key */
static Holds
model_judge (const KeyModel *model, gint64 version)
{
  guint i;

  if (version == -2)
    return HOLDS_WRONG;
  if (version == -1)
    return model->acked < 0 ? HOLDS_NOTHING_OK : HOLDS_LOST;
  if (version == model->acked)
    return HOLDS_OK;
  for (i = 0; i < model->doubts->len; i++)
    if (g_array_index (model->doubts, gint64, i) == version)
      return HOLDS_IN_DOUBT_APPLIED;
  /* a version written before the last acknowledged one: that one was lost */
  if (model->oldest_written >= 0 && version >= model->oldest_written && version < model->acked)
    return HOLDS_LOST;
  return HOLDS_WRONG;
}

struct _ChaosKv {
  ChaosRun *run;
  HBaseTable *table;
  char *label;
  gboolean indexed;             /* f:city and f:age (the index's columns), else f:v */
  guint n_keys;
  char **keys;
  KeyModel *models;
  gint64 next_version;
  GRand *rand;
  gboolean multiple;            /* apply_multiple and get_multiple too */
  guint64 puts, buffered, multiple_puts, gets, multiple_gets, gets_wrong;
  char *first_wrong_get;
};

const char *const chaos_cities[CHAOS_N_CITIES] = { "Oslo", "Lima", "Pune", "Kyiv", "Nice", "Bonn", "Cork" };
#define cities chaos_cities

static HBaseMutation *
kv_put (ChaosKv *kv, guint key, gint64 version)
{
  g_autoptr(GBytes) row = chaos_text_bytes (kv->keys[key]);
  HBaseMutation *put = hbase_mutation_new_put (row);

  if (kv->indexed)
    {
      g_autofree char *age = g_strdup_printf ("%" G_GINT64_FORMAT, version);

      put_text (put, "f", "city", cities[version % G_N_ELEMENTS (cities)]);
      put_text (put, "f", "age", age);
    }
  else
    {
      /* a couple of hundred bytes, the version readable at the start */
      g_autofree char *value = g_strdup_printf ("v-%s-%" G_GINT64_FORMAT "-%0180d",
                                                kv->keys[key], version, 0);

      put_text (put, "f", "v", value);
    }
  return put;
}

/* The version a row holds: -1 for none, -2 for a value that is no version
 * of this key. */
static gint64
kv_version (ChaosKv *kv, guint key, HBaseRow *row)
{
  if (hbase_row_is_empty (row))
    return -1;
  if (kv->indexed)
    {
      GBytes *age = hbase_row_lookup (row, "f", "age");
      GBytes *city = hbase_row_lookup (row, "f", "city");
      g_autofree char *age_text = chaos_bytes_text (age);
      guint64 version;

      if (!g_ascii_string_to_unsigned (age_text, 10, 0, G_MAXINT64, &version, NULL) ||
          !bytes_equal_text (city, cities[version % G_N_ELEMENTS (cities)]))
        return -2;
      return (gint64) version;
    }
  else
    {
      GBytes *value = hbase_row_lookup (row, "f", "v");
      g_autofree char *text = chaos_bytes_text (value);
      g_autofree char *prefix = g_strdup_printf ("v-%s-", kv->keys[key]);
      g_autofree char *expected = NULL;
      guint64 version;
      char *end;

      if (!g_str_has_prefix (text, prefix))
        return -2;
      version = g_ascii_strtoull (text + strlen (prefix), &end, 10);
      expected = g_strdup_printf ("v-%s-%" G_GUINT64_FORMAT "-%0180d", kv->keys[key], version, 0);
      if (strcmp (text, expected) != 0)
        return -2;
      return (gint64) version;
    }
}

ChaosKv *
chaos_kv_new (ChaosRun *run, HBaseTable *table, const char *label, const char *key_prefix,
              guint n_keys, gboolean indexed)
{
  ChaosKv *kv = g_new0 (ChaosKv, 1);
  guint i;

  kv->run = run;
  kv->table = g_object_ref (table);
  kv->label = g_strdup (label);
  kv->indexed = indexed;
  kv->n_keys = n_keys;
  kv->keys = g_new0 (char *, n_keys + 1);
  kv->models = g_new0 (KeyModel, n_keys);
  for (i = 0; i < n_keys; i++)
    {
      kv->keys[i] = chaos_spread_key (key_prefix, i);
      kv->models[i].acked = -1;
      kv->models[i].oldest_written = -1;
      kv->models[i].doubts = g_array_new (FALSE, FALSE, sizeof (gint64));
    }
  kv->next_version = 1;
  kv->rand = g_rand_new_with_seed (n_keys * 7919u + (indexed ? 1 : 0));
  kind_expect (label, "put", KIND_FLOOR);
  kind_expect (label, "buffered put", KIND_FLOOR);
  kind_expect (label, "get", KIND_FLOOR);
  return kv;
}

void
chaos_kv_set_multiple (ChaosKv *kv, gboolean multiple)
{
  kv->multiple = multiple;
  if (multiple)
    {
      kind_expect (kv->label, "apply_multiple put", KIND_FLOOR);
      kind_expect (kv->label, "get_multiple", KIND_FLOOR);
    }
}

guint
chaos_kv_keys_ever_in_doubt (ChaosKv *kv)
{
  guint i, n = 0;

  for (i = 0; i < kv->n_keys; i++)
    n += kv->models[i].ever_in_doubt ? 1 : 0;
  return n;
}

void
chaos_kv_free (ChaosKv *kv)
{
  guint i;

  for (i = 0; i < kv->n_keys; i++)
    g_array_unref (kv->models[i].doubts);
  g_free (kv->models);
  g_strfreev (kv->keys);
  g_object_unref (kv->table);
  g_rand_free (kv->rand);
  g_free (kv->label);
  g_free (kv->first_wrong_get);
  g_free (kv);
}

static void
kv_one_put (ChaosKv *kv)
{
  guint key = (guint) g_rand_int_range (kv->rand, 0, (gint32) kv->n_keys);
  gint64 version = kv->next_version++;
  g_autoptr(HBaseMutation) put = kv_put (kv, key, version);
  g_autoptr(GError) error = NULL;
  g_autofree char *what = g_strdup_printf ("%s: put %s", kv->label, kv->keys[key]);

  kv->puts++;
  if (hbase_table_apply (kv->table, put, NULL, &error))
    {
      model_acked (&kv->models[key], version);
      chaos_note_acked ();
      kind_done (kv->label, "put", TRUE);
      return;
    }
  kind_done (kv->label, "put", FALSE);
  if (chaos_write_in_doubt (error))
    {
      model_in_doubt (&kv->models[key], version);
      chaos_note_write_failed (what, error, TRUE);
    }
  else
    chaos_note_write_failed (what, error, FALSE);
}

/* n distinct keys, at random */
static void
kv_pick_keys (ChaosKv *kv, guint *keys, guint n)
{
  guint picked = 0, j;

  while (picked < n)
    {
      guint key = (guint) g_rand_int_range (kv->rand, 0, (gint32) kv->n_keys);
      gboolean seen = FALSE;

      for (j = 0; j < picked; j++)
        seen = seen || keys[j] == key;
      if (!seen)
        keys[picked++] = key;
    }
}

/* A batch of puts to distinct keys through a write buffer: what the flush
 * does not report as failed was written. */
static void
kv_buffered_puts (ChaosKv *kv)
{
  HBaseWriteBufferOptions options = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  g_autoptr(HBaseWriteBuffer) buffer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) failures = NULL;
  g_autoptr(GHashTable) failed_rows = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint keys[16];
  gint64 versions[16];
  gboolean added[16];
  guint n, i;
  gboolean flushed;

  buffer = hbase_write_buffer_new (kv->table, &options, &error);
  if (buffer == NULL)
    g_error ("%s: a write buffer: %s", kv->label, error->message);
  n = G_N_ELEMENTS (keys);
  kv_pick_keys (kv, keys, n);
  for (i = 0; i < n; i++)
    {
      g_autoptr(HBaseMutation) put = NULL;
      g_autoptr(GError) add_error = NULL;

      versions[i] = kv->next_version++;
      put = kv_put (kv, keys[i], versions[i]);
      added[i] = hbase_write_buffer_add (buffer, put, NULL, &add_error);
      if (!added[i])
        {
          g_autofree char *what = g_strdup_printf ("%s: buffered put %s", kv->label, kv->keys[keys[i]]);

          /* a full buffer sends what it holds: this one may be in it */
          model_in_doubt (&kv->models[keys[i]], versions[i]);
          chaos_note_write_failed (what, add_error, TRUE);
          kind_done (kv->label, "buffered put", FALSE);
        }
    }
  flushed = hbase_write_buffer_flush (buffer, NULL, &error);
  failures = hbase_write_buffer_take_failures (buffer);
  for (i = 0; failures != NULL && i < failures->len; i++)
    {
      GBytes *row = hbase_write_failure_get_row (failures->pdata[i]);
      g_autofree char *text = chaos_bytes_text (row);

      g_hash_table_add (failed_rows, g_steal_pointer (&text));
    }
  for (i = 0; i < n; i++)
    {
      if (!added[i])
        continue;
      kv->buffered++;
      /* a failed flush that names no mutation: every one is in doubt */
      if (g_hash_table_contains (failed_rows, kv->keys[keys[i]]) ||
          (!flushed && g_hash_table_size (failed_rows) == 0))
        {
          g_autofree char *what = g_strdup_printf ("%s: buffered put %s", kv->label, kv->keys[keys[i]]);
          const GError *reason = error;
          guint k;

          for (k = 0; failures != NULL && k < failures->len; k++)
            {
              g_autofree char *text = chaos_bytes_text (hbase_write_failure_get_row (failures->pdata[k]));

              if (strcmp (text, kv->keys[keys[i]]) == 0)
                reason = hbase_write_failure_get_error (failures->pdata[k]);
            }
          if (chaos_write_in_doubt (reason))
            {
              model_in_doubt (&kv->models[keys[i]], versions[i]);
              chaos_note_write_failed (what, reason, TRUE);
            }
          else
            chaos_note_write_failed (what, reason, FALSE);
          kind_done (kv->label, "buffered put", FALSE);
        }
      else
        {
          model_acked (&kv->models[keys[i]], versions[i]);
          chaos_note_acked ();
          kind_done (kv->label, "buffered put", TRUE);
        }
    }
}

/* Puts of distinct keys in one apply_multiple: all acknowledged, or all
 * in doubt (the call may have applied some), or none applied. */
static void
kv_multiple_puts (ChaosKv *kv)
{
  g_autoptr(GPtrArray) puts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GError) error = NULL;
  guint keys[8];
  gint64 versions[8];
  guint i;

  kv_pick_keys (kv, keys, G_N_ELEMENTS (keys));
  for (i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      versions[i] = kv->next_version++;
      g_ptr_array_add (puts, kv_put (kv, keys[i], versions[i]));
    }
  kv->multiple_puts += G_N_ELEMENTS (keys);
  if (hbase_table_apply_multiple (kv->table, puts, NULL, &error))
    {
      for (i = 0; i < G_N_ELEMENTS (keys); i++)
        {
          model_acked (&kv->models[keys[i]], versions[i]);
          chaos_note_acked ();
          kind_done (kv->label, "apply_multiple put", TRUE);
        }
      return;
    }
  for (i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autofree char *what = g_strdup_printf ("%s: apply_multiple put %s", kv->label, kv->keys[keys[i]]);

      if (chaos_write_in_doubt (error))
        model_in_doubt (&kv->models[keys[i]], versions[i]);
      chaos_note_write_failed (what, error, chaos_write_in_doubt (error));
      kind_done (kv->label, "apply_multiple put", FALSE);
    }
}

/* A row read during the run: the acknowledged version or one in doubt */
static void
kv_judge_read (ChaosKv *kv, guint key, HBaseRow *row)
{
  Holds holds = model_judge (&kv->models[key], kv_version (kv, key, row));

  if (holds == HOLDS_LOST || holds == HOLDS_WRONG)
    {
      kv->gets_wrong++;
      chaos_log ("%s: get %s read version %" G_GINT64_FORMAT ", acknowledged %" G_GINT64_FORMAT " (%u in doubt)",
                 kv->label, kv->keys[key], kv_version (kv, key, row), kv->models[key].acked,
                 kv->models[key].doubts->len);
      if (kv->first_wrong_get == NULL)
        kv->first_wrong_get = g_strdup_printf ("%s read version %" G_GINT64_FORMAT ", acknowledged %" G_GINT64_FORMAT,
                                               kv->keys[key], kv_version (kv, key, row), kv->models[key].acked);
    }
}

/* Distinct keys in one get_multiple: a row for each, in the asked order. */
static void
kv_multiple_gets (ChaosKv *kv)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  guint picked[8];
  guint i;

  kv_pick_keys (kv, picked, G_N_ELEMENTS (picked));
  for (i = 0; i < G_N_ELEMENTS (picked); i++)
    g_ptr_array_add (keys, chaos_text_bytes (kv->keys[picked[i]]));
  kv->multiple_gets++;
  rows = hbase_table_get_multiple (kv->table, keys, NULL, NULL, &error);
  if (rows == NULL)
    {
      g_autofree char *what = g_strdup_printf ("%s: get_multiple", kv->label);

      chaos_note_read_failed (what, error);
      kind_done (kv->label, "get_multiple", FALSE);
      return;
    }
  chaos_note_success ();
  kind_done (kv->label, "get_multiple", TRUE);
  if (rows->len != G_N_ELEMENTS (picked))
    {
      kv->gets_wrong++;
      chaos_log ("%s: get_multiple of %u keys returned %u rows", kv->label,
                 (guint) G_N_ELEMENTS (picked), rows->len);
      if (kv->first_wrong_get == NULL)
        kv->first_wrong_get = g_strdup_printf ("get_multiple of %u keys returned %u rows",
                                               (guint) G_N_ELEMENTS (picked), rows->len);
      return;
    }
  for (i = 0; i < rows->len; i++)
    {
      HBaseRow *row = rows->pdata[i];
      GBytes *key = hbase_row_get_key (row);

      /* a missing row is empty and may have no key */
      if (!hbase_row_is_empty (row) && (key == NULL || !g_bytes_equal (key, keys->pdata[i])))
        {
          g_autofree char *text = chaos_bytes_text (key);

          kv->gets_wrong++;
          chaos_log ("%s: get_multiple: row %u is %s, asked for %s", kv->label, i, text, kv->keys[picked[i]]);
          if (kv->first_wrong_get == NULL)
            kv->first_wrong_get = g_strdup_printf ("get_multiple: row %u is %s, asked for %s", i, text,
                                                   kv->keys[picked[i]]);
          continue;
        }
      kv_judge_read (kv, picked[i], row);
    }
}

static void
kv_one_get (ChaosKv *kv)
{
  guint key = (guint) g_rand_int_range (kv->rand, 0, (gint32) kv->n_keys);
  g_autoptr(GBytes) row_key = chaos_text_bytes (kv->keys[key]);
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseRow) row = hbase_table_get (kv->table, row_key, NULL, NULL, &error);

  kv->gets++;
  if (row == NULL)
    {
      g_autofree char *what = g_strdup_printf ("%s: get %s", kv->label, kv->keys[key]);

      chaos_note_read_failed (what, error);
      kind_done (kv->label, "get", FALSE);
      return;
    }
  chaos_note_success ();
  kind_done (kv->label, "get", TRUE);
  kv_judge_read (kv, key, row);
}

gpointer
chaos_kv_thread (gpointer data)
{
  ChaosKv *kv = data;

  chaos_worker_start (kv->label);
  while (chaos_running (kv->run))
    {
      gint32 dice = g_rand_int_range (kv->rand, 0, 100);

      if (kv->multiple && dice >= 70)
        {
          if (dice < 85)
            kv_multiple_puts (kv);
          else
            kv_multiple_gets (kv);
        }
      else if (dice < (kv->multiple ? 30 : 45))
        kv_one_put (kv);
      else if (dice < (kv->multiple ? 55 : 80))
        kv_one_get (kv);
      else
        kv_buffered_puts (kv);
      chaos_pause (kv->run, 5);
    }
  chaos_worker_end ();
  return NULL;
}

void
chaos_kv_check (ChaosKv *kv)
{
  guint64 counts[5] = { 0 };
  guint64 unread = 0;
  GString *examples = g_string_new (NULL);
  guint i, shown = 0;
  gboolean holds;
  g_autofree char *multiple_puts = kv->multiple ?
    g_strdup_printf ("%" G_GUINT64_FORMAT " puts in apply_multiple, ", kv->multiple_puts) : g_strdup ("");
  g_autofree char *multiple_gets = kv->multiple ?
    g_strdup_printf (" and %" G_GUINT64_FORMAT " get_multiple of 8 keys,", kv->multiple_gets) : g_strdup ("");

  for (i = 0; i < kv->n_keys; i++)
    {
      g_autoptr(GBytes) key = chaos_text_bytes (kv->keys[i]);
      g_autoptr(GError) error = NULL;
      g_autoptr(HBaseRow) row = get_retrying (kv->table, key, &error);
      gint64 version;
      Holds judged;

      if (row == NULL)
        {
          unread++;
          chaos_log ("%s: check: get %s: %s", kv->label, kv->keys[i], error->message);
          continue;
        }
      version = kv_version (kv, i, row);
      judged = model_judge (&kv->models[i], version);
      counts[judged]++;
      if ((judged == HOLDS_LOST || judged == HOLDS_WRONG) && shown++ < 5)
        g_string_append_printf (examples, "; %s: %s, holds version %" G_GINT64_FORMAT
                                ", acknowledged %" G_GINT64_FORMAT ", %u in doubt",
                                kv->keys[i], judged == HOLDS_LOST ? "lost" : "wrong",
                                version, kv->models[i].acked, kv->models[i].doubts->len);
    }
  holds = counts[HOLDS_LOST] == 0 && counts[HOLDS_WRONG] == 0 && unread == 0 && kv->gets_wrong == 0;
  chaos_invariant (kv->label, holds,
                   "%u keys: %" G_GUINT64_FORMAT " hold the acknowledged value, %" G_GUINT64_FORMAT
                   " a value in doubt, %" G_GUINT64_FORMAT " nothing (never acknowledged); %"
                   G_GUINT64_FORMAT " lost, %" G_GUINT64_FORMAT " wrong, %" G_GUINT64_FORMAT
                   " unreadable; during the run %" G_GUINT64_FORMAT " puts, %" G_GUINT64_FORMAT
                   " buffered puts, %s%" G_GUINT64_FORMAT " gets%s of which %" G_GUINT64_FORMAT " wrong%s%s%s",
                   kv->n_keys, counts[HOLDS_OK], counts[HOLDS_IN_DOUBT_APPLIED], counts[HOLDS_NOTHING_OK],
                   counts[HOLDS_LOST], counts[HOLDS_WRONG], unread, kv->puts, kv->buffered, multiple_puts,
                   kv->gets, multiple_gets, kv->gets_wrong, examples->str,
                   kv->first_wrong_get != NULL ? "; first wrong get: " : "",
                   kv->first_wrong_get != NULL ? kv->first_wrong_get : "");
  g_string_free (examples, TRUE);
}

/* --- counters ---------------------------------------------------------------------------- */

struct _ChaosCounters {
  ChaosRun *run;
  HBaseTable *table;
  char *label;
  guint n;
  char **keys;
  gint64 *low;                  /* the sum of acknowledged increments */
  gint64 *high;                 /* plus the increments in doubt */
  GRand *rand;
  guint64 increments, reads, wrong_during_run;
};

ChaosCounters *
chaos_counters_new (ChaosRun *run, HBaseTable *table, const char *label, guint n)
{
  ChaosCounters *counters = g_new0 (ChaosCounters, 1);
  guint i;

  counters->run = run;
  counters->label = g_strdup (label);
  counters->table = g_object_ref (table);
  counters->n = n;
  counters->keys = g_new0 (char *, n + 1);
  counters->low = g_new0 (gint64, n);
  counters->high = g_new0 (gint64, n);
  for (i = 0; i < n; i++)
    counters->keys[i] = chaos_spread_key ("c", i);
  counters->rand = g_rand_new_with_seed (4242);
  kind_expect (label, "increment", KIND_FLOOR);
  kind_expect (label, "read", KIND_FLOOR);
  return counters;
}

void
chaos_counters_free (ChaosCounters *counters)
{
  g_object_unref (counters->table);
  g_strfreev (counters->keys);
  g_free (counters->label);
  g_free (counters->low);
  g_free (counters->high);
  g_rand_free (counters->rand);
  g_free (counters);
}

gpointer
chaos_counters_thread (gpointer data)
{
  ChaosCounters *counters = data;

  chaos_worker_start (counters->label);
  while (chaos_running (counters->run))
    {
      guint i = (guint) g_rand_int_range (counters->rand, 0, (gint32) counters->n);
      g_autoptr(GBytes) key = chaos_text_bytes (counters->keys[i]);
      g_autoptr(GError) error = NULL;
      gint64 value = 0;

      if (g_rand_int_range (counters->rand, 0, 100) < 70)
        {
          gint64 amount = g_rand_int_range (counters->rand, 1, 6);

          counters->increments++;
          if (hbase_table_increment_counter (counters->table, key, "c", "n", amount, &value, NULL, &error))
            {
              counters->low[i] += amount;
              counters->high[i] += amount;
              chaos_note_acked ();
              kind_done (counters->label, "increment", TRUE);
              if (value < counters->low[i] || value > counters->high[i])
                {
                  counters->wrong_during_run++;
                  chaos_log ("%s: %s: an increment returned %" G_GINT64_FORMAT ", allowed [%"
                             G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]", counters->label, counters->keys[i], value,
                             counters->low[i], counters->high[i]);
                }
            }
          else
            {
              g_autofree char *what = g_strdup_printf ("%s: increment %s", counters->label, counters->keys[i]);
              gboolean in_doubt = chaos_write_in_doubt (error);

              if (in_doubt)
                counters->high[i] += amount;
              chaos_note_write_failed (what, error, in_doubt);
              kind_done (counters->label, "increment", FALSE);
            }
        }
      else
        {
          counters->reads++;
          if (hbase_table_get_counter (counters->table, key, "c", "n", &value, NULL, &error))
            {
              chaos_note_success ();
              kind_done (counters->label, "read", TRUE);
              if (value < counters->low[i] || value > counters->high[i])
                {
                  counters->wrong_during_run++;
                  chaos_log ("%s: %s: read %" G_GINT64_FORMAT ", allowed [%" G_GINT64_FORMAT ", %"
                             G_GINT64_FORMAT "]", counters->label, counters->keys[i], value, counters->low[i],
                             counters->high[i]);
                }
            }
          else
            {
              g_autofree char *what = g_strdup_printf ("%s: read %s", counters->label, counters->keys[i]);

              chaos_note_read_failed (what, error);
              kind_done (counters->label, "read", FALSE);
            }
        }
      chaos_pause (counters->run, 5);
    }
  chaos_worker_end ();
  return NULL;
}

void
chaos_counters_check (ChaosCounters *counters)
{
  guint64 exact = 0, within = 0, outside = 0, unread = 0;
  GString *examples = g_string_new (NULL);
  guint i;

  for (i = 0; i < counters->n; i++)
    {
      g_autoptr(GBytes) key = chaos_text_bytes (counters->keys[i]);
      gint64 value = 0;
      guint attempt;
      gboolean ok = FALSE;

      for (attempt = 0; attempt < CHECK_ATTEMPTS && !ok; attempt++)
        {
          g_autoptr(GError) error = NULL;

          ok = hbase_table_get_counter (counters->table, key, "c", "n", &value, NULL, &error);
          if (!ok)
            {
              chaos_log ("%s: check: %s: %s", counters->label, counters->keys[i], error->message);
              g_usleep (G_USEC_PER_SEC);
            }
        }
      if (!ok)
        unread++;
      else if (value < counters->low[i] || value > counters->high[i])
        {
          outside++;
          g_string_append_printf (examples, "; %s = %" G_GINT64_FORMAT ", allowed [%" G_GINT64_FORMAT
                                  ", %" G_GINT64_FORMAT "]", counters->keys[i], value,
                                  counters->low[i], counters->high[i]);
        }
      else if (value == counters->low[i])
        exact++;
      else
        within++;
    }
  chaos_invariant (counters->label, outside == 0 && unread == 0 && counters->wrong_during_run == 0,
                   "%u counters: %" G_GUINT64_FORMAT " equal the acknowledged sum, %" G_GUINT64_FORMAT
                   " above it within the increments in doubt, %" G_GUINT64_FORMAT " outside [acknowledged, "
                   "acknowledged + in doubt], %" G_GUINT64_FORMAT " unreadable; during the run %"
                   G_GUINT64_FORMAT " increments, %" G_GUINT64_FORMAT " reads, %" G_GUINT64_FORMAT
                   " values outside the range%s",
                   counters->n, exact, within, outside, unread, counters->increments, counters->reads,
                   counters->wrong_during_run, examples->str);
  g_string_free (examples, TRUE);
}

/* --- long scans under concurrent writes ------------------------------------------------------- */

/* A scan table's rows are numbered by id: an even id 2n is the row
 * "sNNNNNN" written before the chaos, an odd one 2n+1 the row "sNNNNNNx"
 * (between it and the next), absent at first; so ids sort as their keys
 * do.  A churn worker puts and deletes rows (any id) while the table is
 * scanned; a row's values carry a generation, 0 for the first fill, the
 * same in each cell of a put. */
#define SCAN_IDS (2 * CHAOS_SCAN_ROWS)

typedef enum { ROW_ABSENT, ROW_PRESENT, ROW_UNKNOWN } RowState;

typedef struct {
  RowState state;               /* after the last write that returned */
  gboolean busy;                /* a write is in flight */
  gint64 last_start_us;         /* monotonic time the last write began */
  guint max_generation;         /* the highest generation ever written */
} ScanRow;

struct _ChaosScanRows {
  GMutex lock;
  gboolean wide;
  ScanRow rows[SCAN_IDS];
};

ChaosScanRows *
chaos_scan_rows_new (gboolean wide)
{
  ChaosScanRows *rows = g_new0 (ChaosScanRows, 1);
  guint id;

  g_mutex_init (&rows->lock);
  rows->wide = wide;
  for (id = 0; id < SCAN_IDS; id++)
    rows->rows[id].state = id % 2 == 0 ? ROW_PRESENT : ROW_ABSENT;
  return rows;
}

void
chaos_scan_rows_free (ChaosScanRows *rows)
{
  g_mutex_clear (&rows->lock);
  g_free (rows);
}

static char *
scan_key (guint id)
{
  return g_strdup_printf ("s%06u%s", id / 2, id % 2 == 1 ? "x" : "");
}

/* the id of a key, or -1 for a key no scan row has */
static gint
scan_id (const char *key)
{
  guint64 number;
  char digits[7];

  if (key[0] != 's' || strlen (key) < 7 || strlen (key) > 8 || (key[7] != '\0' && key[7] != 'x'))
    return -1;
  memcpy (digits, key + 1, 6);
  digits[6] = '\0';
  if (!g_ascii_string_to_unsigned (digits, 10, 0, CHAOS_SCAN_ROWS - 1, &number, NULL))
    return -1;
  return (gint) (number * 2 + (key[7] == 'x' ? 1 : 0));
}

static char *
scan_value (guint id, guint generation)
{
  g_autofree char *key = scan_key (id);

  if (generation == 0)
    return g_strdup_printf ("scan-%06u-%0100d", id / 2, 0);
  return g_strdup_printf ("scan-%s-g%u-%090d", key, generation, 0);
}

/* the other columns of a wide row (f:v is in every row) */
static const char *const wide_columns[] = { "a", "b", "c" };

static char *
scan_wide_value (guint id, const char *qualifier, guint generation)
{
  g_autofree char *key = scan_key (id);

  if (generation == 0)
    return g_strdup_printf ("scan-%06u-%s-%020d", id / 2, qualifier, 0);
  return g_strdup_printf ("scan-%s-%s-g%u-%010d", key, qualifier, generation, 0);
}

/* The generation of f:v, or -1 when it is no value of the row */
static gint64
scan_generation (guint id, const char *value)
{
  g_autofree char *zero = scan_value (id, 0);
  g_autofree char *key = scan_key (id);
  g_autofree char *prefix = g_strdup_printf ("scan-%s-g", key);
  g_autofree char *expected = NULL;
  guint64 generation;

  if (id % 2 == 0 && strcmp (value, zero) == 0)
    return 0;
  if (!g_str_has_prefix (value, prefix))
    return -1;
  generation = g_ascii_strtoull (value + strlen (prefix), NULL, 10);
  if (generation == 0 || generation > G_MAXUINT)
    return -1;
  expected = scan_value (id, (guint) generation);
  return strcmp (value, expected) == 0 ? (gint64) generation : -1;
}

static HBaseMutation *
scan_put (guint id, gboolean wide, guint generation)
{
  g_autofree char *key = scan_key (id);
  g_autofree char *value = scan_value (id, generation);
  g_autoptr(GBytes) row = chaos_text_bytes (key);
  HBaseMutation *put = hbase_mutation_new_put (row);
  guint c;

  put_text (put, "f", "v", value);
  for (c = 0; wide && c < G_N_ELEMENTS (wide_columns); c++)
    {
      g_autofree char *other = scan_wide_value (id, wide_columns[c], generation);

      put_text (put, "f", wide_columns[c], other);
    }
  return put;
}

gboolean
chaos_scan_fill (HBaseTable *table, gboolean wide, GError **error)
{
  g_autoptr(GPtrArray) batch = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  guint i;

  for (i = 0; i < CHAOS_SCAN_ROWS; i++)
    {
      g_ptr_array_add (batch, scan_put (2 * i, wide, 0));
      if (batch->len == 500 || i + 1 == CHAOS_SCAN_ROWS)
        {
          if (!hbase_table_apply_multiple (table, batch, NULL, error))
            return FALSE;
          g_ptr_array_set_size (batch, 0);
        }
    }
  return TRUE;
}

struct _ChaosScans {
  ChaosRun *run;
  HBaseTable *table;
  char *label;
  ChaosScanRows *model;
  gboolean wide;                /* rows of 4 cells, every other scan with a batch of 3 */
  gboolean churn;               /* writes rows instead of scanning */
  GRand *rand;
  guint problems_this_scan;     /* only the first few of a scan are logged */
  guint64 complete, complete_batched, broken, rows, duplicates, missing, out_of_order, wrong_values;
  guint64 untouched_checked, touched;       /* rows there before a scan: untouched during it, or not */
  guint64 churn_puts, churn_deletes, churn_failed;
  char *first_problem;
};

ChaosScans *
chaos_scans_new (ChaosRun *run, HBaseTable *table, const char *label, ChaosScanRows *rows, gboolean churn)
{
  ChaosScans *scans = g_new0 (ChaosScans, 1);

  scans->wide = rows->wide;
  scans->model = rows;
  scans->churn = churn;
  scans->run = run;
  scans->label = g_strdup (label);
  scans->table = g_object_ref (table);
  scans->rand = g_rand_new_with_seed (g_str_hash (label));
  if (churn)
    {
      kind_expect (label, "put", KIND_FLOOR);
      kind_expect (label, "delete", KIND_FLOOR);
    }
  else
    {
      kind_expect (label, "forward scan", SCAN_KIND_FLOOR);
      kind_expect (label, "reversed scan", SCAN_KIND_FLOOR);
      if (scans->wide)
        kind_expect (label, "batched scan", SCAN_KIND_FLOOR);
    }
  return scans;
}

void
chaos_scans_free (ChaosScans *scans)
{
  g_object_unref (scans->table);
  g_rand_free (scans->rand);
  g_free (scans->label);
  g_free (scans->first_problem);
  g_free (scans);
}

static void
scan_problem (ChaosScans *scans, guint64 *counter, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
scan_problem (ChaosScans *scans, guint64 *counter, const char *format, ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  (*counter)++;
  if (scans->problems_this_scan++ < 3)
    chaos_log ("%s: %s", scans->label, text);
  if (scans->first_problem == NULL)
    scans->first_problem = g_steal_pointer (&text);
}

/* One churn write: a row present (or unknown) gets a new generation or is
 * deleted, an absent one is put.  The row counts as touched from before
 * the call until any scan that began before it ends. */
static void
churn_once (ChaosScans *scans)
{
  ChaosScanRows *model = scans->model;
  guint id = (guint) g_rand_int_range (scans->rand, 0, SCAN_IDS);
  g_autofree char *key = scan_key (id);
  g_autoptr(GBytes) row = chaos_text_bytes (key);
  g_autoptr(HBaseMutation) mutation = NULL;
  g_autoptr(GError) error = NULL;
  gboolean delete, ok;
  guint generation;

  g_mutex_lock (&model->lock);
  delete = model->rows[id].state != ROW_ABSENT && g_rand_int_range (scans->rand, 0, 100) < 35;
  generation = ++model->rows[id].max_generation;
  model->rows[id].busy = TRUE;
  model->rows[id].last_start_us = g_get_monotonic_time ();
  g_mutex_unlock (&model->lock);

  if (delete)
    {
      mutation = hbase_mutation_new_delete (row);
    }
  else
    mutation = scan_put (id, scans->wide, generation);
  ok = hbase_table_apply (scans->table, mutation, NULL, &error);

  g_mutex_lock (&model->lock);
  model->rows[id].busy = FALSE;
  if (ok)
    model->rows[id].state = delete ? ROW_ABSENT : ROW_PRESENT;
  else if (chaos_write_in_doubt (error))
    model->rows[id].state = ROW_UNKNOWN;
  g_mutex_unlock (&model->lock);

  kind_done (scans->label, delete ? "delete" : "put", ok);
  if (ok)
    {
      chaos_note_acked ();
      if (delete)
        scans->churn_deletes++;
      else
        scans->churn_puts++;
    }
  else
    {
      g_autofree char *what = g_strdup_printf ("%s: %s %s", scans->label, delete ? "delete" : "put", key);

      scans->churn_failed++;
      chaos_note_write_failed (what, error, chaos_write_in_doubt (error));
    }
}

/* A wide row's other cells: each there once, of the generation of f:v */
static gboolean
scan_wide_row_whole (HBaseRow *row, guint id, guint generation)
{
  guint c;

  if (hbase_row_get_n_cells (row) != 1 + G_N_ELEMENTS (wide_columns))
    return FALSE;
  for (c = 0; c < G_N_ELEMENTS (wide_columns); c++)
    {
      g_autofree char *expected = scan_wide_value (id, wide_columns[c], generation);
      g_autofree char *value = chaos_bytes_text (hbase_row_lookup (row, "f", wide_columns[c]));

      if (strcmp (value, expected) != 0)
        return FALSE;
    }
  return TRUE;
}

/* One whole-table scan, forward or reversed, a few rows per round trip and
 * slowly, so that it lives through region moves, splits, restarts and the
 * churn's writes.  Rows come in strict key order, each at most once, with
 * a value some write gave them; every row there when the scan began and
 * not written while it ran comes exactly once (up to where a scan broken
 * off by an error got). */
static void
scan_once (ChaosScans *scans, gboolean reversed, guint batch)
{
  ChaosScanRows *model = scans->model;
  HBaseScanOptions options = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autofree gboolean *expected = g_new0 (gboolean, SCAN_IDS);
  g_autofree guint8 *seen_count = g_new0 (guint8, SCAN_IDS);
  const char *direction = reversed ? "reversed" : "forward";
  guint64 seen = 0;
  gint last = -1;               /* the id of the last row returned */
  gint64 began;
  guint id;
  HBaseRow *row;

  scans->problems_this_scan = 0;
  /* what the table holds for sure as the scan begins */
  g_mutex_lock (&model->lock);
  began = g_get_monotonic_time ();
  for (id = 0; id < SCAN_IDS; id++)
    expected[id] = model->rows[id].state == ROW_PRESENT && !model->rows[id].busy;
  g_mutex_unlock (&model->lock);

  options.reversed = reversed;
  options.caching = 20;
  options.batch = batch;
  scanner = hbase_table_scan (scans->table, &options, &error);
  if (scanner == NULL)
    {
      chaos_note_read_failed ("open a scan", error);
      kind_done (scans->label, batch > 0 ? "batched scan" : reversed ? "reversed scan" : "forward scan", FALSE);
      return;
    }
  while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
    {
      g_autofree char *key = chaos_bytes_text (hbase_row_get_key (row));
      g_autofree char *value = chaos_bytes_text (hbase_row_lookup (row, "f", "v"));
      gint row_id = scan_id (key);

      chaos_note_success ();
      seen++;
      scans->rows++;
      if (row_id < 0)
        scan_problem (scans, &scans->wrong_values, "a row '%s' that was never written", key);
      else
        {
          gint64 generation = scan_generation ((guint) row_id, value);
          guint max_generation;

          g_mutex_lock (&model->lock);
          max_generation = model->rows[row_id].max_generation;
          g_mutex_unlock (&model->lock);
          if (generation < 0 || generation > max_generation)
            scan_problem (scans, &scans->wrong_values, "row %s holds '%.40s'", key, value);
          else if (scans->wide && !scan_wide_row_whole (row, (guint) row_id, (guint) generation))
            scan_problem (scans, &scans->wrong_values, "row %s came with %u cells, not its 4 of generation %"
                          G_GINT64_FORMAT " (batch %u)", key, hbase_row_get_n_cells (row), generation, batch);
          else if (!scans->wide && hbase_row_get_n_cells (row) != 1)
            scan_problem (scans, &scans->wrong_values, "row %s came with %u cells, not 1", key,
                          hbase_row_get_n_cells (row));
          if (seen_count[row_id] < G_MAXUINT8)
            seen_count[row_id]++;
          if (seen_count[row_id] > 1)
            scan_problem (scans, &scans->duplicates, "%s scan: row %s again after %" G_GUINT64_FORMAT " rows",
                          direction, key, seen - 1);
          else if (last >= 0 && (reversed ? row_id > last : row_id < last))
            scan_problem (scans, &scans->out_of_order, "%s scan: row %s after a row past it, after %"
                          G_GUINT64_FORMAT " rows", direction, key, seen - 1);
          if (last < 0 || (reversed ? row_id < last : row_id > last))
            last = row_id;
        }
      hbase_row_unref (row);
      if (seen % 20 == 0)
        g_usleep (40 * 1000);
    }

  /* every row there when the scan began and untouched since: exactly once
   * (a scan broken off answers for the rows before where it got) */
  g_mutex_lock (&model->lock);
  for (id = 0; id < SCAN_IDS; id++)
    {
      gboolean reached = error == NULL || (last >= 0 && (reversed ? (gint) id > last : (gint) id < last));

      if (!expected[id] || !reached)
        continue;
      if (model->rows[id].last_start_us >= began)
        {
          scans->touched++;
          continue;
        }
      scans->untouched_checked++;
      if (seen_count[id] == 0)
        {
          g_autofree char *key = scan_key (id);

          g_mutex_unlock (&model->lock);
          scan_problem (scans, &scans->missing, "%s scan of %" G_GUINT64_FORMAT " rows%s: row %s, there "
                        "before the scan and untouched during it, was not returned", direction, seen,
                        error != NULL ? " (broken off)" : "", key);
          g_mutex_lock (&model->lock);
        }
    }
  g_mutex_unlock (&model->lock);
  if (scans->problems_this_scan > 3)
    chaos_log ("%s: %u problems in this scan, the first 3 shown", scans->label, scans->problems_this_scan);
  if (error != NULL)
    {
      g_autofree char *what = g_strdup_printf ("%s: %s scan", scans->label, direction);

      scans->broken++;
      chaos_note_read_failed (what, error);
      kind_done (scans->label, batch > 0 ? "batched scan" : reversed ? "reversed scan" : "forward scan", FALSE);
      return;
    }
  kind_done (scans->label, batch > 0 ? "batched scan" : reversed ? "reversed scan" : "forward scan", TRUE);
  scans->complete++;
  if (batch > 0)
    scans->complete_batched++;
}

gpointer
chaos_scans_thread (gpointer data)
{
  ChaosScans *scans = data;
  guint n = 0;

  chaos_worker_start (scans->label);
  while (chaos_running (scans->run))
    {
      if (scans->churn)
        {
          churn_once (scans);
          chaos_pause (scans->run, 50);
          continue;
        }
      /* forward, reversed; on wide rows each also with a batch */
      scan_once (scans, n % 3 == 2, scans->wide && n % 2 == 1 ? 3 : 0);
      n++;
    }
  chaos_worker_end ();
  return NULL;
}

void
chaos_scans_check (ChaosScans *scans)
{
  g_autofree char *batched = scans->wide ?
    g_strdup_printf (" (4 cells a row; %" G_GUINT64_FORMAT " with a batch of 3 cells)", scans->complete_batched) :
    g_strdup ("");

  if (scans->churn)
    {
      printf ("%s: %" G_GUINT64_FORMAT " puts and %" G_GUINT64_FORMAT " deletes acknowledged, %" G_GUINT64_FORMAT
              " failed, while the table was scanned\n", scans->label, scans->churn_puts, scans->churn_deletes,
              scans->churn_failed);
      return;
    }
  /* touched > 0: the scans did run under concurrent writes */
  chaos_invariant (scans->label, scans->complete > 0 && scans->duplicates == 0 && scans->missing == 0 &&
                   scans->out_of_order == 0 && scans->wrong_values == 0 && scans->touched > 0 &&
                   scans->untouched_checked > 0 && (!scans->wide || scans->complete_batched > 0),
                   "%" G_GUINT64_FORMAT " whole-table scans%s completed, %" G_GUINT64_FORMAT
                   " broken off by an error (their rows checked too); %" G_GUINT64_FORMAT " rows read; of the rows "
                   "there as a scan began, %" G_GUINT64_FORMAT " untouched during it (each must come once), %"
                   G_GUINT64_FORMAT " written meanwhile; %" G_GUINT64_FORMAT " repeated, %" G_GUINT64_FORMAT
                   " untouched rows missing, %" G_GUINT64_FORMAT " out of order, %" G_GUINT64_FORMAT
                   " wrong values%s%s",
                   scans->complete, batched, scans->broken, scans->rows, scans->untouched_checked, scans->touched,
                   scans->duplicates, scans->missing, scans->out_of_order, scans->wrong_values,
                   scans->first_problem != NULL ? "; first: " : "",
                   scans->first_problem != NULL ? scans->first_problem : "");
}
