/* SPDX-License-Identifier: Apache-2.0 */
/* cli-index.c: the hbase-glib commands for secondary indexes kept in Redis
 * (hbase-index.h, hbase-index-query.h): index-create-meta-table,
 * index-define, index-show,
 * index-query, index-verify, index-rebuild, index-repair, index-drop,
 * index-migrate. */
#include "config.h"

#include <string.h>

#include "cli.h"

#define INDEX_GROUP "Secondary indexes in Redis"

static HBaseIndex *
open_index (Cli *cli, const char *table, GError **error)
{
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
  HBaseClient *client;

  if (!cli_index_options (cli, &options, error) || (client = cli_client (cli, error)) == NULL)
    return NULL;
  return hbase_index_open (client, table, &options, NULL, error);
}

/* --- definitions ------------------------------------------------------------------------- */

static const char *const type_names[] = { "string", "int64", "double", "counter" };

static char *
flags_text (HBaseIndexFlags flags)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (flags & HBASE_INDEX_EXACT)
    g_string_append (text, "exact");
  if (flags & HBASE_INDEX_RANGE)
    g_string_append (text, text->len > 0 ? ",range" : "range");
  if (flags & HBASE_INDEX_LEX)
    g_string_append (text, text->len > 0 ? ",lex" : "lex");
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* "NAME=FAMILY:QUALIFIER[,TYPE][,FLAG]..." */
static gboolean
add_definition (HBaseIndexSpec *spec, const char *text, GError **error)
{
  const char *equals = strchr (text, '=');
  g_autofree char *name = NULL;
  g_auto(GStrv) parts = NULL;
  g_autofree char *family = NULL;
  g_autofree char *qualifier = NULL;
  HBaseIndexValueType type = HBASE_INDEX_VALUE_STRING;
  HBaseIndexFlags flags = 0;

  if (equals == NULL || equals == text)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "\"%s\" is not NAME=FAMILY:QUALIFIER[,TYPE][,FLAG...]", text);
      return FALSE;
    }
  name = g_strndup (text, (gsize) (equals - text));
  parts = g_strsplit (equals + 1, ",", -1);
  if (!cli_parse_column (parts[0], &family, &qualifier, error))
    return FALSE;
  for (char **p = parts + 1; *p != NULL; p++)
    {
      gboolean known = FALSE;

      for (gsize t = 0; t < G_N_ELEMENTS (type_names) && !known; t++)
        if (g_ascii_strcasecmp (*p, type_names[t]) == 0)
          {
            type = (HBaseIndexValueType) t;
            known = TRUE;
          }
      if (!known && g_ascii_strcasecmp (*p, "exact") == 0)
        flags |= HBASE_INDEX_EXACT, known = TRUE;
      if (!known && g_ascii_strcasecmp (*p, "range") == 0)
        flags |= HBASE_INDEX_RANGE, known = TRUE;
      if (!known && g_ascii_strcasecmp (*p, "lex") == 0)
        flags |= HBASE_INDEX_LEX, known = TRUE;
      if (!known)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "index %s: unknown \"%s\" (types: string, int64, double, counter; "
                       "flags: exact, range, lex)", name, *p);
          return FALSE;
        }
    }
  if ((flags & (HBASE_INDEX_EXACT | HBASE_INDEX_RANGE)) == 0)
    flags |= HBASE_INDEX_EXACT;
  return hbase_index_spec_add (spec, name, family, qualifier, type, flags, error);
}

static void
print_definitions (const HBaseIndexSpec *spec)
{
  for (guint i = 0; i < hbase_index_spec_get_n_indexes (spec); i++)
    {
      const char *name = hbase_index_spec_get_name (spec, i);
      const char *family = NULL, *qualifier = NULL;
      HBaseIndexValueType type = HBASE_INDEX_VALUE_STRING;
      HBaseIndexFlags flags = 0;
      g_autofree char *flag_text = NULL;

      hbase_index_spec_lookup (spec, name, &family, &qualifier, &type, &flags);
      flag_text = flags_text (flags);
      printf ("%s\t%s:%s\t%s\t%s\n", name, family, qualifier != NULL ? qualifier : "",
              (guint) type < G_N_ELEMENTS (type_names) ? type_names[type] : "?", flag_text);
    }
}

