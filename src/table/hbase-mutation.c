/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-mutation.c: HBaseMutation, a put, delete, increment or append of
 * one row.
 *
 * Builders never fail: a bad argument is recorded as the mutation's
 * problem and reported, with everything else wrong with it, by the table
 * operation that sends it (before anything is sent).  That keeps building
 * code free of error handling and still lets nothing half-valid reach
 * HBase.  What the table sends of it is made in hbase-mutation-thrift.c. */
#include "config.h"

#include <string.h>

#include "hbase-mutation-fields.h"
#include "hbase-mutation-private.h"
#include "hbase-name-cache.h"
#include "hbase-table-private.h"

G_DEFINE_BOXED_TYPE (HBaseMutation, hbase_mutation, hbase_mutation_ref, hbase_mutation_unref)

static void
entry_clear (gpointer data)
{
  Entry *entry = data;

  g_clear_pointer (&entry->family, g_bytes_unref);
  g_clear_pointer (&entry->qualifier, g_bytes_unref);
  g_clear_pointer (&entry->value, g_bytes_unref);
}

static HBaseMutation *
mutation_new (GBytes *row, HBaseMutationKind kind)
{
  HBaseMutation *mutation = g_new0 (HBaseMutation, 1);

  g_atomic_ref_count_init (&mutation->ref_count);
  mutation->kind = kind;
  mutation->row = row != NULL ? g_bytes_ref (row) : NULL;
  mutation->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (mutation->entries, entry_clear);
  mutation->timestamp = NO_TIMESTAMP;
  mutation->durability = HBASE_DURABILITY_DEFAULT;
  return mutation;
}

/**
 * hbase_mutation_new_put:
 * @row: (nullable): the row key (referenced); a %NULL or empty key is
 *   reported when the mutation is sent
 *
 * Starts a put: add cells with hbase_mutation_put().
 *
 * Returns: (transfer full): the mutation
 *
 * Since: 0.1
 */
HBaseMutation *
hbase_mutation_new_put (GBytes *row)
{
  return mutation_new (row, HBASE_MUTATION_PUT);
}

/**
 * hbase_mutation_new_delete:
 * @row: (nullable): the row key (referenced)
 *
 * Starts a delete.  With nothing added it deletes the whole row; add
 * families, columns or cell versions to delete only those.
 *
 * Returns: (transfer full): the mutation
 *
 * Since: 0.1
 */
HBaseMutation *
hbase_mutation_new_delete (GBytes *row)
{
  return mutation_new (row, HBASE_MUTATION_DELETE);
}

/**
 * hbase_mutation_new_increment:
 * @row: (nullable): the row key (referenced)
 *
 * Starts an increment: add columns with hbase_mutation_increment() and
 * send it with hbase_table_increment().  The columns hold 64-bit
 * big-endian counters (see hbase_counter_encode()).
 *
 * Returns: (transfer full): the mutation
 *
 * Since: 0.1
 */
HBaseMutation *
hbase_mutation_new_increment (GBytes *row)
{
  return mutation_new (row, HBASE_MUTATION_INCREMENT);
}

/**
 * hbase_mutation_new_append:
 * @row: (nullable): the row key (referenced)
 *
 * Starts an append: add columns with hbase_mutation_append() and send it
 * with hbase_table_append().
 *
 * Returns: (transfer full): the mutation
 *
 * Since: 0.1
 */
HBaseMutation *
hbase_mutation_new_append (GBytes *row)
{
  return mutation_new (row, HBASE_MUTATION_APPEND);
}

/**
 * hbase_mutation_ref:
 * @mutation: (nullable): a mutation
 *
 * Takes a reference on @mutation; release it with hbase_mutation_unref().
 * Does nothing for %NULL.
 *
 * Returns: (transfer full) (nullable): @mutation
 *
 * Since: 0.1
 */
HBaseMutation *
hbase_mutation_ref (HBaseMutation *mutation)
{
  if (mutation != NULL)
    g_atomic_ref_count_inc (&mutation->ref_count);
  return mutation;
}

/**
 * hbase_mutation_unref:
 * @mutation: (transfer full) (nullable): a mutation
 *
 * Drops a reference; the last one frees the mutation.
 *
 * Since: 0.1
 */
void
hbase_mutation_unref (HBaseMutation *mutation)
{
  if (mutation == NULL || !g_atomic_ref_count_dec (&mutation->ref_count))
    return;
  g_clear_pointer (&mutation->row, g_bytes_unref);
  g_array_unref (mutation->entries);
  g_free (mutation->problem);
  g_free (mutation);
}

