/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-admin.c: tables and namespaces (create, drop, enable, list) through
 * the gateway's DDL calls.
 *
 * Every input is checked before anything is sent, so a bad name or family
 * never leaves half a change behind.  Reads are retried like any idempotent
 * call; changes are not (a create resent after it reached the server would
 * fail with "already exists", a delete with "not found").
 *
 * The 2.6 gateway's TIOError for a missing table carries only the table
 * name, so "not found" is told apart by asking tableExists after an I/O
 * error; the gateway's text stays available (hbase_error_get_server_trace()).
 *
 * On the native backend each call goes to the master instead
 * (hbase-admin-native.c), after the same checks, with the same results. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-admin.h>

#include "../table/hbase-table-private.h"
#include "hbase-admin-private.h"

typedef HbaseThriftTHBaseServiceIf Service;

/* --- checks and conversions ---------------------------------------------- */

/* HBase's rule (NamespaceDescriptor): letters, digits and '_'. */
static gboolean
check_namespace (const char *name, GError **error)
{
  if (name == NULL || *name == '\0')
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "a namespace name must not be empty");
      return FALSE;
    }
  for (const char *c = name; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '_')
      {
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                     "illegal namespace name \"%s\": only letters, digits and '_' are allowed",
                     g_utf8_validate (name, -1, NULL) ? name : "(not UTF-8)");
        return FALSE;
      }
  return TRUE;
}

/* "ns:name" or "name" as a TTableName; ns is only sent when given, so the
 * gateway applies its own default.  Call after _hbase_check_table_name(). */
HbaseThriftTTableName *
_hbase_admin_table_name_new (const char *table)
{
  const char *colon = strchr (table, ':');
  g_autofree char *ns = colon != NULL ? g_strndup (table, (gsize) (colon - table)) : NULL;
  g_autoptr(GByteArray) qualifier = _hbase_byte_array_from_string (colon != NULL ? colon + 1 : table);
  g_autoptr(GByteArray) ns_bytes = ns != NULL ? _hbase_byte_array_from_string (ns) : NULL;

  if (ns_bytes != NULL)
    return g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "ns", ns_bytes, "qualifier", qualifier, NULL);
  return g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "qualifier", qualifier, NULL);
}

/* HBase's rule (ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName):
 * not empty, no ':', no control characters, not starting with '.'. */
gboolean
_hbase_admin_check_family_name (const char *name, GError **error)
{
  if (name == NULL || *name == '\0')
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "a column family name must not be empty");
      return FALSE;
    }
  if (!g_utf8_validate (name, -1, NULL))
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "a column family name must be UTF-8");
      return FALSE;
    }
  if (name[0] == '.' || strchr (name, ':') != NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "illegal column family name \"%s\": it must not contain ':' or start with '.'", name);
      return FALSE;
    }
  for (const char *c = name; *c != '\0'; c = g_utf8_next_char (c))
    if (g_unichar_iscntrl (g_utf8_get_char (c)))
      {
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                     "illegal column family name \"%s\": it contains a control character", name);
        return FALSE;
      }
  return TRUE;
}

static gboolean
check_families (const HBaseFamilyOptions *families, guint n_families, GError **error)
{
  if (families == NULL || n_families == 0)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "a table needs at least one column family");
      return FALSE;
    }
  for (guint i = 0; i < n_families; i++)
    {
      if (!_hbase_admin_check_family_name (families[i].name, error))
        return FALSE;
      if ((guint) families[i].compression > HBASE_COMPRESSION_ZSTD ||
          (guint) families[i].bloom_filter > HBASE_BLOOM_FILTER_ROWCOL ||
          families[i].max_versions > G_MAXINT32 || families[i].time_to_live > G_MAXINT32)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "column family \"%s\": an option is out of range", families[i].name);
          return FALSE;
        }
      for (guint j = 0; j < i; j++)
        if (strcmp (families[i].name, families[j].name) == 0)
          {
            g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                         "column family \"%s\" is given twice", families[i].name);
            return FALSE;
          }
    }
  return TRUE;
}

/* HBase rejects empty and repeated split keys; requiring them sorted
 * catches a caller's mistake instead of letting HBase reorder them. */
