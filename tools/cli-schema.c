/* SPDX-License-Identifier: Apache-2.0 */
/* cli-schema.c: the hbase-glib commands that read and change a table's
 * definition: describe (families and regions) and alter (one family's
 * options; add or delete a family). */
#include "config.h"

#include <string.h>

#include "cli.h"

#define SCHEMA_GROUP "Tables and namespaces"

/* Indexed by HBaseCompression and HBaseBloomFilter */
static const char *const compression_names[] = { "none", "gz", "snappy", "lz4", "zstd" };
static const char *const bloom_names[] = { "default", "none", "row", "rowcol" };

/* --- describe ------------------------------------------------------------------------ */

static void
family_text (GString *out, const HBaseFamilyOptions *f)
{
  g_string_append (out, "family\t");
  cli_escape (out, (const guint8 *) f->name, strlen (f->name), FALSE);
  g_string_append_printf (out, "\tversions=%u\tttl=", f->max_versions > 0 ? f->max_versions : 1);
  if (f->time_to_live > 0)
    g_string_append_printf (out, "%u", f->time_to_live);
  else
    g_string_append (out, "forever");
  g_string_append_printf (out, "\tcompression=%s\tbloom=%s\tin-memory=%s\tblock-cache=%s\n",
                          compression_names[f->compression], bloom_names[f->bloom_filter],
                          f->in_memory ? "yes" : "no", f->block_cache_disabled ? "no" : "yes");
}

static void
family_json (GString *out, const HBaseFamilyOptions *f)
{
  g_string_append (out, "{\"name\":");
  cli_json_string (out, f->name);
  g_string_append_printf (out, ",\"max_versions\":%u,\"ttl\":", f->max_versions > 0 ? f->max_versions : 1);
  if (f->time_to_live > 0)
    g_string_append_printf (out, "%u", f->time_to_live);
  else
    g_string_append (out, "null");
  g_string_append_printf (out, ",\"compression\":\"%s\",\"bloom_filter\":\"%s\",\"in_memory\":%s,"
                          "\"block_cache\":%s}", compression_names[f->compression], bloom_names[f->bloom_filter],
                          f->in_memory ? "true" : "false", f->block_cache_disabled ? "false" : "true");
}

static void
region_out (GString *out, const HBaseRegionLocation *r, const CliOutput *output)
{
  gsize start_length, end_length;
  const guint8 *start = g_bytes_get_data (r->start_key, &start_length);
  const guint8 *end = g_bytes_get_data (r->end_key, &end_length);

  if (output->format == CLI_FORMAT_JSON)
    {
      g_string_append (out, "{\"start_key\":");
      cli_json_bytes (out, start, start_length, output->base64);
      g_string_append (out, ",\"end_key\":");
      cli_json_bytes (out, end, end_length, output->base64);
      g_string_append (out, ",\"server\":");
      cli_json_string (out, r->server_host);
      g_string_append_printf (out, ",\"port\":%u}", r->server_port);
      return;
    }
  g_string_append (out, "region\t");
  cli_escape (out, start, start_length, output->ascii);
  g_string_append_c (out, '\t');
  cli_escape (out, end, end_length, output->ascii);
  g_string_append_printf (out, "\t%s:%u\n", r->server_host, r->server_port);
}

