/* hbase-table.c: HBaseTable, the reads and writes of one table, and the
 * checks and conversions the table, scanner and admin code share.
 *
 * Every operation works in two steps: "prepare" checks all its input and
 * converts it into the generated structs (nothing is sent when anything is
 * wrong), then "run" sends them through hbase_client_call() with its
 * retries.  The async variants prepare in the caller's thread, so the
 * caller may change or free its inputs right after the call, and run in a
 * worker thread. */
#include "config.h"

#include <string.h>

#include "hbase-mutation-private.h"
#include "hbase-table-private.h"

#define MAX_NAME_LENGTH 255

struct _HBaseTable {
  GObject parent;

  HBaseClient *client;
  char *name;
  GByteArray *name_bytes;           /* what the generated calls take */
  HbaseThriftTTableName *table_name; /* for tableExists */
};

G_DEFINE_FINAL_TYPE (HBaseTable, hbase_table, G_TYPE_OBJECT)

/* --- shared checks and conversions ----------------------------------------------- */

GByteArray *
_hbase_byte_array_from_bytes (GBytes *bytes)
{
  GByteArray *array = g_byte_array_new ();
  gsize size = 0;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &size) : NULL;

  if (size > 0)
    g_byte_array_append (array, data, (guint) size);
  return array;
}

GByteArray *
_hbase_byte_array_from_string (const char *text)
{
  GByteArray *array = g_byte_array_new ();

  if (text != NULL)
    g_byte_array_append (array, (const guint8 *) text, (guint) strlen (text));
  return array;
}

gboolean
_hbase_check_row (GBytes *row, const char *what, GError **error)
{
  if (row == NULL || g_bytes_get_size (row) == 0)
    {
      /* HBase has no empty row key: an empty key would read nothing and a
       * write would be rejected by the region server anyway */
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "the %s is %s",
                   what != NULL ? what : "row", row == NULL ? "NULL" : "empty");
      return FALSE;
    }
  return TRUE;
}

static gboolean
illegal (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
illegal (GError **error, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                                                format, args));
  va_end (args);
  return FALSE;
}

/* Catches what is certainly malformed in a filter string (unbalanced
 * parentheses, an unterminated quote) before sending: the gateway answers
 * a filter it cannot parse with a bare "Internal error processing get",
 * which does not say what is wrong.  In the filter language a quote inside
 * a quoted string is doubled, so counting quotes is enough. */
static gboolean
check_filter_syntax (const char *filter, GError **error)
{
  gboolean quoted = FALSE;
  int depth = 0;

  for (const char *p = filter; *p != '\0'; p++)
    {
      if (*p == '\'')
        quoted = !quoted;
      else if (!quoted && *p == '(')
        depth++;
      else if (!quoted && *p == ')' && --depth < 0)
        return illegal (error, "the filter \"%s\" has a ')' without its '('", filter);
    }
  if (quoted)
    return illegal (error, "the filter \"%s\" has an unterminated quoted string", filter);
  if (depth > 0)
    return illegal (error, "the filter \"%s\" has %d unclosed '('", filter, depth);
  return TRUE;
}

gboolean
_hbase_read_options_check (const HBaseReadOptions *options, GError **error)
{
  if (options == NULL)
    return TRUE;
  for (guint i = 0; options->columns != NULL && options->columns[i] != NULL; i++)
    {
      const char *column = options->columns[i];

      if (column[0] == '\0')
        return illegal (error, "column %u is empty (use \"family\" or \"family:qualifier\")", i);
      if (column[0] == ':')
        return illegal (error, "column %u (\"%s\") has no family", i, column);
    }
  if (options->max_versions > G_MAXINT32)
    return illegal (error, "max_versions %u is too large", options->max_versions);
  if (options->min_timestamp < 0 || options->max_timestamp < 0)
    return illegal (error, "timestamps cannot be negative (min %" G_GINT64_FORMAT
                    ", max %" G_GINT64_FORMAT ")", options->min_timestamp, options->max_timestamp);
  if (options->max_timestamp != 0 && options->max_timestamp < options->min_timestamp)
    return illegal (error, "max_timestamp %" G_GINT64_FORMAT " is before min_timestamp %"
                    G_GINT64_FORMAT, options->max_timestamp, options->min_timestamp);
  if (options->filter != NULL && options->filter[0] == '\0')
    return illegal (error, "the filter is empty (use NULL for no filter)");
  return options->filter == NULL || check_filter_syntax (options->filter, error);
}