static gboolean
check_split_keys (GPtrArray *split_keys, GError **error)
{
  for (guint i = 0; split_keys != NULL && i < split_keys->len; i++)
    {
      GBytes *key = g_ptr_array_index (split_keys, i);
      int order;

      if (key == NULL || g_bytes_get_size (key) == 0)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "split key %u is empty", i);
          return FALSE;
        }
      if (i == 0)
        continue;
      order = g_bytes_compare (g_ptr_array_index (split_keys, i - 1), key);
      if (order >= 0)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       order == 0 ? "split key %u repeats the one before it"
                                  : "split key %u is not greater than the one before it: "
                                    "split keys must be strictly increasing", i);
          return FALSE;
        }
    }
  return TRUE;
}

static HbaseThriftTCompressionAlgorithm
compression_to_thrift (HBaseCompression compression)
{
  switch (compression)
    {
    case HBASE_COMPRESSION_GZ: return HBASE_THRIFT_T_COMPRESSION_ALGORITHM_GZ;
    case HBASE_COMPRESSION_SNAPPY: return HBASE_THRIFT_T_COMPRESSION_ALGORITHM_SNAPPY;
    case HBASE_COMPRESSION_LZ4: return HBASE_THRIFT_T_COMPRESSION_ALGORITHM_LZ4;
    case HBASE_COMPRESSION_ZSTD: return HBASE_THRIFT_T_COMPRESSION_ALGORITHM_ZSTD;
    case HBASE_COMPRESSION_NONE:
    default: return HBASE_THRIFT_T_COMPRESSION_ALGORITHM_NONE;
    }
}

/* The generated struct only sends the optional fields marked __isset_, so
 * each assignment sets its flag.  The attributes and configuration maps are
 * never touched: c_glib keys them by GByteArray pointer, which is broken. */
HbaseThriftTColumnFamilyDescriptor *
_hbase_admin_family_descriptor_new (const HBaseFamilyOptions *options)
{
  g_autoptr(GByteArray) name = _hbase_byte_array_from_string (options->name);
  HbaseThriftTColumnFamilyDescriptor *family =
    g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_FAMILY_DESCRIPTOR, "name", name, NULL);

  if (options->max_versions > 0)
    {
      family->maxVersions = (gint32) options->max_versions;
      family->__isset_maxVersions = TRUE;
    }
  if (options->time_to_live > 0)
    {
      family->timeToLive = (gint32) options->time_to_live;
      family->__isset_timeToLive = TRUE;
    }
  family->compressionType = compression_to_thrift (options->compression);
  family->__isset_compressionType = TRUE;
  if (options->bloom_filter != HBASE_BLOOM_FILTER_DEFAULT)
    {
      family->bloomnFilterType =
        options->bloom_filter == HBASE_BLOOM_FILTER_ROWCOL ? HBASE_THRIFT_T_BLOOM_FILTER_TYPE_ROWCOL
        : options->bloom_filter == HBASE_BLOOM_FILTER_ROW ? HBASE_THRIFT_T_BLOOM_FILTER_TYPE_ROW
        : HBASE_THRIFT_T_BLOOM_FILTER_TYPE_NONE;
      family->__isset_bloomnFilterType = TRUE;
    }
  family->inMemory = options->in_memory ? TRUE : FALSE;
  family->__isset_inMemory = TRUE;
  family->blockCacheEnabled = options->block_cache_disabled ? FALSE : TRUE;
  family->__isset_blockCacheEnabled = TRUE;
  return family;
}

/* --- one call on a table name ------------------------------------------------ */

typedef enum {
  OP_EXISTS,
  OP_IS_ENABLED,
  OP_ENABLE,
  OP_DISABLE,
  OP_DELETE,
  OP_TRUNCATE,
} TableOp;

typedef struct {
  TableOp op;
  HbaseThriftTTableName *name;
  gboolean preserve_splits;  /* OP_TRUNCATE */
  gboolean answer;           /* OP_EXISTS, OP_IS_ENABLED */
} TableCall;