/* {"indexes": [{"name", "family", "qualifier", "type", "flags": [...]}],
 *  "key_prefix", "state", "reason"} on one line */
static void
print_definitions_json (const HBaseIndexSpec *spec, const char *state, const char *reason)
{
  g_autoptr(GString) out = g_string_new ("{\"indexes\":[");

  for (guint i = 0; i < hbase_index_spec_get_n_indexes (spec); i++)
    {
      const char *name = hbase_index_spec_get_name (spec, i);
      const char *family = NULL, *qualifier = NULL;
      HBaseIndexValueType type = HBASE_INDEX_VALUE_STRING;
      HBaseIndexFlags flags = 0;
      g_autofree char *flag_text = NULL;
      g_auto(GStrv) flag_list = NULL;

      hbase_index_spec_lookup (spec, name, &family, &qualifier, &type, &flags);
      flag_text = flags_text (flags);
      flag_list = g_strsplit (flag_text, ",", -1);
      g_string_append (out, i > 0 ? ",{\"name\":" : "{\"name\":");
      cli_json_string (out, name);
      g_string_append (out, ",\"family\":");
      cli_json_string (out, family);
      g_string_append (out, ",\"qualifier\":");
      cli_json_string (out, qualifier != NULL ? qualifier : "");
      g_string_append (out, ",\"type\":");
      cli_json_string (out, (guint) type < G_N_ELEMENTS (type_names) ? type_names[type] : "?");
      g_string_append (out, ",\"flags\":[");
      for (char **f = flag_list; *f != NULL; f++)
        if (**f != '\0')
          {
            if (out->str[out->len - 1] != '[')
              g_string_append_c (out, ',');
            cli_json_string (out, *f);
          }
      g_string_append (out, "]}");
    }
  g_string_append (out, "],\"key_prefix\":");
  cli_json_string (out, hbase_index_spec_get_key_prefix (spec));
  g_string_append (out, ",\"state\":");
  cli_json_string (out, state);
  g_string_append (out, ",\"reason\":");
  if (reason != NULL)
    cli_json_string (out, reason);
  else
    g_string_append (out, "null");
  g_string_append (out, "}\n");
  fwrite (out->str, 1, out->len, stdout);
}

/* --- maintenance, with progress ----------------------------------------------------------- */

typedef struct {
  CliProgress bar;
  guint64 rows;         /* counted before the work, for the bar */
  char phase[32];
  char unit[64];
} Progress;

/* The scan of the table shows as a bar of rows; the other phases ("clear",
 * "check", "fix") as a count of index entries. */
static void
on_progress (const HBaseIndexProgress *progress, gpointer user_data)
{
  Progress *p = user_data;
  gboolean scan = strcmp (progress->phase, "scan") == 0;

  if (strcmp (p->phase, progress->phase) != 0)
    {
      cli_progress_finish (&p->bar);
      g_snprintf (p->phase, sizeof p->phase, "%s", progress->phase);
      g_snprintf (p->unit, sizeof p->unit, scan ? "rows scanned" : "entries (%s)", progress->phase);
      p->bar.unit = p->unit;
      p->bar.total = scan ? p->rows : 0;
      p->bar.started = g_get_monotonic_time ();
      p->bar.shown = 0;
    }
  cli_progress_update (&p->bar, scan ? progress->rows : progress->entries);
}

/* A report as one line of JSON: its counts, "consistent", "rebuilt" and
 * "examples" (the report's example lines, as strings). */