static int
run_describe (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  CliOutput output = { 0 };
  const GOptionEntry entries[] = {
    CLI_FORMAT_ENTRY (&output),
    { "base64", 0, 0, G_OPTION_ARG_NONE, &output.base64, "JSON: region keys as base64 strings", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) families = NULL;
  g_autoptr(GPtrArray) regions = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  HBaseClient *client;
  int status;

  status = cli_parse (cli, command, entries, &argc, &argv);
  if (status == CLI_EXIT_OK)
    status = cli_expect_args (command, argc, 1, 1);
  if (status == CLI_EXIT_OK && !cli_output_check (&output, &error))
    status = cli_fail (cli, command, error);
  if (status == CLI_EXIT_OK &&
      ((client = cli_client (cli, &error)) == NULL ||
       (families = hbase_client_describe_table (client, argv[1], NULL, &error)) == NULL ||
       (regions = hbase_client_get_table_regions (client, argv[1], NULL, &error)) == NULL))
    status = cli_fail (cli, command, error);
  if (status != CLI_EXIT_OK)
    {
      g_free (output.format_name);
      return status;
    }
  if (output.format == CLI_FORMAT_JSON)
    {
      g_string_append (out, "{\"table\":");
      cli_json_string (out, argv[1]);
      g_string_append (out, ",\"families\":[");
      for (guint i = 0; i < families->len; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          family_json (out, g_ptr_array_index (families, i));
        }
      g_string_append (out, "],\"regions\":[");
      for (guint i = 0; i < regions->len; i++)
        {
          if (i > 0)
            g_string_append_c (out, ',');
          region_out (out, g_ptr_array_index (regions, i), &output);
        }
      g_string_append (out, "]}\n");
    }
  else
    {
      g_string_append_printf (out, "table\t%s\n", argv[1]);
      for (guint i = 0; i < families->len; i++)
        family_text (out, g_ptr_array_index (families, i));
      for (guint i = 0; i < regions->len; i++)
        region_out (out, g_ptr_array_index (regions, i), &output);
    }
  fwrite (out->str, 1, out->len, stdout);
  g_free (output.format_name);
  return CLI_EXIT_OK;
}

/* --- alter --------------------------------------------------------------------------- */

typedef struct {
  char *family;
  char *add_family;
  char *delete_family;
  int max_versions;
  char *ttl;
  char *compression;
  char *bloom;
  char *in_memory;
  char *block_cache;
  gboolean yes;
} AlterArgs;

static void
alter_args_clear (AlterArgs *a)
{
  g_free (a->family);
  g_free (a->add_family);
  g_free (a->delete_family);
  g_free (a->ttl);
  g_free (a->compression);
  g_free (a->bloom);
  g_free (a->in_memory);
  g_free (a->block_cache);
}

static gboolean
pick (const char *value, const char *what, const char *const *names, gsize n, guint *index, GError **error)
{
  for (gsize i = 0; i < n; i++)
    if (g_ascii_strcasecmp (value, names[i]) == 0)
      {
        *index = (guint) i;
        return TRUE;
      }
  {
    g_autofree char *choices = g_strjoinv ("|", (char **) names);

    g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "%s \"%s\" is not one of %s", what, value,
                 choices);
  }
  return FALSE;
}

static gboolean
yes_no (const char *value, const char *what, gboolean *answer, GError **error)
{
  static const char *const answers[] = { "no", "yes", NULL };
  guint index = 0;

  if (!pick (value, what, answers, 2, &index, error))
    return FALSE;
  *answer = index == 1;
  return TRUE;
}

/* Applies the options given on the command line to @family. */
static gboolean
apply_changes (const AlterArgs *a, HBaseFamilyOptions *family, GError **error)
{
  static const char *const compressions[] = { "none", "gz", "snappy", "lz4", "zstd", NULL };
  static const char *const blooms[] = { "default", "none", "row", "rowcol", NULL };
  guint index;
  gboolean flag;

  if (a->max_versions == 0 || a->max_versions < -1)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "--max-versions must be 1 or more");
      return FALSE;
    }
  if (a->max_versions > 0)
    family->max_versions = (guint) a->max_versions;
  if (a->ttl != NULL)
    {
      guint64 seconds = 0;

      if (strcmp (a->ttl, "forever") != 0 &&
          (!g_ascii_string_to_unsigned (a->ttl, 10, 1, G_MAXINT32 - 1, &seconds, NULL)))
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "--ttl \"%s\" is neither a number of seconds nor \"forever\"", a->ttl);
          return FALSE;
        }
      family->time_to_live = (guint) seconds;
    }
  if (a->compression != NULL)
    {
      if (!pick (a->compression, "--compression", compressions, 5, &index, error))
        return FALSE;
      family->compression = (HBaseCompression) index;
    }
  if (a->bloom != NULL)
    {
      if (!pick (a->bloom, "--bloom", blooms, 4, &index, error))
        return FALSE;
      family->bloom_filter = (HBaseBloomFilter) index;
    }
  if (a->in_memory != NULL)
    {
      if (!yes_no (a->in_memory, "--in-memory", &flag, error))
        return FALSE;
      family->in_memory = flag;
    }
  if (a->block_cache != NULL)
    {
      if (!yes_no (a->block_cache, "--block-cache", &flag, error))
        return FALSE;
      family->block_cache_disabled = !flag;
    }
  return TRUE;
}

static HBaseFamilyOptions *
find_family (GPtrArray *families, const char *name)
{
  for (guint i = 0; i < families->len; i++)
    {
      HBaseFamilyOptions *f = g_ptr_array_index (families, i);

      if (strcmp (f->name, name) == 0)
        return f;
    }
  return NULL;
}