static gboolean
table_call_once (Service *service, gpointer user_data, GError **error)
{
  TableCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean ok = FALSE;

  switch (call->op)
    {
    case OP_EXISTS:
      ok = hbase_thrift_t_h_base_service_if_table_exists (service, &call->answer, call->name, &io, &call_error);
      break;
    case OP_IS_ENABLED:
      ok = hbase_thrift_t_h_base_service_if_is_table_enabled (service, &call->answer, call->name, &io, &call_error);
      break;
    case OP_ENABLE:
      ok = hbase_thrift_t_h_base_service_if_enable_table (service, call->name, &io, &call_error);
      break;
    case OP_DISABLE:
      ok = hbase_thrift_t_h_base_service_if_disable_table (service, call->name, &io, &call_error);
      break;
    case OP_DELETE:
      ok = hbase_thrift_t_h_base_service_if_delete_table (service, call->name, &io, &call_error);
      break;
    case OP_TRUNCATE:
      ok = hbase_thrift_t_h_base_service_if_truncate_table (service, call->name, call->preserve_splits,
                                                           &io, &call_error);
      break;
    }
  if (!ok)
    hbase_error_take_call_error (error, call_error, io, NULL);
  return ok;
}

static gboolean
table_call (HBaseClient *client, TableOp op, HbaseThriftTTableName *name, gboolean preserve_splits,
            gboolean *answer, GCancellable *cancellable, GError **error)
{
  TableCall call = { op, name, preserve_splits, FALSE };
  HBaseCallFlags flags = op == OP_EXISTS || op == OP_IS_ENABLED ? HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY
                                                               : HBASE_CALL_DEFAULT;

  if (!hbase_client_call (client, flags, table_call_once, &call, cancellable, error))
    return FALSE;
  if (answer != NULL)
    *answer = call.answer;
  return TRUE;
}

/* After an I/O error about table @name: when it does not exist, that was
 * the cause (the 2.6 gateway says only the name), so the code becomes
 * HBASE_ERROR_NOT_FOUND.  The gateway's text stays with the error. */
void
_hbase_admin_classify_table_error (HBaseClient *client, HbaseThriftTTableName *name, GCancellable *cancellable,
                                   GError *error)
{
  gboolean exists = TRUE;

  if (!g_error_matches (error, HBASE_ERROR, HBASE_ERROR_IO))
    return;
  if (table_call (client, OP_EXISTS, name, FALSE, &exists, cancellable, NULL) && !exists)
    {
      error->code = HBASE_ERROR_NOT_FOUND;
      g_free (error->message);
      error->message = g_strdup ("no such table");
    }
}

/* Runs @op on @table; a failure is classified (see above). */
static gboolean
table_op (HBaseClient *client, TableOp op, HbaseThriftTTableName *name, gboolean preserve_splits,
          gboolean *answer, GCancellable *cancellable, GError **error)
{
  GError *local = NULL;

  if (table_call (client, op, name, preserve_splits, answer, cancellable, &local))
    return TRUE;
  if (op != OP_EXISTS)
    _hbase_admin_classify_table_error (client, name, cancellable, local);
  g_propagate_error (error, local);
  return FALSE;
}

/* Puts "@what @table: " before the message; always FALSE. */
static gboolean
table_failed (GError **error, const char *what, const char *table)
{
  g_prefix_error (error, "%s %s: ", what, table);
  return FALSE;
}

/* HBase deletes and truncates only disabled tables. */
static gboolean
disable_if_enabled (HBaseClient *client, HbaseThriftTTableName *name, GCancellable *cancellable,
                    GError **error)
{
  gboolean enabled = FALSE;

  if (!table_op (client, OP_IS_ENABLED, name, FALSE, &enabled, cancellable, error))
    return FALSE;
  return !enabled || table_op (client, OP_DISABLE, name, FALSE, NULL, cancellable, error);
}

/* --- tables ------------------------------------------------------------------- */

typedef struct {
  HbaseThriftTTableDescriptor *desc;
  GPtrArray *split_keys;  /* GByteArray */
} CreateCall;