GPtrArray *
_hbase_read_options_columns (const HBaseReadOptions *options)
{
  GPtrArray *columns;

  if (options == NULL || options->columns == NULL || options->columns[0] == NULL)
    return NULL;
  columns = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; options->columns[i] != NULL; i++)
    {
      const char *spec = options->columns[i];
      const char *colon = strchr (spec, ':');
      HbaseThriftTColumn *column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN, NULL);

      if (colon == NULL)
        column->family = _hbase_byte_array_from_string (spec);
      else
        {
          column->family = g_byte_array_new ();
          g_byte_array_append (column->family, (const guint8 *) spec, (guint) (colon - spec));
          column->qualifier = _hbase_byte_array_from_string (colon + 1);
          column->__isset_qualifier = TRUE;
        }
      g_ptr_array_add (columns, column);
    }
  return columns;
}

/* HBase's TableName rules: a namespace of letters, digits and '_'; a
 * qualifier of those and '.' and '-', not starting with either. */
static gboolean
check_name_part (const char *part, gsize len, gboolean is_namespace, const char *name,
                 GError **error)
{
  const char *what = is_namespace ? "namespace" : "table qualifier";

  if (len == 0)
    return illegal (error, "table name \"%s\": the %s is empty", name, what);
  if (len > MAX_NAME_LENGTH)
    return illegal (error, "table name \"%s\": the %s is longer than %u bytes", name, what,
                    MAX_NAME_LENGTH);
  if (!is_namespace && (part[0] == '.' || part[0] == '-'))
    return illegal (error, "table name \"%s\": the %s starts with '%c'", name, what, part[0]);
  for (gsize i = 0; i < len; i++)
    {
      char c = part[i];

      if (g_ascii_isalnum (c) || c == '_' || (!is_namespace && (c == '.' || c == '-')))
        continue;
      return illegal (error, "table name \"%s\": the %s has the illegal character '%c' "
                      "(allowed: letters, digits, '_'%s)", name, what,
                      g_ascii_isprint (c) ? c : '?', is_namespace ? "" : ", '.', '-'");
    }
  return TRUE;
}

gboolean
_hbase_check_table_name (const char *name, GError **error)
{
  const char *colon;

  if (name == NULL)
    return illegal (error, "the table name is NULL");
  colon = strchr (name, ':');
  if (colon == NULL)
    return check_name_part (name, strlen (name), FALSE, name, error);
  return check_name_part (name, (gsize) (colon - name), TRUE, name, error) &&
         check_name_part (colon + 1, strlen (colon + 1), FALSE, name, error);
}

/* --- the table object ------------------------------------------------------------------ */

static void
hbase_table_finalize (GObject *object)
{
  HBaseTable *table = HBASE_TABLE (object);

  g_clear_object (&table->client);
  g_free (table->name);
  g_clear_pointer (&table->name_bytes, g_byte_array_unref);
  g_clear_object (&table->table_name);
  G_OBJECT_CLASS (hbase_table_parent_class)->finalize (object);
}

static void
hbase_table_class_init (HBaseTableClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hbase_table_finalize;
}

static void
hbase_table_init (HBaseTable *table)
{
}

/**
 * hbase_table_new:
 * @client: the client to send through (referenced)
 * @name: "table" or "namespace:table"
 * @error: return location for an error
 *
 * A handle on a table.  Only the name is checked (HBase's rules); whether
 * the table exists shows at the first operation.
 *
 * Returns: (transfer full) (nullable): the table, or %NULL with @error set
 *   (%HBASE_ERROR_ILLEGAL_ARGUMENT)
 */
HBaseTable *
hbase_table_new (HBaseClient *client, const char *name, GError **error)
{
  HBaseTable *table;
  const char *colon;

  if (!HBASE_IS_CLIENT (client))
    {
      illegal (error, "hbase_table_new needs a client");
      return NULL;
    }
  if (!_hbase_check_table_name (name, error))
    return NULL;

  table = g_object_new (HBASE_TYPE_TABLE, NULL);
  table->client = g_object_ref (client);
  table->name = g_strdup (name);
  table->name_bytes = _hbase_byte_array_from_string (name);
  table->table_name = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, NULL);
  colon = strchr (name, ':');
  if (colon != NULL)
    {
      table->table_name->ns = g_byte_array_new ();
      g_byte_array_append (table->table_name->ns, (const guint8 *) name, (guint) (colon - name));
      table->table_name->__isset_ns = TRUE;
    }
  table->table_name->qualifier = _hbase_byte_array_from_string (colon != NULL ? colon + 1 : name);
  return table;
}