static char *
report_json (const HBaseIndexReport *report)
{
  GString *out = g_string_new (NULL);
  const char *const *examples = hbase_index_report_get_examples (report);

  g_string_append_printf (out, "{\"rows\":%" G_GUINT64_FORMAT ",\"entries\":%" G_GUINT64_FORMAT
                          ",\"missing\":%" G_GUINT64_FORMAT ",\"extra\":%" G_GUINT64_FORMAT
                          ",\"in_doubt\":%" G_GUINT64_FORMAT ",\"repaired\":%" G_GUINT64_FORMAT
                          ",\"rebuilt\":%s,\"consistent\":%s,\"examples\":[",
                          hbase_index_report_get_rows (report), hbase_index_report_get_entries (report),
                          hbase_index_report_get_missing (report), hbase_index_report_get_extra (report),
                          hbase_index_report_get_in_doubt (report), hbase_index_report_get_repaired (report),
                          hbase_index_report_get_rebuilt (report) ? "true" : "false",
                          hbase_index_report_is_consistent (report) ? "true" : "false");
  for (gsize i = 0; examples != NULL && examples[i] != NULL; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      cli_json_string (out, examples[i]);
    }
  g_string_append (out, "]}\n");
  return g_string_free (out, FALSE);
}

typedef enum { MAINTAIN_VERIFY, MAINTAIN_REBUILD, MAINTAIN_REPAIR } Maintenance;

static int
maintain (Cli *cli, const CliCommand *command, int argc, char **argv, Maintenance what)
{
  gboolean quiescent = FALSE, forced = FALSE;
  g_autofree char *format_name = NULL;
  CliFormat format = CLI_FORMAT_TSV;
  const GOptionEntry entries[] = {
    { "progress", 0, 0, G_OPTION_ARG_NONE, &forced, "Show progress on stderr even when it is not a terminal", NULL },
    { "assume-quiescent", 0, 0, G_OPTION_ARG_NONE, &quiescent,
      "No indexed write is in flight anywhere: take pending changes as abandoned at once", NULL },
    CLI_FORMAT_NAME_ENTRY (&format_name),
    G_OPTION_ENTRY_NULL
  };
  HBaseIndexMaintenanceOptions options = HBASE_INDEX_MAINTENANCE_OPTIONS_INIT;
  g_autoptr(HBaseIndex) index = NULL;
  g_autoptr(HBaseIndexReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  Progress progress = { { 0 }, 0, "", "" };
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 1, 1)) != CLI_EXIT_OK ||
      (status = cli_format_parse (cli, command, format_name, &format)) != CLI_EXIT_OK)
    goto out;
  if ((index = open_index (cli, argv[1], &error)) == NULL)
    {
      status = cli_fail (cli, command, error);
      goto out;
    }
  /* a bar needs the total: count the rows first (keys only) when it shows */
  cli_progress_start (&progress.bar, "rows", 0, forced);
  if (progress.bar.enabled)
    {
      HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
      g_autoptr(HBaseScanner) scanner = NULL;
      HBaseRow *row;
      guint64 rows = 0;

      scan.read.filter = "FirstKeyOnlyFilter() AND KeyOnlyFilter()";
      scan.caching = 1000;
      if ((scanner = hbase_table_scan (hbase_index_get_table (index), &scan, &error)) == NULL)
        {
          status = cli_fail (cli, command, error);
          goto out;
        }
      while (hbase_scanner_next (scanner, &row, NULL, &error) && row != NULL)
        {
          hbase_row_unref (row);
          rows++;
        }
      if (error != NULL)
        {
          status = cli_fail (cli, command, error);
          goto out;
        }
      progress.rows = rows;
      options.progress = on_progress;
      options.user_data = &progress;
    }
  options.assume_quiescent = quiescent;
  report = what == MAINTAIN_VERIFY ? hbase_index_verify (index, &options, NULL, &error)
           : what == MAINTAIN_REBUILD ? hbase_index_rebuild (index, &options, NULL, &error)
           : hbase_index_repair (index, &options, NULL, &error);
  cli_progress_finish (&progress.bar);
  if (report == NULL)
    {
      status = cli_fail (cli, command, error);
      goto out;
    }
  text = format == CLI_FORMAT_JSON ? report_json (report) : hbase_index_report_to_string (report);
  printf ("%s", text);
  if (what == MAINTAIN_VERIFY && !hbase_index_report_is_consistent (report))
    status = CLI_EXIT_NOT_APPLIED;