static gboolean
create_once (Service *service, gpointer user_data, GError **error)
{
  CreateCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (hbase_thrift_t_h_base_service_if_create_table (service, call->desc, call->split_keys, &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

/**
 * hbase_client_create_table:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @families: (array length=n_families): the column families, at least one
 * @n_families: the number of @families
 * @split_keys: (nullable) (element-type GBytes): the first rows of the
 *   second and later regions (strictly increasing, none empty), or %NULL
 *   for one region; not possible over framed transport (see below)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Creates a table, waiting until HBase has created it.  Names, families and
 * split keys are checked first (%HBASE_ERROR_ILLEGAL_ARGUMENT, nothing is
 * sent).  Split keys over %HBASE_TRANSPORT_FRAMED fail with
 * %HBASE_ERROR_ILLEGAL_ARGUMENT: the HBase 2.6 gateway takes each of them
 * for the whole request frame there (several fail, a single one would
 * split the table at a nonsense row).  A table that already exists fails
 * with %HBASE_ERROR_IO and HBase's message.  The call is not retried once
 * it may have reached the gateway: a resent create would fail with
 * "already exists".
 *
 * Returns: %TRUE when the table was created
 *
 * Since: 0.1
 */
gboolean
hbase_client_create_table (HBaseClient *client, const char *table, const HBaseFamilyOptions *families,
                          guint n_families, GPtrArray *split_keys, GCancellable *cancellable, GError **error)
{
  g_autoptr(HbaseThriftTTableName) name = NULL;
  g_autoptr(HbaseThriftTTableDescriptor) desc = NULL;
  g_autoptr(GPtrArray) keys = NULL;
  CreateCall call;
  GError *local = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  if (!_hbase_check_table_name (table, error) || !check_families (families, n_families, error) ||
      !check_split_keys (split_keys, error))
    return FALSE;
  /* The 2.6 gateway reads each split key with ByteBuffer.array(), which
   * under framed transport is the whole request frame: several keys fail
   * as "duplicate", a single one silently becomes a nonsense boundary. */
  if (split_keys != NULL && split_keys->len > 0 && !_hbase_admin_is_native (client) &&
      hbase_config_get_transport (hbase_client_get_config (client)) == HBASE_TRANSPORT_FRAMED)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "create table %s: split keys cannot be sent over framed transport "
                   "(the HBase Thrift2 gateway reads them wrongly); use a buffered gateway, "
                   "or create the table without split keys", table);
      return FALSE;
    }

  if (_hbase_admin_is_native (client))
    {
      if (_hbase_admin_native_create_table (client, table, families, n_families, split_keys,
                                            cancellable, error))
        return TRUE;
      return table_failed (error, "create table", table);
    }
  name = _hbase_admin_table_name_new (table);
  desc = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, "tableName", name, NULL);
  for (guint i = 0; i < n_families; i++)
    g_ptr_array_add (desc->columns, _hbase_admin_family_descriptor_new (&families[i]));
  desc->__isset_columns = TRUE;
  keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_byte_array_unref);
  for (guint i = 0; split_keys != NULL && i < split_keys->len; i++)
    g_ptr_array_add (keys, _hbase_byte_array_from_bytes (g_ptr_array_index (split_keys, i)));

  call.desc = desc;
  call.split_keys = keys;
  if (hbase_client_call (client, HBASE_CALL_DEFAULT, create_once, &call, cancellable, &local))
    return TRUE;
  g_prefix_error (&local, "create table %s: ", table);
  g_propagate_error (error, local);
  return FALSE;
}

/**
 * hbase_client_delete_table:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Deletes a table and all its data.  HBase deletes only disabled tables, so
 * an enabled table is disabled first (like happybase's
 * `delete_table(disable=True)`); if the delete then fails, the table stays
 * disabled.  A missing table fails with %HBASE_ERROR_NOT_FOUND.
 *
 * Returns: %TRUE when the table was deleted
 *
 * Since: 0.1
 */
gboolean
hbase_client_delete_table (HBaseClient *client, const char *table, GCancellable *cancellable, GError **error)
{
  g_autoptr(HbaseThriftTTableName) name = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  if (!_hbase_check_table_name (table, error))
    return FALSE;
  if (_hbase_admin_is_native (client))
    return _hbase_admin_native_table_op (client, HBASE_ADMIN_NATIVE_DELETE, table, FALSE, cancellable, error) ||
           table_failed (error, "delete table", table);
  name = _hbase_admin_table_name_new (table);
  if (!disable_if_enabled (client, name, cancellable, error) ||
      !table_op (client, OP_DELETE, name, FALSE, NULL, cancellable, error))
    return table_failed (error, "delete table", table);
  return TRUE;
}