static int
alter (Cli *cli, const CliCommand *command, const char *table, const AlterArgs *a)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) families = NULL;
  g_autofree char *question = NULL;
  HBaseClient *client;
  int given = (a->family != NULL) + (a->add_family != NULL) + (a->delete_family != NULL);

  if (given != 1)
    return cli_usage (command, "give one of --family, --add-family and --delete-family");
  if (a->delete_family != NULL && (a->max_versions != -1 || a->ttl != NULL || a->compression != NULL ||
                                   a->bloom != NULL || a->in_memory != NULL || a->block_cache != NULL))
    return cli_usage (command, "--delete-family takes no family options");
  if ((client = cli_client (cli, &error)) == NULL)
    return cli_fail (cli, command, error);
  if (a->delete_family != NULL)
    {
      question = g_strdup_printf ("delete family %s of table %s and all its cells?", a->delete_family, table);
      if (!cli_confirm (question, a->yes, &error) ||
          !hbase_client_delete_family (client, table, a->delete_family, NULL, &error))
        return cli_fail (cli, command, error);
      return CLI_EXIT_OK;
    }
  if (a->add_family != NULL)
    {
      HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;

      family.name = a->add_family;
      if (!apply_changes (a, &family, &error) || !hbase_client_add_family (client, table, &family, NULL, &error))
        return cli_fail (cli, command, error);
      return CLI_EXIT_OK;
    }
  {
    HBaseFamilyOptions *family;

    if ((families = hbase_client_describe_table (client, table, NULL, &error)) == NULL)
      return cli_fail (cli, command, error);
    if ((family = find_family (families, a->family)) == NULL)
      {
        g_set_error (&error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND, "table %s has no family %s", table, a->family);
        return cli_fail (cli, command, error);
      }
    if (!apply_changes (a, family, &error) || !hbase_client_alter_family (client, table, family, NULL, &error))
      return cli_fail (cli, command, error);
  }
  return CLI_EXIT_OK;
}

static int
run_alter (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  AlterArgs a = { .max_versions = -1 };
  const GOptionEntry entries[] = {
    { "family", 'F', 0, G_OPTION_ARG_STRING, &a.family, "Change the options of this family", "FAMILY" },
    { "add-family", 0, 0, G_OPTION_ARG_STRING, &a.add_family, "Add this family (with the options given)", "FAMILY" },
    { "delete-family", 0, 0, G_OPTION_ARG_STRING, &a.delete_family,
      "Delete this family and its cells (asks, or --yes)", "FAMILY" },
    { "max-versions", 0, 0, G_OPTION_ARG_INT, &a.max_versions, "Versions kept of each cell", "N" },
    { "ttl", 0, 0, G_OPTION_ARG_STRING, &a.ttl, "Seconds a cell lives, or \"forever\"", "SECONDS" },
    { "compression", 0, 0, G_OPTION_ARG_STRING, &a.compression, "none, gz, snappy, lz4 or zstd", "CODEC" },
    { "bloom", 0, 0, G_OPTION_ARG_STRING, &a.bloom, "Bloom filter: default, none, row or rowcol", "TYPE" },
    { "in-memory", 0, 0, G_OPTION_ARG_STRING, &a.in_memory, "Favour the family in the block cache: yes or no",
      "yes|no" },
    { "block-cache", 0, 0, G_OPTION_ARG_STRING, &a.block_cache, "Cache the family's blocks on read: yes or no",
      "yes|no" },
    { "yes", 'y', 0, G_OPTION_ARG_NONE, &a.yes, "Do not ask for confirmation", NULL },
    G_OPTION_ENTRY_NULL
  };
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) == CLI_EXIT_OK &&
      (status = cli_expect_args (command, argc, 1, 1)) == CLI_EXIT_OK)
    status = alter (cli, command, argv[1], &a);
  alter_args_clear (&a);
  return status;
}

const CliCommand cli_schema_commands[] = {
  { "describe", SCHEMA_GROUP, "TABLE", "Show a table's column families with their options, and its regions.",
    "TSV: a line \"table NAME\", a line per family (family NAME versions=N ttl=SECONDS|forever\n"
    "compression=C bloom=B in-memory=yes|no block-cache=yes|no), a line per region\n"
    "(region START END HOST:PORT; keys escaped as rows are).  JSON: one object\n"
    "{\"table\", \"families\": [...], \"regions\": [...]} (\"ttl\": null is forever).", run_describe },
  { "alter", SCHEMA_GROUP, "TABLE", "Change a column family's options, or add or delete a family.",
    "With --family, the options given change and the others stay as they are;\n"
    "settings describe does not show (block size, encoding, scope...) go back to\n"
    "HBase's defaults, as the gateway rebuilds the family from what it is sent.\n"
    "--delete-family needs a buffered gateway.\n"
    "\n"
    "Example: hbase-glib alter dim_product --family d --max-versions 3 --ttl 86400", run_alter },
  { NULL, NULL, NULL, NULL, NULL, NULL }
};