/**
 * hbase_table_get_name:
 * @table: a table
 *
 * Returns: (transfer none): the table's name as given to hbase_table_new()
 */
const char *
hbase_table_get_name (HBaseTable *table)
{
  g_return_val_if_fail (HBASE_IS_TABLE (table), NULL);
  return table->name;
}

/**
 * hbase_table_get_client:
 * @table: a table
 *
 * Returns: (transfer none): the client the table sends through
 */
HBaseClient *
hbase_table_get_client (HBaseTable *table)
{
  g_return_val_if_fail (HBASE_IS_TABLE (table), NULL);
  return table->client;
}

/* --- prepared calls ---------------------------------------------------------------------- */

/* A write step: a group of TPuts (putMultiple, or put for one) or of
 * TDeletes (deleteMultiple, or deleteSingle for one). */
typedef struct {
  gboolean puts;
  GPtrArray *items;
} Batch;

static void
batch_free (gpointer data)
{
  Batch *batch = data;

  g_ptr_array_unref (batch->items);
  g_free (batch);
}

/* One operation, ready to send: inputs converted, outputs filled by the
 * attempt that succeeds. */
typedef struct {
  HBaseTable *table;
  GPtrArray *gets;                      /* HbaseThriftTGet */
  GPtrArray *batches;                   /* Batch */
  guint next_batch;                     /* a retry resumes here */
  HbaseThriftTRowMutations *row_mutations;
  char *filter;                         /* for error messages */
  gsize payload;                        /* bytes of keys and values written */

  HBaseRow *row;
  GPtrArray *rows;                      /* HBaseRow */
  gboolean exists;
} Call;

static Call *
call_new (HBaseTable *table)
{
  Call *call = g_new0 (Call, 1);

  call->table = g_object_ref (table);
  return call;
}