/**
 * hbase_mutation_get_kind:
 * @mutation: a mutation
 *
 * Gets whether @mutation is a put, a delete, an increment or an append.
 *
 * Returns: what the mutation does
 *
 * Since: 0.1
 */
HBaseMutationKind
hbase_mutation_get_kind (HBaseMutation *mutation)
{
  g_return_val_if_fail (mutation != NULL, HBASE_MUTATION_PUT);
  return mutation->kind;
}

/**
 * hbase_mutation_is_put:
 * @mutation: a mutation
 *
 * Tells whether @mutation is a put.
 *
 * Returns: %TRUE for a put, %FALSE for anything else (or %NULL)
 *
 * Since: 0.1
 */
gboolean
hbase_mutation_is_put (HBaseMutation *mutation)
{
  return mutation != NULL && mutation->kind == HBASE_MUTATION_PUT;
}

static const char *
kind_name (HBaseMutationKind kind)
{
  static const char *const names[] = {
    [HBASE_MUTATION_PUT] = "put",
    [HBASE_MUTATION_DELETE] = "delete",
    [HBASE_MUTATION_INCREMENT] = "increment",
    [HBASE_MUTATION_APPEND] = "append",
  };

  return names[kind];
}

static HBaseMutationKind
kind_of_entry (EntryKind kind)
{
  switch (kind)
    {
    case ENTRY_PUT:
      return HBASE_MUTATION_PUT;
    case ENTRY_INCREMENT:
      return HBASE_MUTATION_INCREMENT;
    case ENTRY_APPEND:
      return HBASE_MUTATION_APPEND;
    case ENTRY_DELETE_FAMILY:
    case ENTRY_DELETE_COLUMN:
    case ENTRY_DELETE_VERSION:
    default:
      return HBASE_MUTATION_DELETE;
    }
}

/**
 * hbase_mutation_get_row:
 * @mutation: a mutation
 *
 * Gets the row key @mutation applies to.
 *
 * Returns: (transfer none) (nullable): the row key it was created with
 *
 * Since: 0.1
 */
GBytes *
hbase_mutation_get_row (HBaseMutation *mutation)
{
  return mutation != NULL ? mutation->row : NULL;
}

