/* SPDX-License-Identifier: Apache-2.0 */
/* cli-admin.c: the hbase-glib commands for tables and namespaces: create,
 * drop, truncate, enable, disable, exists, list, namespaces,
 * create-namespace, drop-namespace, and ping. */
#include "config.h"

#include <string.h>

#include "cli.h"

#define TABLES_GROUP "Tables and namespaces"

/* --- create ----------------------------------------------------------------------------- */

static gboolean
parse_uint (const char *text, const char *what, guint *value, GError **error)
{
  guint64 number;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT32, &number, NULL))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s \"%s\" is not a whole number from 0 to %d", what, text, G_MAXINT32);
      return FALSE;
    }
  *value = (guint) number;
  return TRUE;
}

/* "NAME" or "NAME:OPTION[=VALUE],..." with the options versions=N,
 * ttl=SECONDS, compression=..., bloom=..., in-memory, no-block-cache.
 * The name is kept in @names. */
static gboolean
parse_family (const char *text, HBaseFamilyOptions *family, GPtrArray *names, GError **error)
{
  static const char *const compressions[] = { "none", "gz", "snappy", "lz4", "zstd" };
  static const char *const blooms[] = { "default", "none", "row", "rowcol" };
  const char *colon = strchr (text, ':');
  g_auto(GStrv) options = NULL;
  char *name = colon != NULL ? g_strndup (text, (gsize) (colon - text)) : g_strdup (text);

  g_ptr_array_add (names, name);
  *family = (HBaseFamilyOptions) HBASE_FAMILY_OPTIONS_INIT;
  family->name = name;
  if (colon == NULL)
    return TRUE;
  options = g_strsplit (colon + 1, ",", -1);
  for (char **o = options; *o != NULL; o++)
    {
      char *equals = strchr (*o, '=');
      const char *value = equals != NULL ? equals + 1 : NULL;
      gboolean known = FALSE;

      if (equals != NULL)
        *equals = '\0';
      if (strcmp (*o, "versions") == 0 && value != NULL)
        {
          if (!parse_uint (value, "versions", &family->max_versions, error))
            return FALSE;
          known = TRUE;
        }
      else if (strcmp (*o, "ttl") == 0 && value != NULL)
        {
          if (!parse_uint (value, "ttl", &family->time_to_live, error))
            return FALSE;
          known = TRUE;
        }
      else if (strcmp (*o, "compression") == 0 && value != NULL)
        {
          for (gsize i = 0; i < G_N_ELEMENTS (compressions) && !known; i++)
            if (g_ascii_strcasecmp (value, compressions[i]) == 0)
              {
                family->compression = (HBaseCompression) i;
                known = TRUE;
              }
        }
      else if (strcmp (*o, "bloom") == 0 && value != NULL)
        {
          for (gsize i = 0; i < G_N_ELEMENTS (blooms) && !known; i++)
            if (g_ascii_strcasecmp (value, blooms[i]) == 0)
              {
                family->bloom_filter = (HBaseBloomFilter) i;
                known = TRUE;
              }
        }
      else if (strcmp (*o, "in-memory") == 0 && value == NULL)
        family->in_memory = known = TRUE;
      else if (strcmp (*o, "no-block-cache") == 0 && value == NULL)
        family->block_cache_disabled = known = TRUE;
      if (!known)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "family \"%s\": bad option \"%s%s%s\" (versions=N, ttl=SECONDS, "
                       "compression=none|gz|snappy|lz4|zstd, bloom=none|row|rowcol, in-memory, "
                       "no-block-cache)", name, *o, value != NULL ? "=" : "", value != NULL ? value : "");
          return FALSE;
        }
    }
  return TRUE;
}

static int
run_create (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  g_auto(GStrv) split_args = NULL;
  gboolean if_not_exists = FALSE;
  const GOptionEntry entries[] = {
    { "split", 0, 0, G_OPTION_ARG_STRING_ARRAY, &split_args,
      "Start a new region at this row (repeatable; in increasing order; not over framed transport)", "ROW" },
    { "if-not-exists", 0, 0, G_OPTION_ARG_NONE, &if_not_exists, "Succeed when the table already exists", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) families = g_array_new (FALSE, TRUE, sizeof (HBaseFamilyOptions));
  g_autoptr(GPtrArray) splits = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GError) error = NULL;
  HBaseClient *client;
  gboolean exists = FALSE;
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 2, -1)) != CLI_EXIT_OK)
    return status;
  for (int i = 2; i < argc; i++)
    {
      HBaseFamilyOptions family;

      if (!parse_family (argv[i], &family, names, &error))
        return cli_fail (cli, command, error);
      g_array_append_val (families, family);
    }
  for (char **s = split_args; s != NULL && *s != NULL; s++)
    {
      GBytes *key = cli_unescape (*s, "split row", &error);

      if (key == NULL)
        return cli_fail (cli, command, error);
      g_ptr_array_add (splits, key);
    }
  if ((client = cli_client (cli, &error)) == NULL)
    return cli_fail (cli, command, error);
  if (if_not_exists)
    {
      if (!hbase_client_table_exists (client, argv[1], &exists, NULL, &error))
        return cli_fail (cli, command, error);
      if (exists)
        return CLI_EXIT_OK;
    }
  if (!hbase_client_create_table (client, argv[1], (const HBaseFamilyOptions *) (gpointer) families->data,
                                 families->len, splits->len > 0 ? splits : NULL, NULL, &error))
    return cli_fail (cli, command, error);
  return CLI_EXIT_OK;
}