out:
  return status;
}

static int
run_index_verify (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return maintain (cli, command, argc, argv, MAINTAIN_VERIFY);
}

static int
run_index_rebuild (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return maintain (cli, command, argc, argv, MAINTAIN_REBUILD);
}

static int
run_index_repair (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return maintain (cli, command, argc, argv, MAINTAIN_REPAIR);
}

/* --- define, show, drop ------------------------------------------------------------------- */

static int
run_index_define (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  g_autofree char *prefix = NULL;
  g_autofree char *format_name = NULL;
  gboolean rebuild = FALSE;
  const GOptionEntry entries[] = {
    { "key-prefix", 0, 0, G_OPTION_ARG_STRING, &prefix, "First part of the index's Redis keys", "PREFIX" },
    { "rebuild", 0, 0, G_OPTION_ARG_NONE, &rebuild, "Build the index right away (as index-rebuild)", NULL },
    CLI_FORMAT_NAME_ENTRY (&format_name),
    G_OPTION_ENTRY_NULL
  };
  CliFormat format = CLI_FORMAT_TSV;
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  g_autoptr(GError) error = NULL;
  HBaseIndexOptions define_options = HBASE_INDEX_OPTIONS_INIT;
  HBaseClient *client;
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 2, -1)) != CLI_EXIT_OK ||
      (status = cli_format_parse (cli, command, format_name, &format)) != CLI_EXIT_OK)
    goto out;
  for (int i = 2; i < argc; i++)
    if (!add_definition (spec, argv[i], &error))
      goto failed;
  if ((prefix != NULL && !hbase_index_spec_set_key_prefix (spec, prefix, &error)) ||
      !cli_index_options (cli, &define_options, &error) ||
      (client = cli_client (cli, &error)) == NULL ||
      !hbase_index_define (client, argv[1], spec, &define_options, NULL, &error))
    goto failed;
  if (!rebuild)
    {
      g_printerr ("defined; `hbase-glib index-rebuild %s` builds the index\n", argv[1]);
      goto out;
    }
  {
    HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
    g_autoptr(HBaseIndex) index = NULL;
    g_autoptr(HBaseIndexReport) report = NULL;
    g_autofree char *text = NULL;

    if (!cli_index_options (cli, &options, &error) ||
        (index = hbase_index_open (client, argv[1], &options, NULL, &error)) == NULL ||
        (report = hbase_index_rebuild (index, NULL, NULL, &error)) == NULL)
      goto failed;
    text = format == CLI_FORMAT_JSON ? report_json (report) : hbase_index_report_to_string (report);
    printf ("%s", text);
  }
  goto out;
failed:
  status = cli_fail (cli, command, error);
out:
  return status;
}

static int
run_index_create_meta_table (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  HBaseClient *client;
  int status;

  if ((status = cli_parse (cli, command, NULL, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 0, 0)) != CLI_EXIT_OK)
    return status;
  if (!cli_index_options (cli, &options, &error) || (client = cli_client (cli, &error)) == NULL ||
      !hbase_index_create_meta_table (client, &options, NULL, &error))
    return cli_fail (cli, command, error);
  return CLI_EXIT_OK;
}