/* Keeps the first problem only: later ones are often its consequences. */
static void record_problem (HBaseMutation *mutation, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
record_problem (HBaseMutation *mutation, const char *format, ...)
{
  va_list args;

  if (mutation->problem != NULL)
    return;
  va_start (args, format);
  mutation->problem = g_strdup_vprintf (format, args);
  va_end (args);
}

/* For builders in other files (the string forms): records why the
 * mutation cannot be sent, unless a problem is already recorded. */
void
_hbase_mutation_record_problem (HBaseMutation *mutation, const char *problem)
{
  if (mutation != NULL)
    record_problem (mutation, "%s", problem);
}

/* Names repeat from cell to cell: shared, see hbase-name-cache.c. */
static GBytes *
bytes_from_string (const char *text)
{
  return _hbase_name_cache_bytes (text);
}

/* Adds an entry (taking @family, @qualifier and @value), or records why
 * it cannot and drops them. */
static void
add_entry (HBaseMutation *mutation, const char *what, EntryKind kind,
           GBytes *family, GBytes *qualifier, GBytes *value, gint64 timestamp)
{
  Entry entry = { kind, family, qualifier, value, timestamp, 0 };
  gboolean needs_value = kind == ENTRY_PUT || kind == ENTRY_APPEND;

  if (kind_of_entry (kind) != mutation->kind)
    record_problem (mutation, "%s on %s %s mutation", what,
                    mutation->kind == HBASE_MUTATION_PUT ? "a" : "an", kind_name (mutation->kind));
  else if (family == NULL || g_bytes_get_size (family) == 0)
    record_problem (mutation, "%s without a column family", what);
  else if (needs_value && value == NULL)
    record_problem (mutation, "%s without a value (an empty value is fine, NULL is not)", what);
  else if (kind == ENTRY_DELETE_VERSION ? timestamp < 0 : timestamp < NO_TIMESTAMP)
    record_problem (mutation, "%s with the invalid timestamp %" G_GINT64_FORMAT, what, timestamp);
  else
    {
      if (entry.qualifier == NULL)
        entry.qualifier = _hbase_name_cache_bytes ("");
      g_array_append_val (mutation->entries, entry);
      return;
    }
  entry_clear (&entry);
}

static void
add_increment (HBaseMutation *mutation, const char *what, GBytes *family, GBytes *qualifier,
               gint64 amount)
{
  guint before = mutation->entries->len;

  add_entry (mutation, what, ENTRY_INCREMENT, family, qualifier, NULL, NO_TIMESTAMP);
  if (mutation->entries->len > before)
    g_array_index (mutation->entries, Entry, before).amount = amount;
}

/**
 * hbase_mutation_put:
 * @mutation: a put
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 * @value: the value (referenced); may be empty, not %NULL
 *
 * Adds a cell, versioned with the mutation's timestamp or the server's
 * time.
 *
 * Since: 0.1
 */
void
hbase_mutation_put (HBaseMutation *mutation, const char *family, const char *qualifier,
                    GBytes *value)
{
  if (mutation == NULL)
    return;
  add_entry (mutation, "hbase_mutation_put", ENTRY_PUT,
             family != NULL ? bytes_from_string (family) : NULL,
             qualifier != NULL ? bytes_from_string (qualifier) : NULL,
             value != NULL ? g_bytes_ref (value) : NULL, NO_TIMESTAMP);
}

/**
 * hbase_mutation_put_bytes:
 * @mutation: a put
 * @family: the column family (referenced)
 * @qualifier: (nullable): the qualifier (referenced), any bytes; %NULL for
 *   the empty one
 * @value: the value (referenced); may be empty, not %NULL
 * @timestamp: the cell's version, or -1 for the mutation's timestamp or
 *   the server's time
 *
 * hbase_mutation_put() for binary families and qualifiers, with an
 * explicit version.
 *
 * Since: 0.1
 */
void
hbase_mutation_put_bytes (HBaseMutation *mutation, GBytes *family, GBytes *qualifier,
                          GBytes *value, gint64 timestamp)
{
  if (mutation == NULL)
    return;
  add_entry (mutation, "hbase_mutation_put_bytes", ENTRY_PUT,
             family != NULL ? g_bytes_ref (family) : NULL,
             qualifier != NULL ? g_bytes_ref (qualifier) : NULL,
             value != NULL ? g_bytes_ref (value) : NULL, timestamp);
}

/**
 * hbase_mutation_delete_family:
 * @mutation: a delete
 * @family: the column family
 *
 * Deletes every column of @family (versions up to the mutation's
 * timestamp, if it has one).
 *
 * Since: 0.1
 */
void
hbase_mutation_delete_family (HBaseMutation *mutation, const char *family)
{
  if (mutation == NULL)
    return;
  add_entry (mutation, "hbase_mutation_delete_family", ENTRY_DELETE_FAMILY,
             family != NULL ? bytes_from_string (family) : NULL, NULL, NULL, NO_TIMESTAMP);
}

/**
 * hbase_mutation_delete_column:
 * @mutation: a delete
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 *
 * Deletes every version of a column (up to the mutation's timestamp, if it
 * has one).
 *
 * Since: 0.1
 */
void
hbase_mutation_delete_column (HBaseMutation *mutation, const char *family, const char *qualifier)
{
  if (mutation == NULL)
    return;
  add_entry (mutation, "hbase_mutation_delete_column", ENTRY_DELETE_COLUMN,
             family != NULL ? bytes_from_string (family) : NULL,
             qualifier != NULL ? bytes_from_string (qualifier) : NULL, NULL, NO_TIMESTAMP);
}

/**
 * hbase_mutation_delete_column_bytes:
 * @mutation: a delete
 * @family: the column family (referenced)
 * @qualifier: (nullable): the qualifier (referenced), any bytes; %NULL
 *   for the empty one
 *
 * hbase_mutation_delete_column() for binary families and qualifiers.
 *
 * Since: 0.1
 */
void
hbase_mutation_delete_column_bytes (HBaseMutation *mutation, GBytes *family, GBytes *qualifier)
{
  if (mutation == NULL)
    return;
  add_entry (mutation, "hbase_mutation_delete_column_bytes", ENTRY_DELETE_COLUMN,
             family != NULL ? g_bytes_ref (family) : NULL,
             qualifier != NULL ? g_bytes_ref (qualifier) : NULL, NULL, NO_TIMESTAMP);
}

/**
 * hbase_mutation_delete_cell_version:
 * @mutation: a delete
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 * @timestamp: the version to delete (>= 0)
 *
 * Deletes exactly one version of a column.
 *
 * Since: 0.1
 */
void
hbase_mutation_delete_cell_version (HBaseMutation *mutation, const char *family,
                                    const char *qualifier, gint64 timestamp)
{
  if (mutation == NULL)
    return;
  add_entry (mutation, "hbase_mutation_delete_cell_version", ENTRY_DELETE_VERSION,
             family != NULL ? bytes_from_string (family) : NULL,
             qualifier != NULL ? bytes_from_string (qualifier) : NULL, NULL, timestamp);
}

/**
 * hbase_mutation_increment:
 * @mutation: an increment
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 * @amount: what to add (may be negative); a missing cell counts as 0
 *
 * Adds a column to increment.
 *
 * Since: 0.1
 */
void
hbase_mutation_increment (HBaseMutation *mutation, const char *family, const char *qualifier,
                          gint64 amount)
{
  if (mutation == NULL)
    return;
  add_increment (mutation, "hbase_mutation_increment",
                 family != NULL ? bytes_from_string (family) : NULL,
                 qualifier != NULL ? bytes_from_string (qualifier) : NULL, amount);
}

/**
 * hbase_mutation_increment_bytes:
 * @mutation: an increment
 * @family: the column family (referenced)
 * @qualifier: (nullable): the qualifier (referenced), any bytes
 * @amount: what to add
 *
 * hbase_mutation_increment() for binary families and qualifiers.
 *
 * Since: 0.1
 */
void
hbase_mutation_increment_bytes (HBaseMutation *mutation, GBytes *family, GBytes *qualifier,
                                gint64 amount)
{
  if (mutation == NULL)
    return;
  add_increment (mutation, "hbase_mutation_increment_bytes",
                 family != NULL ? g_bytes_ref (family) : NULL,
                 qualifier != NULL ? g_bytes_ref (qualifier) : NULL, amount);
}

/**
 * hbase_mutation_append:
 * @mutation: an append
 * @family: the column family
 * @qualifier: (nullable): the qualifier; %NULL for the empty one
 * @value: the bytes to append (referenced); a missing cell counts as empty
 *
 * Adds a column to append to.
 *
 * Since: 0.1
 */
void
hbase_mutation_append (HBaseMutation *mutation, const char *family, const char *qualifier,
                       GBytes *value)
{
  if (mutation == NULL)
    return;
  add_entry (mutation, "hbase_mutation_append", ENTRY_APPEND,
             family != NULL ? bytes_from_string (family) : NULL,
             qualifier != NULL ? bytes_from_string (qualifier) : NULL,
             value != NULL ? g_bytes_ref (value) : NULL, NO_TIMESTAMP);
}

/**
 * hbase_mutation_append_bytes:
 * @mutation: an append
 * @family: the column family (referenced)
 * @qualifier: (nullable): the qualifier (referenced), any bytes
 * @value: the bytes to append (referenced)
 *
 * hbase_mutation_append() for binary families and qualifiers.
 *
 * Since: 0.1
 */
void
hbase_mutation_append_bytes (HBaseMutation *mutation, GBytes *family, GBytes *qualifier,
                             GBytes *value)
{
  if (mutation == NULL)
    return;
  add_entry (mutation, "hbase_mutation_append_bytes", ENTRY_APPEND,
             family != NULL ? g_bytes_ref (family) : NULL,
             qualifier != NULL ? g_bytes_ref (qualifier) : NULL,
             value != NULL ? g_bytes_ref (value) : NULL, NO_TIMESTAMP);
}

/**
 * hbase_mutation_set_timestamp:
 * @mutation: a mutation
 * @timestamp: a version (>= 0), or -1 for none
 *
 * For a put, the version of cells added without one; for a delete, the
 * newest version a row, family or column delete removes.
 *
 * Since: 0.1
 */
void
hbase_mutation_set_timestamp (HBaseMutation *mutation, gint64 timestamp)
{
  if (mutation == NULL)
    return;
  if (timestamp < NO_TIMESTAMP)
    record_problem (mutation, "hbase_mutation_set_timestamp with the invalid timestamp %"
                    G_GINT64_FORMAT, timestamp);
  else if (timestamp != NO_TIMESTAMP && (mutation->kind == HBASE_MUTATION_INCREMENT ||
                                         mutation->kind == HBASE_MUTATION_APPEND))
    /* TIncrement and TAppend have no timestamp: HBase stamps the result */
    record_problem (mutation, "hbase_mutation_set_timestamp on an %s (the Thrift2 gateway "
                    "takes no timestamp for it)", kind_name (mutation->kind));
  else
    mutation->timestamp = timestamp;
}

/**
 * hbase_mutation_set_durability:
 * @mutation: a mutation
 * @durability: how HBase makes it durable
 *
 * Sets how HBase makes @mutation durable (the table's setting by default).
 * An unknown value is reported by the write that sends @mutation, as
 * %HBASE_ERROR_ILLEGAL_ARGUMENT.
 *
 * Since: 0.1
 */
void
hbase_mutation_set_durability (HBaseMutation *mutation, HBaseDurability durability)
{
  if (mutation == NULL)
    return;
  if ((guint) durability > HBASE_DURABILITY_FSYNC_WAL)
    record_problem (mutation, "hbase_mutation_set_durability with the unknown value %d",
                    (int) durability);
  else
    mutation->durability = durability;
}

/* --- for the table (the Thrift structs: hbase-mutation-thrift.c) ---------------------------------------------------------------- */

gboolean
_hbase_mutation_check (HBaseMutation *mutation, GError **error)
{
  if (mutation == NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "the mutation is NULL");
      return FALSE;
    }
  if (!_hbase_check_row (mutation->row, "row", error))
    {
      g_prefix_error (error, "%s: ", kind_name (mutation->kind));
      return FALSE;
    }
  if (mutation->problem != NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "%s: %s",
                   kind_name (mutation->kind), mutation->problem);
      return FALSE;
    }
  if (mutation->kind != HBASE_MUTATION_DELETE && mutation->entries->len == 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "%s: %s",
                   kind_name (mutation->kind),
                   mutation->kind == HBASE_MUTATION_PUT ? "no cells to write" : "no columns");
      return FALSE;
    }
  return TRUE;
}