/* --- one table --------------------------------------------------------------------------- */

typedef enum { TABLE_DROP, TABLE_TRUNCATE, TABLE_ENABLE, TABLE_DISABLE, TABLE_EXISTS } TableAction;

static int
table_action (Cli *cli, const CliCommand *command, int argc, char **argv, TableAction action)
{
  gboolean yes = FALSE, if_exists = FALSE, drop_splits = FALSE;
  const GOptionEntry destructive[] = {
    { "yes", 'y', 0, G_OPTION_ARG_NONE, &yes, "Do not ask for confirmation", NULL },
    { "if-exists", 0, 0, G_OPTION_ARG_NONE, &if_exists, "Succeed when there is no such table", NULL },
    { "drop-splits", 0, 0, G_OPTION_ARG_NONE, &drop_splits, "truncate: forget the region boundaries", NULL },
    G_OPTION_ENTRY_NULL
  };
  CliOutput output = { 0 };
  const GOptionEntry exists_entries[] = {
    CLI_FORMAT_ENTRY (&output),
    G_OPTION_ENTRY_NULL
  };
  const GOptionEntry *entries = action == TABLE_DROP || action == TABLE_TRUNCATE ? destructive
                                : action == TABLE_EXISTS ? exists_entries : NULL;
  g_autofree char *format_name = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *question = NULL;
  HBaseClient *client;
  gboolean exists = FALSE;
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 1, 1)) != CLI_EXIT_OK)
    return status;
  format_name = output.format_name;
  if (drop_splits && action != TABLE_TRUNCATE)
    return cli_usage (command, "--drop-splits goes with truncate");
  if (!cli_output_check (&output, &error))
    return cli_fail (cli, command, error);
  if ((client = cli_client (cli, &error)) == NULL)
    return cli_fail (cli, command, error);
  if (action == TABLE_EXISTS || if_exists)
    {
      if (!hbase_client_table_exists (client, argv[1], &exists, NULL, &error))
        return cli_fail (cli, command, error);
      if (action == TABLE_EXISTS)
        {
          if (output.format == CLI_FORMAT_JSON)
            printf ("{\"exists\":%s}\n", exists ? "true" : "false");
          else
            printf ("%s\n", exists ? "yes" : "no");
          return exists ? CLI_EXIT_OK : CLI_EXIT_NOT_FOUND;
        }
      if (!exists)
        return CLI_EXIT_OK;
    }
  if (action == TABLE_DROP || action == TABLE_TRUNCATE)
    {
      question = g_strdup_printf ("%s table %s and all its data?", action == TABLE_DROP ? "drop" : "truncate",
                                  argv[1]);
      if (!cli_confirm (question, yes, &error))
        return cli_fail (cli, command, error);
    }
  switch (action)
    {
    case TABLE_DROP:
      if (!hbase_client_delete_table (client, argv[1], NULL, &error))
        return cli_fail (cli, command, error);
      break;
    case TABLE_TRUNCATE:
      if (!hbase_client_truncate_table (client, argv[1], !drop_splits, NULL, &error))
        return cli_fail (cli, command, error);
      break;
    case TABLE_ENABLE:
      if (!hbase_client_enable_table (client, argv[1], NULL, &error))
        return cli_fail (cli, command, error);
      break;
    case TABLE_DISABLE:
      if (!hbase_client_disable_table (client, argv[1], NULL, &error))
        return cli_fail (cli, command, error);
      break;
    case TABLE_EXISTS:
    default:
      g_assert_not_reached ();
    }
  return CLI_EXIT_OK;
}

static int
run_drop (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return table_action (cli, command, argc, argv, TABLE_DROP);
}

static int
run_truncate (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return table_action (cli, command, argc, argv, TABLE_TRUNCATE);
}

static int
run_enable (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return table_action (cli, command, argc, argv, TABLE_ENABLE);
}

static int
run_disable (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return table_action (cli, command, argc, argv, TABLE_DISABLE);
}