static int
run_index_show (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  static const char *const states[] = { "ready", "not built", "building", "dirty", "unreachable" };
  g_autoptr(HBaseIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *reason = NULL;
  HBaseIndexState state = HBASE_INDEX_STATE_READY;
  const HBaseIndexSpec *spec;
  g_autofree char *format_name = NULL;
  CliFormat format = CLI_FORMAT_TSV;
  const GOptionEntry entries[] = {
    CLI_FORMAT_NAME_ENTRY (&format_name),
    G_OPTION_ENTRY_NULL
  };
  const char *state_name;
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 1, 1)) != CLI_EXIT_OK ||
      (status = cli_format_parse (cli, command, format_name, &format)) != CLI_EXIT_OK)
    goto out;
  if ((index = open_index (cli, argv[1], &error)) == NULL ||
      !hbase_index_get_state (index, &state, &reason, NULL, &error))
    {
      status = cli_fail (cli, command, error);
      goto out;
    }
  spec = hbase_index_get_spec (index);
  state_name = (guint) state < G_N_ELEMENTS (states) ? states[state] : "?";
  if (format == CLI_FORMAT_JSON)
    {
      print_definitions_json (spec, state_name, reason);
      goto out;
    }
  print_definitions (spec);
  printf ("key prefix: %s\nstate: %s%s%s%s\n", hbase_index_spec_get_key_prefix (spec), state_name,
          reason != NULL ? " (" : "", reason != NULL ? reason : "", reason != NULL ? ")" : "");
out:
  return status;
}

static int
run_index_drop (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  gboolean yes = FALSE;
  const GOptionEntry entries[] = {
    { "yes", 'y', 0, G_OPTION_ARG_NONE, &yes, "Do not ask for confirmation", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(HBaseIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *question = NULL;
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 1, 1)) != CLI_EXIT_OK)
    goto out;
  question = g_strdup_printf ("drop the index of table %s (its data stays)?", argv[1]);
  if (!cli_confirm (question, yes, &error) || (index = open_index (cli, argv[1], &error)) == NULL ||
      !hbase_index_drop (index, NULL, &error))
    status = cli_fail (cli, command, error);
out:
  return status;
}

static int
run_index_migrate (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  g_autoptr(HBaseIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  guint64 moved = 0;
  int status;

  if ((status = cli_parse (cli, command, NULL, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 1, 1)) != CLI_EXIT_OK)
    goto out;
  if ((index = open_index (cli, argv[1], &error)) == NULL ||
      !hbase_index_migrate (index, &moved, NULL, &error))
    status = cli_fail (cli, command, error);
  else if (moved > 0)
    printf ("moved %" G_GUINT64_FORMAT " Redis keys of the index of %s to the current layout\n",
            moved, argv[1]);
  else
    printf ("nothing to move: the index of %s is not in the former key layout\n", argv[1]);
out:
  return status;
}

/* --- queries ----------------------------------------------------------------------------- */

/* One condition: NAME OP VALUE, OP one of = < <= > >=. */
typedef struct {
  char *name;
  char *op;
  char *value;
} Condition;

static gboolean
parse_condition (const char *text, Condition *condition, GError **error)
{
  gsize n = strcspn (text, "=<>");

  if (n == 0 || text[n] == '\0')
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "\"%s\" is not NAME=VALUE, NAME<VALUE, NAME<=VALUE, NAME>VALUE or NAME>=VALUE", text);
      return FALSE;
    }
  condition->name = g_strndup (text, n);
  condition->op = g_strndup (text + n, text[n] != '=' && text[n + 1] == '=' ? 2 : 1);
  condition->value = g_strdup (text + n + strlen (condition->op));
  return TRUE;
}

static void
condition_clear (Condition *condition)
{
  g_free (condition->name);
  g_free (condition->op);
  g_free (condition->value);
}