static void
call_free (gpointer data)
{
  Call *call = data;

  g_clear_object (&call->table);
  g_clear_pointer (&call->gets, g_ptr_array_unref);
  g_clear_pointer (&call->batches, g_ptr_array_unref);
  g_clear_object (&call->row_mutations);
  g_free (call->filter);
  g_clear_pointer (&call->row, hbase_row_unref);
  g_clear_pointer (&call->rows, g_ptr_array_unref);
  g_free (call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Call, call_free)

static HbaseThriftTGet *
get_new (GBytes *row, const HBaseReadOptions *options)
{
  HbaseThriftTGet *get = g_object_new (HBASE_THRIFT_TYPE_T_GET, NULL);
  g_autoptr(GPtrArray) columns = _hbase_read_options_columns (options);

  get->row = _hbase_byte_array_from_bytes (row);
  if (columns != NULL)
    {
      for (guint i = 0; i < columns->len; i++)
        g_ptr_array_add (get->columns, g_object_ref (g_ptr_array_index (columns, i)));
      get->__isset_columns = TRUE;
    }
  if (options == NULL)
    return get;
  if (options->max_versions > 0)
    {
      get->maxVersions = (gint32) options->max_versions;
      get->__isset_maxVersions = TRUE;
    }
  if (options->min_timestamp != 0 || options->max_timestamp != 0)
    {
      get->timeRange->minStamp = options->min_timestamp;
      /* no upper bound: HBase's LATEST_TIMESTAMP, Long.MAX_VALUE */
      get->timeRange->maxStamp = options->max_timestamp != 0 ? options->max_timestamp : G_MAXINT64;
      get->__isset_timeRange = TRUE;
    }
  if (options->filter != NULL)
    {
      get->filterString = _hbase_byte_array_from_string (options->filter);
      get->__isset_filterString = TRUE;
    }
  return get;
}

static Call *
prepare_gets (HBaseTable *table, GBytes *const *rows, guint n_rows, gboolean several,
              const HBaseReadOptions *options, GError **error)
{
  g_autoptr(Call) call = NULL;

  if (!HBASE_IS_TABLE (table))
    {
      illegal (error, "not a table");
      return NULL;
    }
  for (guint i = 0; i < n_rows; i++)
    {
      g_autofree char *what = several ? g_strdup_printf ("row %u of %u", i, n_rows) : NULL;

      if (!_hbase_check_row (rows[i], several ? what : "row", error))
        return NULL;
    }
  if (!_hbase_read_options_check (options, error))
    return NULL;
  call = call_new (table);
  call->filter = options != NULL ? g_strdup (options->filter) : NULL;
  call->gets = g_ptr_array_new_full (n_rows, g_object_unref);
  for (guint i = 0; i < n_rows; i++)
    g_ptr_array_add (call->gets, get_new (rows[i], options));
  return g_steal_pointer (&call);
}

/* Adds @tput to the last batch when that holds puts, else to a new one;
 * likewise for deletes: consecutive mutations of one kind travel together. */
static void
batch_add (GPtrArray *batches, gboolean puts, gpointer item)
{
  Batch *batch = batches->len > 0 ? g_ptr_array_index (batches, batches->len - 1) : NULL;

  if (batch == NULL || batch->puts != puts)
    {
      batch = g_new0 (Batch, 1);
      batch->puts = puts;
      batch->items = g_ptr_array_new_with_free_func (g_object_unref);
      g_ptr_array_add (batches, batch);
    }
  g_ptr_array_add (batch->items, item);
}

static gsize
put_size (const HbaseThriftTPut *put)
{
  gsize size = put->row->len;

  for (guint i = 0; i < put->columnValues->len; i++)
    {
      const HbaseThriftTColumnValue *value = g_ptr_array_index (put->columnValues, i);

      size += value->family->len + value->qualifier->len + value->value->len;
    }
  return size;
}

static gboolean
check_mutations (GPtrArray *mutations, GError **error)
{
  if (mutations == NULL)
    return illegal (error, "the list of mutations is NULL");
  for (guint i = 0; i < mutations->len; i++)
    if (!_hbase_mutation_check (g_ptr_array_index (mutations, i), error))
      {
        if (mutations->len > 1)
          g_prefix_error (error, "mutation %u of %u: ", i, mutations->len);
        return FALSE;
      }
  return TRUE;
}

static Call *
prepare_writes (HBaseTable *table, GPtrArray *mutations, GError **error)
{
  g_autoptr(Call) call = NULL;

  if (!HBASE_IS_TABLE (table))
    {
      illegal (error, "not a table");
      return NULL;
    }
  if (!check_mutations (mutations, error))
    return NULL;
  call = call_new (table);
  call->batches = g_ptr_array_new_with_free_func (batch_free);
  for (guint i = 0; i < mutations->len; i++)
    {
      HBaseMutation *mutation = g_ptr_array_index (mutations, i);

      if (hbase_mutation_is_put (mutation))
        {
          HbaseThriftTPut *put = _hbase_mutation_to_put (mutation);

          call->payload += put_size (put);
          batch_add (call->batches, TRUE, put);
        }
      else
        {
          g_autoptr(GPtrArray) deletes = g_ptr_array_new_with_free_func (g_object_unref);

          _hbase_mutation_add_deletes (mutation, deletes);
          for (guint j = 0; j < deletes->len; j++)
            batch_add (call->batches, FALSE, g_object_ref (g_ptr_array_index (deletes, j)));
        }
    }
  return g_steal_pointer (&call);
}

static Call *
prepare_row_mutations (HBaseTable *table, GPtrArray *mutations, GError **error)
{
  g_autoptr(Call) call = NULL;
  GBytes *row;

  if (!HBASE_IS_TABLE (table))
    {
      illegal (error, "not a table");
      return NULL;
    }
  if (!check_mutations (mutations, error))
    return NULL;
  if (mutations->len == 0)
    {
      illegal (error, "mutate_row needs at least one mutation");
      return NULL;
    }
  row = hbase_mutation_get_row (g_ptr_array_index (mutations, 0));
  for (guint i = 1; i < mutations->len; i++)
    if (!g_bytes_equal (row, hbase_mutation_get_row (g_ptr_array_index (mutations, i))))
      {
        illegal (error, "mutate_row: mutation %u is on another row than mutation 0 "
                 "(an atomic mutation covers one row)", i);
        return NULL;
      }
  call = call_new (table);
  call->row_mutations = g_object_new (HBASE_THRIFT_TYPE_T_ROW_MUTATIONS, NULL);
  call->row_mutations->row = _hbase_byte_array_from_bytes (row);
  for (guint i = 0; i < mutations->len; i++)
    _hbase_mutation_add_row_mutations (g_ptr_array_index (mutations, i),
                                       call->row_mutations->mutations);
  for (guint i = 0; i < call->row_mutations->mutations->len; i++)
    {
      HbaseThriftTMutation *tmutation = g_ptr_array_index (call->row_mutations->mutations, i);

      if (tmutation->__isset_put)
        call->payload += put_size (tmutation->put);
    }
  return g_steal_pointer (&call);
}

/* --- one attempt of each call ---------------------------------------------------------------- */

static gboolean
get_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  Call *call = user_data;
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_get (service, &result, call->table->name_bytes,
                                             g_ptr_array_index (call->gets, 0), &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  g_clear_pointer (&call->row, hbase_row_unref);
  call->row = _hbase_row_new_from_result (result);
  return TRUE;
}

static gboolean
get_multiple_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  Call *call = user_data;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_get_multiple (service, &results, call->table->name_bytes,
                                                      call->gets, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  if (results->len != call->gets->len)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "getMultiple answered %u results for %u gets", results->len, call->gets->len);
      return FALSE;
    }
  g_clear_pointer (&call->rows, g_ptr_array_unref);
  call->rows = g_ptr_array_new_full (results->len, (GDestroyNotify) hbase_row_unref);
  for (guint i = 0; i < results->len; i++)
    g_ptr_array_add (call->rows, _hbase_row_new_from_result (g_ptr_array_index (results, i)));
  return TRUE;
}