/**
 * hbase_client_truncate_table:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @preserve_splits: keep the table's region boundaries
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Deletes every row of a table, keeping its definition.  HBase truncates
 * only disabled tables: an enabled table is disabled first, and HBase
 * enables it again when done (a disabled table also ends up enabled).  A
 * missing table fails with %HBASE_ERROR_NOT_FOUND.
 *
 * Returns: %TRUE when the table was truncated
 *
 * Since: 0.1
 */
gboolean
hbase_client_truncate_table (HBaseClient *client, const char *table, gboolean preserve_splits,
                            GCancellable *cancellable, GError **error)
{
  g_autoptr(HbaseThriftTTableName) name = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  if (!_hbase_check_table_name (table, error))
    return FALSE;
  if (_hbase_admin_is_native (client))
    return _hbase_admin_native_table_op (client, HBASE_ADMIN_NATIVE_TRUNCATE, table, preserve_splits,
                                         cancellable, error) ||
           table_failed (error, "truncate table", table);
  name = _hbase_admin_table_name_new (table);
  if (!disable_if_enabled (client, name, cancellable, error) ||
      !table_op (client, OP_TRUNCATE, name, preserve_splits ? TRUE : FALSE, NULL, cancellable, error))
    return table_failed (error, "truncate table", table);
  return TRUE;
}

/**
 * hbase_client_enable_table:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Enables a disabled table.  A missing table fails with
 * %HBASE_ERROR_NOT_FOUND; a table that is already enabled fails with
 * %HBASE_ERROR_IO and HBase's message (TableNotDisabledException).
 *
 * Returns: %TRUE when the table was enabled
 *
 * Since: 0.1
 */
gboolean
hbase_client_enable_table (HBaseClient *client, const char *table, GCancellable *cancellable, GError **error)
{
  g_autoptr(HbaseThriftTTableName) name = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  if (!_hbase_check_table_name (table, error))
    return FALSE;
  if (_hbase_admin_is_native (client))
    return _hbase_admin_native_table_op (client, HBASE_ADMIN_NATIVE_ENABLE, table, FALSE, cancellable, error) ||
           table_failed (error, "enable table", table);
  name = _hbase_admin_table_name_new (table);
  if (!table_op (client, OP_ENABLE, name, FALSE, NULL, cancellable, error))
    return table_failed (error, "enable table", table);
  return TRUE;
}

/**
 * hbase_client_disable_table:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Disables an enabled table (its regions go offline).  A missing table
 * fails with %HBASE_ERROR_NOT_FOUND; a table that is already disabled fails
 * with %HBASE_ERROR_IO and HBase's message (TableNotEnabledException).
 *
 * Returns: %TRUE when the table was disabled
 *
 * Since: 0.1
 */
gboolean
hbase_client_disable_table (HBaseClient *client, const char *table, GCancellable *cancellable, GError **error)
{
  g_autoptr(HbaseThriftTTableName) name = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  if (!_hbase_check_table_name (table, error))
    return FALSE;
  if (_hbase_admin_is_native (client))
    return _hbase_admin_native_table_op (client, HBASE_ADMIN_NATIVE_DISABLE, table, FALSE, cancellable, error) ||
           table_failed (error, "disable table", table);
  name = _hbase_admin_table_name_new (table);
  if (!table_op (client, OP_DISABLE, name, FALSE, NULL, cancellable, error))
    return table_failed (error, "disable table", table);
  return TRUE;
}

/**
 * hbase_client_table_exists:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @exists: (out): whether the table exists
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Checks whether a table exists.
 *
 * Returns: %TRUE when @exists was set, %FALSE with @error set
 *   (%HBASE_ERROR_ILLEGAL_ARGUMENT for a bad name)
 *
 * Since: 0.1
 */