/* The query of one index between optional bounds (or equal to a value). */
static HBaseIndexQuery *
bounded_query (const HBaseIndexSpec *spec, const char *name, const char *equal, const char *low,
               gboolean low_inclusive, const char *high, gboolean high_inclusive, GError **error)
{
  HBaseIndexValueType type = HBASE_INDEX_VALUE_STRING;

  if (!hbase_index_spec_lookup (spec, name, NULL, NULL, &type, NULL))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "the table has no index \"%s\"", name);
      return NULL;
    }
  if (type == HBASE_INDEX_VALUE_STRING)
    {
      g_autoptr(GBytes) value = NULL;
      g_autoptr(GBytes) min = NULL;
      g_autoptr(GBytes) max = NULL;

      if (equal != NULL)
        return (value = cli_unescape (equal, "value", error)) != NULL ? hbase_index_query_equal (name, value) : NULL;
      if ((low != NULL && (min = cli_unescape (low, "value", error)) == NULL) ||
          (high != NULL && (max = cli_unescape (high, "value", error)) == NULL))
        return NULL;
      return hbase_index_query_range (name, min, low_inclusive, max, high_inclusive);
    }
  if (type == HBASE_INDEX_VALUE_DOUBLE)
    {
      double min = 0, max = 0;
      char *end = NULL;
      const char *texts[] = { equal != NULL ? equal : low, equal != NULL ? equal : high };
      double *slots[] = { &min, &max };

      for (int i = 0; i < 2; i++)
        if (texts[i] != NULL)
          {
            *slots[i] = g_ascii_strtod (texts[i], &end);
            if (end == texts[i] || *end != '\0')
              {
                g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                             "index %s holds numbers: \"%s\" is not one", name, texts[i]);
                return NULL;
              }
          }
      if (equal != NULL)
        return hbase_index_query_range_double (name, &min, TRUE, &max, TRUE);
      return hbase_index_query_range_double (name, low != NULL ? &min : NULL, low_inclusive,
                                             high != NULL ? &max : NULL, high_inclusive);
    }
  /* int64 and counters */
  {
    gint64 min = 0, max = 0;

    if (equal != NULL)
      return cli_parse_int64 (equal, "value", &min, error) ? hbase_index_query_equal_int64 (name, min) : NULL;
    if ((low != NULL && !cli_parse_int64 (low, "value", &min, error)) ||
        (high != NULL && !cli_parse_int64 (high, "value", &max, error)))
      return NULL;
    return hbase_index_query_range_int64 (name, low != NULL ? &min : NULL, low_inclusive,
                                          high != NULL ? &max : NULL, high_inclusive);
  }
}

/* The conditions as one query: AND (or OR with @any) of one query per
 * condition, except that with AND a lower and an upper bound of one index
 * make one range. */
static HBaseIndexQuery *
build_query (const HBaseIndexSpec *spec, Condition *conditions, guint n, gboolean any, GError **error)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_index_query_unref);
  g_autofree gboolean *used = g_new0 (gboolean, n);

  for (guint i = 0; i < n; i++)
    {
      Condition *c = &conditions[i], *upper = NULL, *lower = NULL;
      HBaseIndexQuery *query;

      if (used[i])
        continue;
      used[i] = TRUE;
      if (strcmp (c->op, "=") == 0)
        query = bounded_query (spec, c->name, c->value, NULL, FALSE, NULL, FALSE, error);
      else
        {
          if (c->op[0] == '>')
            lower = c;
          else
            upper = c;
          /* the other bound of the same index, when ANDed */
          for (guint j = i + 1; j < n && !any; j++)
            if (!used[j] && strcmp (conditions[j].name, c->name) == 0 && strcmp (conditions[j].op, "=") != 0 &&
                (conditions[j].op[0] == '>') == (lower == NULL))
              {
                used[j] = TRUE;
                if (lower == NULL)
                  lower = &conditions[j];
                else
                  upper = &conditions[j];
                break;
              }
          query = bounded_query (spec, c->name, NULL, lower != NULL ? lower->value : NULL,
                                 lower != NULL && lower->op[1] == '=', upper != NULL ? upper->value : NULL,
                                 upper != NULL && upper->op[1] == '=', error);
        }
      if (query == NULL)
        return NULL;
      /* the array holds it; the composition below takes its own
       * references */
      g_ptr_array_add (parts, query);
    }
  if (parts->len == 1)
    return hbase_index_query_ref (parts->pdata[0]);
  return any ? hbase_index_query_any ((HBaseIndexQuery **) parts->pdata, parts->len)
             : hbase_index_query_all ((HBaseIndexQuery **) parts->pdata, parts->len);
}