static int
run_exists (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return table_action (cli, command, argc, argv, TABLE_EXISTS);
}

/* --- lists ------------------------------------------------------------------------------- */

/* One name a line, or one JSON array of strings. */
static void
print_names (char **names, const CliOutput *output)
{
  g_autoptr(GString) out = g_string_new (NULL);

  if (output->format == CLI_FORMAT_JSON)
    {
      g_string_append_c (out, '[');
      for (char **n = names; *n != NULL; n++)
        {
          if (n != names)
            g_string_append_c (out, ',');
          cli_json_string (out, *n);
        }
      g_string_append (out, "]\n");
    }
  else
    for (char **n = names; *n != NULL; n++)
      g_string_append_printf (out, "%s\n", *n);
  fwrite (out->str, 1, out->len, stdout);
}

static int
run_list (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  CliOutput output = { 0 };
  const GOptionEntry entries[] = {
    CLI_FORMAT_ENTRY (&output),
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) tables = NULL;
  HBaseClient *client;
  int status;

  status = cli_parse (cli, command, entries, &argc, &argv);
  if (status == CLI_EXIT_OK)
    status = cli_expect_args (command, argc, 0, 1);
  if (status == CLI_EXIT_OK && !cli_output_check (&output, &error))
    status = cli_fail (cli, command, error);
  if (status == CLI_EXIT_OK &&
      ((client = cli_client (cli, &error)) == NULL || (tables = hbase_client_list_tables (client, argc > 1 ? argv[1] : NULL, NULL, &error)) == NULL))
    status = cli_fail (cli, command, error);
  if (status == CLI_EXIT_OK)
    print_names (tables, &output);
  g_free (output.format_name);
  return status;
}

static int
run_namespaces (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  CliOutput output = { 0 };
  const GOptionEntry entries[] = {
    CLI_FORMAT_ENTRY (&output),
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) namespaces = NULL;
  HBaseClient *client;
  int status;

  status = cli_parse (cli, command, entries, &argc, &argv);
  if (status == CLI_EXIT_OK)
    status = cli_expect_args (command, argc, 0, 0);
  if (status == CLI_EXIT_OK && !cli_output_check (&output, &error))
    status = cli_fail (cli, command, error);
  if (status == CLI_EXIT_OK &&
      ((client = cli_client (cli, &error)) == NULL || (namespaces = hbase_client_list_namespaces (client, NULL, &error)) == NULL))
    status = cli_fail (cli, command, error);
  if (status == CLI_EXIT_OK)
    print_names (namespaces, &output);
  g_free (output.format_name);
  return status;
}

static gboolean
namespace_exists (HBaseClient *client, const char *name, gboolean *exists, GError **error)
{
  g_auto(GStrv) namespaces = hbase_client_list_namespaces (client, NULL, error);

  if (namespaces == NULL)
    return FALSE;
  *exists = g_strv_contains ((const char *const *) namespaces, name);
  return TRUE;
}