static gboolean
exists_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  Call *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_exists (service, &call->exists, call->table->name_bytes,
                                                g_ptr_array_index (call->gets, 0), &io,
                                                &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

static gboolean
send_batch (HbaseThriftTHBaseServiceIf *service, const GByteArray *table, Batch *batch,
            GError **error)
{
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean ok;

  if (batch->puts && batch->items->len == 1)
    ok = hbase_thrift_t_h_base_service_if_put (service, table, g_ptr_array_index (batch->items, 0),
                                               &io, &call_error);
  else if (batch->puts)
    ok = hbase_thrift_t_h_base_service_if_put_multiple (service, table, batch->items, &io,
                                                        &call_error);
  else if (batch->items->len == 1)
    ok = hbase_thrift_t_h_base_service_if_delete_single (service, table,
                                                         g_ptr_array_index (batch->items, 0),
                                                         &io, &call_error);
  else
    {
      g_autoptr(GPtrArray) failed = g_ptr_array_new_with_free_func (g_object_unref);

      ok = hbase_thrift_t_h_base_service_if_delete_multiple (service, &failed, table, batch->items,
                                                             &io, &call_error);
      /* the deletes HBase did not apply come back (it usually throws instead) */
      if (ok && failed->len > 0)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_IO,
                       "deleteMultiple: %u of %u deletes were not applied",
                       failed->len, batch->items->len);
          return FALSE;
        }
    }
  if (!ok)
    hbase_error_take_call_error (error, call_error, io, NULL);
  return ok;
}

static gboolean
write_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  Call *call = user_data;

  /* batches already acknowledged are not sent again by a retry */
  for (; call->next_batch < call->batches->len; call->next_batch++)
    if (!send_batch (service, call->table->name_bytes,
                     g_ptr_array_index (call->batches, call->next_batch), error))
      return FALSE;
  return TRUE;
}