static int
run_index_query (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  CliOutput output = { 0 };
  g_auto(GStrv) column_args = NULL;
  g_autofree char *token = NULL;
  gboolean any = FALSE, count_only = FALSE, reverse = FALSE, stats = FALSE;
  int limit = 0;
  const GOptionEntry entries[] = {
    { "any", 0, 0, G_OPTION_ARG_NONE, &any, "Rows matching any condition (default: all of them)", NULL },
    { "count", 0, 0, G_OPTION_ARG_NONE, &count_only, "Print only the number of matching rows", NULL },
    { "limit", 'l', 0, G_OPTION_ARG_INT, &limit, "At most N rows (a page; stderr tells the next page's token)", "N" },
    { "page-token", 0, 0, G_OPTION_ARG_STRING, &token, "Continue after the page this token ends", "TOKEN" },
    { "reverse", 'r', 0, G_OPTION_ARG_NONE, &reverse, "In descending row key order", NULL },
    { "column", 'c', 0, G_OPTION_ARG_STRING_ARRAY, &column_args,
      "Only this column, FAMILY or FAMILY:QUALIFIER (repeatable)", "COLUMN" },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &stats, "Tell on stderr how the query ran", NULL },
    CLI_OUTPUT_ENTRIES (&output),
    G_OPTION_ENTRY_NULL
  };
  HBaseIndexFindOptions find = HBASE_INDEX_FIND_OPTIONS_INIT;
  g_autoptr(GArray) conditions = g_array_new (FALSE, TRUE, sizeof (Condition));
  g_autoptr(HBaseIndex) index = NULL;
  g_autoptr(HBaseIndexQuery) query = NULL;
  g_autoptr(HBaseIndexPage) page = NULL;
  g_autoptr(GString) buffer = g_string_new (NULL);
  g_autoptr(GPtrArray) columns = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  int status;

  g_array_set_clear_func (conditions, (GDestroyNotify) condition_clear);
  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 2, -1)) != CLI_EXIT_OK)
    goto out;
  if (limit < 0)
    {
      status = cli_usage (command, "--limit must not be negative");
      goto out;
    }
  if (!cli_output_check (&output, &error))
    goto failed;
  for (int i = 2; i < argc; i++)
    {
      Condition condition = { NULL, NULL, NULL };

      if (!parse_condition (argv[i], &condition, &error))
        goto failed;
      g_array_append_val (conditions, condition);
    }
  for (char **c = column_args; c != NULL && *c != NULL; c++)
    {
      g_autofree char *family = NULL;
      g_autofree char *qualifier = NULL;

      if (!cli_parse_column (*c, &family, &qualifier, &error))
        goto failed;
      g_ptr_array_add (columns, qualifier != NULL ? g_strconcat (family, ":", qualifier, NULL)
                                                  : g_steal_pointer (&family));
    }
  g_ptr_array_add (columns, NULL);
  if ((index = open_index (cli, argv[1], &error)) == NULL ||
      (query = build_query (hbase_index_get_spec (index), (Condition *) (gpointer) conditions->data,
                            conditions->len, any, &error)) == NULL)
    goto failed;
  if (count_only)
    {
      guint64 count = 0;

      if (!hbase_index_count (index, query, &count, NULL, &error))
        goto failed;
      printf ("%" G_GUINT64_FORMAT "\n", count);
      goto out;
    }
  find.limit = (guint) limit;
  find.page_token = token;
  find.reversed = reverse;
  find.columns = columns->len > 1 ? (const char *const *) columns->pdata : NULL;
  if ((page = hbase_index_find (index, query, &find, NULL, &error)) == NULL)
    goto failed;
  {
    GPtrArray *rows = hbase_index_page_get_rows (page);
    const HBaseIndexQueryStats *s = hbase_index_page_get_stats (page);

    for (guint i = 0; i < rows->len; i++)
      cli_output_row (&output, rows->pdata[i], buffer);
    if (hbase_index_page_get_next_token (page) != NULL)
      g_printerr ("more rows: --page-token %s\n", hbase_index_page_get_next_token (page));
    if (stats)
      {
        g_autofree char *text = hbase_index_query_to_string (query);

        g_printerr ("query %s: %" G_GUINT64_FORMAT " candidates from Redis, %" G_GUINT64_FORMAT
                    " rows fetched, %" G_GUINT64_FORMAT " stale, %" G_GUINT64_FORMAT " repaired%s\n",
                    text, s->candidates, s->fetched, s->stale, s->repaired,
                    s->scanned ? " (the table was scanned: the index was not usable)" : "");
      }
  }
  goto out;