static int
namespace_action (Cli *cli, const CliCommand *command, int argc, char **argv, gboolean create)
{
  gboolean if_exists = FALSE, if_not_exists = FALSE;
  const GOptionEntry create_entries[] = {
    { "if-not-exists", 0, 0, G_OPTION_ARG_NONE, &if_not_exists, "Succeed when the namespace exists", NULL },
    G_OPTION_ENTRY_NULL
  };
  const GOptionEntry drop_entries[] = {
    { "if-exists", 0, 0, G_OPTION_ARG_NONE, &if_exists, "Succeed when there is no such namespace", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GError) error = NULL;
  HBaseClient *client;
  gboolean exists = FALSE;
  int status;

  if ((status = cli_parse (cli, command, create ? create_entries : drop_entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 1, 1)) != CLI_EXIT_OK)
    return status;
  if ((client = cli_client (cli, &error)) == NULL)
    return cli_fail (cli, command, error);
  if (if_exists || if_not_exists)
    {
      if (!namespace_exists (client, argv[1], &exists, &error))
        return cli_fail (cli, command, error);
      if (exists == if_not_exists)
        return CLI_EXIT_OK;
    }
  if (create ? !hbase_client_create_namespace (client, argv[1], NULL, &error)
             : !hbase_client_delete_namespace (client, argv[1], NULL, &error))
    return cli_fail (cli, command, error);
  return CLI_EXIT_OK;
}

static int
run_create_namespace (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return namespace_action (cli, command, argc, argv, TRUE);
}

static int
run_drop_namespace (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return namespace_action (cli, command, argc, argv, FALSE);
}

/* A gateway as ping prints it: its URL (HTTP mode), else HOST:PORT. */
static char *
gateway_text (const HBaseConfig *config, guint index)
{
  const char *url = hbase_config_get_gateway_url (config, index);

  if (url != NULL)
    return g_strdup (url);
  return g_strdup_printf ("%s:%u", hbase_config_get_gateway_host (config, index),
                          hbase_config_get_gateway_port (config, index));
}

static int
run_ping (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  CliOutput output = { 0 };
  const GOptionEntry entries[] = {
    CLI_FORMAT_ENTRY (&output),
    G_OPTION_ENTRY_NULL
  };
  g_autofree char *format_name = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  double elapsed_ms;
  g_autoptr(GError) error = NULL;
  const HBaseConfig *config;
  HBaseClient *client;
  gint64 started;
  int status;

  status = cli_parse (cli, command, entries, &argc, &argv);
  format_name = output.format_name;
  if (status != CLI_EXIT_OK || (status = cli_expect_args (command, argc, 0, 0)) != CLI_EXIT_OK)
    return status;
  if (!cli_output_check (&output, &error) || (client = cli_client (cli, &error)) == NULL)
    return cli_fail (cli, command, error);
  started = g_get_monotonic_time ();
  if (!hbase_client_ping (client, NULL, &error))
    return cli_fail (cli, command, error);
  elapsed_ms = (double) (g_get_monotonic_time () - started) / 1000.0;
  config = hbase_client_get_config (client);
  if (output.format == CLI_FORMAT_JSON)
    {
      g_string_append_printf (out, "{\"protocol\":\"%s\",\"transport\":\"%s\",\"milliseconds\":%.1f,\"gateways\":[",
                              hbase_protocol_to_string (hbase_config_get_protocol (config)),
                              hbase_transport_to_string (hbase_config_get_transport (config)), elapsed_ms);
      for (guint i = 0; i < hbase_config_get_n_gateways (config); i++)
        {
          g_autofree char *gateway = gateway_text (config, i);

          if (i > 0)
            g_string_append_c (out, ',');
          cli_json_string (out, gateway);
        }
      g_string_append (out, "]}\n");
    }
  else
    {
      g_string_append_printf (out, "gateway answers (%s/%s) in %.1f ms:",
                              hbase_protocol_to_string (hbase_config_get_protocol (config)),
                              hbase_transport_to_string (hbase_config_get_transport (config)), elapsed_ms);
      for (guint i = 0; i < hbase_config_get_n_gateways (config); i++)
        {
          g_autofree char *gateway = gateway_text (config, i);

          g_string_append_printf (out, " %s", gateway);
        }
      g_string_append_c (out, '\n');
    }
  fwrite (out->str, 1, out->len, stdout);
  return CLI_EXIT_OK;
}

const CliCommand cli_admin_commands[] = {
  { "create", TABLES_GROUP, "TABLE FAMILY[:OPTION,...]...", "Create a table with its column families.",
    "TABLE is NAME or NAMESPACE:NAME.  Family options: versions=N, ttl=SECONDS,\n"
    "compression=none|gz|snappy|lz4|zstd, bloom=none|row|rowcol, in-memory,\n"
    "no-block-cache.  --split pre-splits the table into regions (the gateway must\n"
    "use buffered transport for that).\n"
    "\n"
    "Example: hbase-glib create dim_product d:versions=1,bloom=row --split 04 --split 08", run_create },
  { "drop", TABLES_GROUP, "TABLE", "Delete a table and all its data (disabling it first).",
    "Asks for confirmation on a terminal; elsewhere --yes is needed.", run_drop },
  { "truncate", TABLES_GROUP, "TABLE", "Delete every row of a table, keeping its definition and regions.",
    "Asks for confirmation on a terminal; elsewhere --yes is needed.", run_truncate },
  { "enable", TABLES_GROUP, "TABLE", "Enable a disabled table.", NULL, run_enable },
  { "disable", TABLES_GROUP, "TABLE", "Disable a table (its regions go offline).", NULL, run_disable },
  { "exists", TABLES_GROUP, "TABLE", "Tell whether a table exists (\"yes\", or \"no\" and exit status 3).",
    NULL, run_exists },
  { "list", TABLES_GROUP, "[NAMESPACE]", "List the tables, of every namespace or of one.",
    "Tables of the default namespace are listed by name, others as NAMESPACE:NAME.\n"
    "System tables are listed only for the namespace \"hbase\".", run_list },
  { "namespaces", TABLES_GROUP, NULL, "List the namespaces.", NULL, run_namespaces },
  { "create-namespace", TABLES_GROUP, "NAME", "Create a namespace.", NULL, run_create_namespace },
  { "drop-namespace", TABLES_GROUP, "NAME", "Delete an empty namespace.", NULL, run_drop_namespace },
  { "ping", TABLES_GROUP, NULL, "Check that the gateway answers, and how fast.", NULL, run_ping },
  { NULL, NULL, NULL, NULL, NULL, NULL }
};