gboolean
hbase_client_table_exists (HBaseClient *client, const char *table, gboolean *exists,
                          GCancellable *cancellable, GError **error)
{
  g_autoptr(HbaseThriftTTableName) name = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client) && exists != NULL, FALSE);
  if (!_hbase_check_table_name (table, error))
    return FALSE;
  if (_hbase_admin_is_native (client))
    return _hbase_admin_native_table_exists (client, table, exists, cancellable, error) ||
           table_failed (error, "check table", table);
  name = _hbase_admin_table_name_new (table);
  if (!table_op (client, OP_EXISTS, name, FALSE, exists, cancellable, error))
    return table_failed (error, "check table", table);
  return TRUE;
}

/**
 * hbase_client_is_table_enabled:
 * @client: a client
 * @table: the table's name, "name" or "namespace:name"
 * @enabled: (out): whether the table is enabled
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * A missing table fails with %HBASE_ERROR_NOT_FOUND.
 *
 * Returns: %TRUE when @enabled was set
 *
 * Since: 0.1
 */
gboolean
hbase_client_is_table_enabled (HBaseClient *client, const char *table, gboolean *enabled,
                              GCancellable *cancellable, GError **error)
{
  g_autoptr(HbaseThriftTTableName) name = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client) && enabled != NULL, FALSE);
  if (!_hbase_check_table_name (table, error))
    return FALSE;
  if (_hbase_admin_is_native (client))
    return _hbase_admin_native_is_table_enabled (client, table, enabled, cancellable, error) ||
           table_failed (error, "check table", table);
  name = _hbase_admin_table_name_new (table);
  if (!table_op (client, OP_IS_ENABLED, name, FALSE, enabled, cancellable, error))
    return table_failed (error, "check table", table);
  return TRUE;
}

/* --- listing and namespaces ---------------------------------------------------------- */

typedef struct {
  const char *namespace_;  /* NULL: every user table */
  GPtrArray *names;        /* char *, set by a successful attempt */
} ListCall;

static char *
table_name_to_string (const HbaseThriftTTableName *name)
{
  const GByteArray *q = name->qualifier;
  const GByteArray *ns = name->__isset_ns ? name->ns : NULL;

  if (ns == NULL || ns->len == 0 || (ns->len == 7 && memcmp (ns->data, "default", 7) == 0))
    return g_strndup ((const char *) q->data, q->len);
  return g_strdup_printf ("%.*s:%.*s", (int) ns->len, (const char *) ns->data,
                          (int) q->len, (const char *) q->data);
}

static gboolean
list_once (Service *service, gpointer user_data, GError **error)
{
  ListCall *call = user_data;
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean ok;

  if (call->namespace_ == NULL)
    ok = hbase_thrift_t_h_base_service_if_get_table_names_by_pattern (service, &found, ".*", FALSE,
                                                                      &io, &call_error);
  else
    ok = hbase_thrift_t_h_base_service_if_get_table_names_by_namespace (service, &found, call->namespace_,
                                                                        &io, &call_error);
  if (!ok)
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  g_clear_pointer (&call->names, g_ptr_array_unref);
  call->names = g_ptr_array_new_full (found->len + 1, g_free);
  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (call->names, table_name_to_string (g_ptr_array_index (found, i)));
  return TRUE;
}