failed:
  status = cli_fail (cli, command, error);
out:
  g_free (output.format_name);
  return status;
}

const CliCommand cli_index_commands[] = {
  { "index-create-meta-table", INDEX_GROUP, "",
    "Create the HBase table that holds index definitions (once, before index-define).",
    "The table is hbase_glib_index in the default namespace, or the one\n"
    "--index-meta-table names.  Nothing else creates it; an existing one is kept.",
    run_index_create_meta_table },
  { "index-define", INDEX_GROUP, "TABLE NAME=FAMILY:QUALIFIER[,TYPE][,FLAG...]...",
    "Define the secondary indexes of a table (then build them with index-rebuild).",
    "TYPE says how cells are read: string (default), int64 and double (decimal text),\n"
    "counter (8-byte big-endian).  FLAGs say what Redis keeps: exact (default; a set\n"
    "per value, for equality), range (a sorted set, for ranges), lex (ranges\n"
    "compared as bytes or exact 64-bit integers).  The definitions are kept in HBase\n"
    "and replace the table's earlier ones.\n"
    "\n"
    "Example: hbase-glib index-define products category=d:category \\\n"
    "           weight=d:weight_g,int64,range --rebuild", run_index_define },
  { "index-show", INDEX_GROUP, "TABLE", "Show a table's index definitions and the index's state.",
    "One line per index: NAME<tab>FAMILY:QUALIFIER<tab>TYPE<tab>FLAGS, then the Redis\n"
    "key prefix and the state (ready, not built, building, dirty, unreachable).", run_index_show },
  { "index-query", INDEX_GROUP, "TABLE CONDITION...", "Print the rows that match conditions, found through the index.",
    "A CONDITION is NAME=VALUE, NAME<VALUE, NAME<=VALUE, NAME>VALUE or NAME>=VALUE\n"
    "(quote it for the shell).  All must hold (--any: one of them); a lower and an\n"
    "upper bound of one index make one range.  Rows come in row key order, checked\n"
    "against HBase, output as for scan.\n"
    "\n"
    "Example: hbase-glib index-query products category=图书 'weight>=1000' --limit 10",
    run_index_query },
  { "index-verify", INDEX_GROUP, "TABLE", "Compare the index with the table; change nothing.",
    "Prints the report.  Exit status 0 when consistent, 5 when entries are missing or\n"
    "extra.  Shows a progress bar on stderr when it is a terminal (the rows are\n"
    "counted first).", run_index_verify },
  { "index-rebuild", INDEX_GROUP, "TABLE", "Build the index from the table, from scratch.",
    "Needed after index-define and when Redis lost the index.  Indexed writes may go\n"
    "on meanwhile.  Shows a progress bar on stderr when it is a terminal.", run_index_rebuild },
  { "index-repair", INDEX_GROUP, "TABLE", "Add the missing entries of the index and remove the extra ones.",
    "Shows a progress bar on stderr when it is a terminal.", run_index_repair },
  { "index-drop", INDEX_GROUP, "TABLE", "Delete a table's index: its Redis keys and its definitions.",
    "The table's data stays.  Asks for confirmation on a terminal; elsewhere --yes is\n"
    "needed.", run_index_drop },
  { "index-migrate", INDEX_GROUP, "TABLE",
    "Move an index from the former Redis key layout to the current one.",
    "Run once per indexed table after upgrading from a version whose keys were\n"
    "PREFIX:TABLE, with no client of that version writing any more, before writing\n"
    "through upgraded clients.  The keys are renamed in one atomic step; an index\n"
    "already in the current layout is left as it is.", run_index_migrate },
  { NULL, NULL, NULL, NULL, NULL, NULL }
};