static gboolean
mutate_row_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  Call *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_mutate_row (service, call->table->name_bytes,
                                                    call->row_mutations, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

static gboolean
table_exists_once (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  Call *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_table_exists (service, &call->exists,
                                                      call->table->table_name, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

/* The 2.6 gateway reports a missing table as a TIOError whose message is
 * only the table's name (canRetry false), so "not found" cannot be told
 * from other I/O errors by the reply.  After such a failure, and only
 * then, one tableExists call settles it. */
static void
refine_io_error (Call *call, GCancellable *cancellable, GError **error)
{
  g_autoptr(Call) probe = NULL;
  GError *original = *error;

  if (!g_error_matches (original, HBASE_ERROR, HBASE_ERROR_IO) ||
      hbase_error_get_can_retry (original))
    return;
  probe = call_new (call->table);
  if (!hbase_client_call (call->table->client, HBASE_CALL_IDEMPOTENT, table_exists_once, probe,
                          cancellable, NULL) ||
      probe->exists)
    return;
  *error = g_error_new (HBASE_ERROR, HBASE_ERROR_NOT_FOUND, "table %s does not exist (%s)",
                        call->table->name, original->message);
  g_error_free (original);
}

/* Framed gateways refuse frames above hbase.regionserver.thrift.framed.
 * max_frame_size_in_mb (2 MB by default) by closing the connection, which
 * looks like any broken connection; a large write is the likely cause. */
#define LARGE_FRAMED_REQUEST (1024 * 1024)

/* Adds what the request tells about an error the reply leaves vague. */
static void
add_hints (Call *call, GError *error)
{
  const HBaseConfig *config = hbase_client_get_config (call->table->client);
  char *message = NULL;

  if (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_SERVER) && call->filter != NULL)
    message = g_strdup_printf ("%s (the request's filter was \"%s\": the gateway fails this "
                               "way when HBase cannot parse a filter)", error->message,
                               call->filter);
  else if (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_CONNECTION) &&
           hbase_config_get_transport (config) == HBASE_TRANSPORT_FRAMED &&
           call->payload >= LARGE_FRAMED_REQUEST)
    message = g_strdup_printf ("%s (the request carried %" G_GSIZE_FORMAT " bytes of data: a "
                               "framed gateway closes the connection on a frame above its limit, "
                               "hbase.regionserver.thrift.framed.max_frame_size_in_mb, 2 MB by "
                               "default)", error->message, call->payload);
  if (message != NULL)
    {
      g_free (error->message);
      error->message = message;
    }
}

static gboolean
run (Call *call, HBaseCallFunc func, GCancellable *cancellable, GError **error)
{
  GError *local = NULL;

  if (hbase_client_call (call->table->client, HBASE_CALL_IDEMPOTENT, func, call, cancellable,
                         &local))
    return TRUE;
  refine_io_error (call, cancellable, &local);
  add_hints (call, local);
  g_propagate_error (error, local);
  return FALSE;
}

/* --- reads ---------------------------------------------------------------------------------- */

/**
 * hbase_table_get:
 * @table: a table
 * @row: the row key
 * @options: (nullable): what to read; %NULL for the newest version of
 *   every column
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Reads one row.
 *
 * Returns: (transfer full) (nullable): the row, empty (hbase_row_is_empty())
 *   when it does not exist or nothing matched; %NULL with @error set on
 *   failure (%HBASE_ERROR_ILLEGAL_ARGUMENT for a %NULL or empty @row or bad
 *   @options, %HBASE_ERROR_NOT_FOUND for a missing table, ...)
 */
HBaseRow *
hbase_table_get (HBaseTable *table, GBytes *row, const HBaseReadOptions *options,
                 GCancellable *cancellable, GError **error)
{
  g_autoptr(Call) call = prepare_gets (table, &row, 1, FALSE, options, error);

  if (call == NULL || !run (call, get_once, cancellable, error))
    return NULL;
  return g_steal_pointer (&call->row);
}

/**
 * hbase_table_get_multiple:
 * @table: a table
 * @rows: (element-type GBytes): the row keys
 * @options: (nullable): what to read of each row
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Reads several rows in one call.
 *
 * Returns: (transfer full) (element-type HBaseRow) (nullable): one row per
 *   key, in the order of @rows (empty rows for missing ones), or %NULL with
 *   @error set
 */
GPtrArray *
hbase_table_get_multiple (HBaseTable *table, GPtrArray *rows, const HBaseReadOptions *options,
                          GCancellable *cancellable, GError **error)
{
  g_autoptr(Call) call = NULL;

  if (rows == NULL)
    {
      illegal (error, "the list of rows is NULL");
      return NULL;
    }
  call = prepare_gets (table, (GBytes *const *) rows->pdata, rows->len, TRUE, options, error);
  if (call == NULL)
    return NULL;
  if (rows->len == 0)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  if (!run (call, get_multiple_once, cancellable, error))
    return NULL;
  return g_steal_pointer (&call->rows);
}

/**
 * hbase_table_exists:
 * @table: a table
 * @row: the row key
 * @options: (nullable): which columns, versions, time range or filter
 *   count; %NULL for any cell
 * @exists: (out): whether the row has a matching cell
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Checks whether a row exists without transferring it.
 *
 * Returns: %TRUE if the check was made (the answer is in @exists)
 */
gboolean
hbase_table_exists (HBaseTable *table, GBytes *row, const HBaseReadOptions *options,
                    gboolean *exists, GCancellable *cancellable, GError **error)
{
  g_autoptr(Call) call = NULL;

  if (exists != NULL)
    *exists = FALSE;
  call = prepare_gets (table, &row, 1, FALSE, options, error);
  if (call == NULL || !run (call, exists_once, cancellable, error))
    return FALSE;
  if (exists != NULL)
    *exists = call->exists;
  return TRUE;
}

/* --- writes ------------------------------------------------------------------------------------ */

static Call *
prepare_apply (HBaseTable *table, HBaseMutation *mutation, HBaseCallFunc *func, GError **error)
{
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  Call *call;

  g_ptr_array_add (one, mutation);
  /* a delete of several kinds is several TDeletes: sent as one
   * mutateRow, it stays atomic like any single delete */
  call = prepare_writes (table, one, error);
  if (call == NULL)
    return NULL;
  *func = write_once;
  if (!hbase_mutation_is_put (mutation))
    {
      Batch *batch = g_ptr_array_index (call->batches, 0);

      if (batch->items->len > 1)
        {
          call_free (call);
          call = prepare_row_mutations (table, one, error);
          *func = mutate_row_once;
        }
    }
  return call;
}

/**
 * hbase_table_apply:
 * @table: a table
 * @mutation: a put or a delete
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Sends one mutation.  It is checked whole first; a bad one is reported as
 * %HBASE_ERROR_ILLEGAL_ARGUMENT and nothing is sent.  A single mutation is
 * atomic, also a delete that mixes families, columns and versions.
 *
 * Returns: %TRUE if HBase applied it
 */
gboolean
hbase_table_apply (HBaseTable *table, HBaseMutation *mutation, GCancellable *cancellable,
                   GError **error)
{
  HBaseCallFunc func = NULL;
  g_autoptr(Call) call = prepare_apply (table, mutation, &func, error);

  return call != NULL && run (call, func, cancellable, error);
}

/**
 * hbase_table_apply_multiple:
 * @table: a table
 * @mutations: (element-type HBaseMutation): puts and deletes, of any rows
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Sends many mutations in few calls: each run of consecutive puts as one
 * putMultiple, each run of consecutive deletes as one deleteMultiple, in
 * the order given.  All mutations are checked before anything is sent.
 *
 * Not atomic: when a call fails, the runs before it are applied, and HBase
 * may have applied part of the failed run.  Use hbase_table_mutate_row()
 * for an atomic change of one row.
 *
 * Returns: %TRUE if every mutation was applied
 */
gboolean
hbase_table_apply_multiple (HBaseTable *table, GPtrArray *mutations, GCancellable *cancellable,
                            GError **error)
{
  g_autoptr(Call) call = prepare_writes (table, mutations, error);

  return call != NULL && run (call, write_once, cancellable, error);
}

/**
 * hbase_table_mutate_row:
 * @table: a table
 * @mutations: (element-type HBaseMutation): puts and deletes of one row
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Applies several mutations of one row atomically (mutateRow): readers see
 * all of them or none.  Mutations on different rows are rejected with
 * %HBASE_ERROR_ILLEGAL_ARGUMENT and nothing is sent.
 *
 * Returns: %TRUE if HBase applied them
 */
gboolean
hbase_table_mutate_row (HBaseTable *table, GPtrArray *mutations, GCancellable *cancellable,
                        GError **error)
{
  g_autoptr(Call) call = prepare_row_mutations (table, mutations, error);

  return call != NULL && run (call, mutate_row_once, cancellable, error);
}

/* --- asynchronous variants ------------------------------------------------------------------ */

typedef struct {
  Call *call;
  HBaseCallFunc func;
} AsyncCall;

static void
async_call_free (gpointer data)
{
  AsyncCall *async = data;

  call_free (async->call);
  g_free (async);
}

static void
run_in_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  AsyncCall *async = task_data;
  Call *call = async->call;
  GError *error = NULL;

  if (!run (call, async->func, cancellable, &error))
    g_task_return_error (task, error);
  else if (async->func == get_once)
    g_task_return_pointer (task, g_steal_pointer (&call->row), (GDestroyNotify) hbase_row_unref);
  else if (async->func == get_multiple_once)
    g_task_return_pointer (task, g_steal_pointer (&call->rows), (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_boolean (task, TRUE);
}

/* Starts @call (or reports @error, when preparing it failed) on a worker
 * thread. */
static void
start (HBaseTable *table, Call *call, HBaseCallFunc func, GError *error, gpointer tag,
       GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = g_task_new (table, cancellable, callback, user_data);
  AsyncCall *async;

  g_task_set_source_tag (task, tag);
  if (call == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  async = g_new0 (AsyncCall, 1);
  async->call = call;
  async->func = func;
  g_task_set_task_data (task, async, async_call_free);
  g_task_run_in_thread (task, run_in_thread);
}

/**
 * hbase_table_get_async:
 * @table: a table
 * @row: the row key (copied before this returns)
 * @options: (nullable): what to read (copied before this returns)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_get().
 */
void
hbase_table_get_async (HBaseTable *table, GBytes *row, const HBaseReadOptions *options,
                       GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  GError *error = NULL;
  Call *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = prepare_gets (table, &row, 1, FALSE, options, &error);
  start (table, call, get_once, error, hbase_table_get_async, cancellable, callback, user_data);
}

/**
 * hbase_table_get_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): the row, as hbase_table_get()
 */
HBaseRow *
hbase_table_get_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_table_get_async, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * hbase_table_get_multiple_async:
 * @table: a table
 * @rows: (element-type GBytes): the row keys (copied before this returns)
 * @options: (nullable): what to read of each row (copied)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_get_multiple().
 */
void
hbase_table_get_multiple_async (HBaseTable *table, GPtrArray *rows,
                                const HBaseReadOptions *options, GCancellable *cancellable,
                                GAsyncReadyCallback callback, gpointer user_data)
{
  GError *error = NULL;
  Call *call = NULL;

  g_return_if_fail (HBASE_IS_TABLE (table));
  if (rows == NULL)
    illegal (&error, "the list of rows is NULL");
  else
    call = prepare_gets (table, (GBytes *const *) rows->pdata, rows->len, TRUE, options, &error);
  start (table, call, get_multiple_once, error, hbase_table_get_multiple_async, cancellable,
         callback, user_data);
}

/**
 * hbase_table_get_multiple_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Returns: (transfer full) (element-type HBaseRow) (nullable): the rows, as
 *   hbase_table_get_multiple()
 */
GPtrArray *
hbase_table_get_multiple_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_table_get_multiple_async,
                        NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * hbase_table_apply_async:
 * @table: a table
 * @mutation: a put or a delete (converted before this returns: changing
 *   it afterwards does not change what is sent)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_apply().
 */
void
hbase_table_apply_async (HBaseTable *table, HBaseMutation *mutation, GCancellable *cancellable,
                         GAsyncReadyCallback callback, gpointer user_data)
{
  GError *error = NULL;
  HBaseCallFunc func = NULL;
  Call *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = prepare_apply (table, mutation, &func, &error);
  start (table, call, func, error, hbase_table_apply_async, cancellable, callback, user_data);
}

/**
 * hbase_table_apply_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Returns: %TRUE if HBase applied the mutation
 */
gboolean
hbase_table_apply_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_table_apply_async, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * hbase_table_apply_multiple_async:
 * @table: a table
 * @mutations: (element-type HBaseMutation): puts and deletes (converted
 *   before this returns)
 * @cancellable: (nullable): a #GCancellable
 * @callback: called in the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Asynchronous hbase_table_apply_multiple(); not atomic either.
 */
void
hbase_table_apply_multiple_async (HBaseTable *table, GPtrArray *mutations,
                                  GCancellable *cancellable, GAsyncReadyCallback callback,
                                  gpointer user_data)
{
  GError *error = NULL;
  Call *call;

  g_return_if_fail (HBASE_IS_TABLE (table));
  call = prepare_writes (table, mutations, &error);
  start (table, call, write_once, error, hbase_table_apply_multiple_async, cancellable, callback,
         user_data);
}

/**
 * hbase_table_apply_multiple_finish:
 * @table: a table
 * @result: the result given to the callback
 * @error: return location for an error
 *
 * Returns: %TRUE if every mutation was applied
 */
gboolean
hbase_table_apply_multiple_finish (HBaseTable *table, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, table), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        hbase_table_apply_multiple_async, FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