static gint
compare_strings (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* After an I/O error about namespace @name: when it does not exist, that
 * was the cause, and the code becomes HBASE_ERROR_NOT_FOUND. */
static void
classify_namespace_error (HBaseClient *client, const char *name, GCancellable *cancellable, GError *error)
{
  g_auto(GStrv) namespaces = NULL;

  if (!g_error_matches (error, HBASE_ERROR, HBASE_ERROR_IO))
    return;
  namespaces = hbase_client_list_namespaces (client, cancellable, NULL);
  if (namespaces != NULL && !g_strv_contains ((const char *const *) namespaces, name))
    {
      error->code = HBASE_ERROR_NOT_FOUND;
      g_free (error->message);
      error->message = g_strdup ("no such namespace");
    }
}

/**
 * hbase_client_list_tables:
 * @client: a client
 * @namespace_: (nullable): a namespace, or %NULL for every user table
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * The names of the tables, sorted: "name" in the default namespace,
 * "namespace:name" elsewhere, as the other table calls of the client take
 * them.
 * System tables (namespace "hbase") are listed only when @namespace_ is
 * "hbase".  A missing namespace fails with %HBASE_ERROR_NOT_FOUND.
 *
 * Returns: (transfer full) (array zero-terminated=1) (nullable): the table
 *   names, or %NULL with @error set
 *
 * Since: 0.1
 */
char **
hbase_client_list_tables (HBaseClient *client, const char *namespace_, GCancellable *cancellable, GError **error)
{
  ListCall call = { namespace_, NULL };
  GError *local = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), NULL);
  if (namespace_ != NULL && !check_namespace (namespace_, error))
    return NULL;
  if (_hbase_admin_is_native (client))
    {
      char **names = _hbase_admin_native_list_tables (client, namespace_, cancellable, &local);

      if (names != NULL)
        return names;
      if (namespace_ != NULL)
        g_prefix_error (&local, "list tables of namespace %s: ", namespace_);
      else
        g_prefix_error (&local, "list tables: ");
      g_propagate_error (error, local);
      return NULL;
    }
  if (!hbase_client_call (client, HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY, list_once, &call, cancellable, &local))
    {
      g_clear_pointer (&call.names, g_ptr_array_unref);
      if (namespace_ != NULL)
        {
          classify_namespace_error (client, namespace_, cancellable, local);
          g_prefix_error (&local, "list tables of namespace %s: ", namespace_);
        }
      else
        g_prefix_error (&local, "list tables: ");
      g_propagate_error (error, local);
      return NULL;
    }
  g_ptr_array_sort (call.names, compare_strings);
  g_ptr_array_add (call.names, NULL);
  return (char **) g_ptr_array_free (call.names, FALSE);
}

typedef struct {
  const char *name;
  gboolean create;
} NamespaceCall;

static gboolean
namespace_once (Service *service, gpointer user_data, GError **error)
{
  NamespaceCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean ok;

  if (call->create)
    {
      g_autoptr(HbaseThriftTNamespaceDescriptor) desc =
        g_object_new (HBASE_THRIFT_TYPE_T_NAMESPACE_DESCRIPTOR, "name", call->name, NULL);

      ok = hbase_thrift_t_h_base_service_if_create_namespace (service, desc, &io, &call_error);
    }
  else
    ok = hbase_thrift_t_h_base_service_if_delete_namespace (service, call->name, &io, &call_error);
  if (!ok)
    hbase_error_take_call_error (error, call_error, io, NULL);
  return ok;
}

static gboolean
namespace_op (HBaseClient *client, const char *name, gboolean create, GCancellable *cancellable, GError **error)
{
  NamespaceCall call = { name, create };
  GError *local = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  if (!check_namespace (name, error))
    return FALSE;
  if (_hbase_admin_is_native (client))
    {
      /* the master says "not found" itself */
      if (_hbase_admin_native_namespace_op (client, name, create, cancellable, &local))
        return TRUE;
    }
  else if (hbase_client_call (client, HBASE_CALL_DEFAULT, namespace_once, &call, cancellable, &local))
    return TRUE;
  else if (!create)
    classify_namespace_error (client, name, cancellable, local);
  g_prefix_error (&local, "%s namespace %s: ", create ? "create" : "delete", name);
  g_propagate_error (error, local);
  return FALSE;
}

/**
 * hbase_client_create_namespace:
 * @client: a client
 * @name: the namespace's name (letters, digits and '_')
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Creates a namespace.  One that already exists fails with %HBASE_ERROR_IO
 * and HBase's message.
 *
 * Returns: %TRUE when the namespace was created
 *
 * Since: 0.1
 */
gboolean
hbase_client_create_namespace (HBaseClient *client, const char *name, GCancellable *cancellable, GError **error)
{
  return namespace_op (client, name, TRUE, cancellable, error);
}

/**
 * hbase_client_delete_namespace:
 * @client: a client
 * @name: the namespace's name
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Deletes an empty namespace (HBase refuses one that still has tables,
 * %HBASE_ERROR_IO).  A missing namespace fails with %HBASE_ERROR_NOT_FOUND.
 *
 * Returns: %TRUE when the namespace was deleted
 *
 * Since: 0.1
 */
gboolean
hbase_client_delete_namespace (HBaseClient *client, const char *name, GCancellable *cancellable, GError **error)
{
  return namespace_op (client, name, FALSE, cancellable, error);
}