/* The TDurability sent for @durability; FALSE for the default, which is
 * left unset: older gateways then see the field absent. */
HBaseMutation *
_hbase_mutation_copy (HBaseMutation *mutation)
{
  HBaseMutation *copy = mutation_new (mutation->row, mutation->kind);

  g_array_set_size (copy->entries, mutation->entries->len);
  for (guint i = 0; i < mutation->entries->len; i++)
    {
      const Entry *from = &g_array_index (mutation->entries, Entry, i);
      Entry *to = &g_array_index (copy->entries, Entry, i);

      *to = *from;
      to->family = from->family != NULL ? g_bytes_ref (from->family) : NULL;
      to->qualifier = from->qualifier != NULL ? g_bytes_ref (from->qualifier) : NULL;
      to->value = from->value != NULL ? g_bytes_ref (from->value) : NULL;
    }
  copy->timestamp = mutation->timestamp;
  copy->durability = mutation->durability;
  copy->problem = g_strdup (mutation->problem);
  return copy;
}

/* --- read-only accessors (hbase-mutation-private.h) ------------------------------- */

guint
_hbase_mutation_get_n_entries (HBaseMutation *mutation)
{
  return mutation->entries->len;
}

HBaseMutationEntryKind
_hbase_mutation_get_entry (HBaseMutation *mutation, guint index, GBytes **family,
                           GBytes **qualifier, GBytes **value, gint64 *timestamp)
{
  const Entry *entry = &g_array_index (mutation->entries, Entry, index);

  *family = entry->family;
  *qualifier = entry->qualifier;
  *value = entry->value;
  *timestamp = entry->timestamp;
  switch (entry->kind)
    {
    case ENTRY_PUT:
      return _HBASE_MUTATION_ENTRY_PUT;
    case ENTRY_DELETE_FAMILY:
      return _HBASE_MUTATION_ENTRY_DELETE_FAMILY;
    case ENTRY_DELETE_COLUMN:
      return _HBASE_MUTATION_ENTRY_DELETE_COLUMN;
    case ENTRY_DELETE_VERSION:
      return _HBASE_MUTATION_ENTRY_DELETE_VERSION;
    case ENTRY_INCREMENT:
      return _HBASE_MUTATION_ENTRY_INCREMENT;
    case ENTRY_APPEND:
    default:
      return _HBASE_MUTATION_ENTRY_APPEND;
    }
}

gint64
_hbase_mutation_get_timestamp (HBaseMutation *mutation)
{
  return mutation->timestamp;
}

HBaseDurability
_hbase_mutation_get_durability (HBaseMutation *mutation)
{
  return mutation->durability;
}
