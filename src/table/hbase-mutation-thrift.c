/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-mutation-thrift.c: a checked HBaseMutation as the generated Thrift
 * structs the table's calls send (TPut, TDelete per delete kind,
 * TRowMutations, TIncrement, TAppend), and a put written straight to the
 * protocol for the hand-encoded put requests.  A TDelete has one deleteType
 * for all its columns, so a delete that mixes families, columns and cell
 * versions becomes one TDelete per kind. */
#include "config.h"

#include <string.h>

#include "hbase-mutation-fields.h"
#include "hbase-mutation-private.h"
#include "hbase-request-writer.h"
#include "hbase-table-private.h"

static gboolean
thrift_durability (HBaseDurability durability, HbaseThriftTDurability *value)
{
  static const HbaseThriftTDurability map[] = {
    [HBASE_DURABILITY_DEFAULT] = HBASE_THRIFT_T_DURABILITY_USE_DEFAULT,
    [HBASE_DURABILITY_SKIP_WAL] = HBASE_THRIFT_T_DURABILITY_SKIP_WAL,
    [HBASE_DURABILITY_ASYNC_WAL] = HBASE_THRIFT_T_DURABILITY_ASYNC_WAL,
    [HBASE_DURABILITY_SYNC_WAL] = HBASE_THRIFT_T_DURABILITY_SYNC_WAL,
    [HBASE_DURABILITY_FSYNC_WAL] = HBASE_THRIFT_T_DURABILITY_FSYNC_WAL,
  };

  if (durability == HBASE_DURABILITY_DEFAULT)
    return FALSE;
  *value = map[durability];
  return TRUE;
}

static void
set_durability (HbaseThriftTDurability *field, gboolean *isset, HBaseDurability durability)
{
  if (thrift_durability (durability, field))
    *isset = TRUE;
}

HbaseThriftTPut *
_hbase_mutation_to_put (HBaseMutation *mutation)
{
  HbaseThriftTPut *put = g_object_new (HBASE_THRIFT_TYPE_T_PUT, NULL);

  put->row = _hbase_byte_array_from_bytes (mutation->row);
  for (guint i = 0; i < mutation->entries->len; i++)
    {
      const Entry *entry = &g_array_index (mutation->entries, Entry, i);
      HbaseThriftTColumnValue *value = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, NULL);

      value->family = _hbase_byte_array_from_bytes (entry->family);
      value->qualifier = _hbase_byte_array_from_bytes (entry->qualifier);
      value->value = _hbase_byte_array_from_bytes (entry->value);
      if (entry->timestamp != NO_TIMESTAMP)
        {
          value->timestamp = entry->timestamp;
          value->__isset_timestamp = TRUE;
        }
      g_ptr_array_add (put->columnValues, value);
    }
  if (mutation->timestamp != NO_TIMESTAMP)
    {
      put->timestamp = mutation->timestamp;
      put->__isset_timestamp = TRUE;
    }
  set_durability (&put->durability, &put->__isset_durability, mutation->durability);
  return put;
}

gsize
_hbase_mutation_put_size (HBaseMutation *put)
{
  gsize size = g_bytes_get_size (put->row);

  for (guint i = 0; i < put->entries->len; i++)
    {
      const Entry *entry = &g_array_index (put->entries, Entry, i);

      size += g_bytes_get_size (entry->family) + g_bytes_get_size (entry->qualifier) +
              g_bytes_get_size (entry->value);
    }
  return size;
}

static gboolean
write_bytes_field (HBaseWire *wire, const char *name, gint16 id, GBytes *bytes,
                   GError **error)
{
  gsize len = 0;
  gconstpointer data = bytes != NULL ? g_bytes_get_data (bytes, &len) : NULL;

  return _hbase_write_binary_field (wire, name, id, data, len, error);
}

/* struct TColumnValue: 1 family, 2 qualifier, 3 value, 4 timestamp (tags
 * and type are never set) */
static gboolean
write_column_value (const Entry *entry, HBaseWire *wire, GError **error)
{
  HBASE_W (_hbase_wire_write_struct_begin (wire, "TColumnValue", error));
  if (!write_bytes_field (wire, "family", 1, entry->family, error) ||
      !write_bytes_field (wire, "qualifier", 2, entry->qualifier, error) ||
      !write_bytes_field (wire, "value", 3, entry->value, error))
    return FALSE;
  if (entry->timestamp != NO_TIMESTAMP &&
      !_hbase_write_i64_field (wire, "timestamp", 4, entry->timestamp, error))
    return FALSE;
  HBASE_W (_hbase_wire_write_field_stop (wire, error));
  HBASE_W (_hbase_wire_write_struct_end (wire, error));
  return TRUE;
}

/* struct TPut: 1 row, 2 columnValues, 3 timestamp, 6 durability
 * (attributes and cellVisibility are never set) */
gboolean
_hbase_mutation_write_put (HBaseMutation *put, ThriftProtocol *protocol, GError **error)
{
  HBaseWire wire;

  _hbase_wire_init (&wire, protocol);
  return _hbase_mutation_write_tput (put, &wire, error);
}

gboolean
_hbase_mutation_write_tput (HBaseMutation *put, HBaseWire *wire, GError **error)
{
  HbaseThriftTDurability durability;

  HBASE_W (_hbase_wire_write_struct_begin (wire, "TPut", error));
  if (!write_bytes_field (wire, "row", 1, put->row, error))
    return FALSE;
  HBASE_W (_hbase_wire_write_field_begin (wire, "columnValues", T_LIST, 2, error));
  HBASE_W (_hbase_wire_write_list_begin (wire, T_STRUCT, (gint32) put->entries->len, error));
  for (guint i = 0; i < put->entries->len; i++)
    if (!write_column_value (&g_array_index (put->entries, Entry, i), wire, error))
      return FALSE;
  HBASE_W (_hbase_wire_write_list_end (wire, error));
  HBASE_W (_hbase_wire_write_field_end (wire, error));
  if (put->timestamp != NO_TIMESTAMP &&
      !_hbase_write_i64_field (wire, "timestamp", 3, put->timestamp, error))
    return FALSE;
  if (thrift_durability (put->durability, &durability))
    {
      HBASE_W (_hbase_wire_write_field_begin (wire, "durability", T_I32, 6, error));
      HBASE_W (_hbase_wire_write_i32 (wire, (gint32) durability, error));
      HBASE_W (_hbase_wire_write_field_end (wire, error));
    }
  HBASE_W (_hbase_wire_write_field_stop (wire, error));
  HBASE_W (_hbase_wire_write_struct_end (wire, error));
  return TRUE;
}

static HbaseThriftTDelete *
delete_new (HBaseMutation *mutation)
{
  HbaseThriftTDelete *tdelete = g_object_new (HBASE_THRIFT_TYPE_T_DELETE, NULL);

  tdelete->row = _hbase_byte_array_from_bytes (mutation->row);
  if (mutation->timestamp != NO_TIMESTAMP)
    {
      tdelete->timestamp = mutation->timestamp;
      tdelete->__isset_timestamp = TRUE;
    }
  set_durability (&tdelete->durability, &tdelete->__isset_durability, mutation->durability);
  return tdelete;
}

/* The TDelete of one kind of entry, or NULL when the mutation has none. */
static HbaseThriftTDelete *
delete_of_kind (HBaseMutation *mutation, EntryKind kind)
{
  static const HbaseThriftTDeleteType types[] = {
    [ENTRY_DELETE_FAMILY] = HBASE_THRIFT_T_DELETE_TYPE_DELETE_FAMILY,
    [ENTRY_DELETE_COLUMN] = HBASE_THRIFT_T_DELETE_TYPE_DELETE_COLUMNS,
    [ENTRY_DELETE_VERSION] = HBASE_THRIFT_T_DELETE_TYPE_DELETE_COLUMN,
  };
  HbaseThriftTDelete *tdelete = NULL;

  for (guint i = 0; i < mutation->entries->len; i++)
    {
      const Entry *entry = &g_array_index (mutation->entries, Entry, i);
      HbaseThriftTColumn *column;

      if (entry->kind != kind)
        continue;
      if (tdelete == NULL)
        {
          tdelete = delete_new (mutation);
          tdelete->deleteType = types[kind];
          tdelete->__isset_deleteType = TRUE;
          tdelete->__isset_columns = TRUE;
        }
      column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN, NULL);
      column->family = _hbase_byte_array_from_bytes (entry->family);
      if (kind != ENTRY_DELETE_FAMILY)
        {
          column->qualifier = _hbase_byte_array_from_bytes (entry->qualifier);
          column->__isset_qualifier = TRUE;
        }
      /* the gateway ignores TDelete.timestamp once columns are named:
       * the mutation's timestamp goes on each column */
      if (entry->timestamp != NO_TIMESTAMP || mutation->timestamp != NO_TIMESTAMP)
        {
          column->timestamp = entry->timestamp != NO_TIMESTAMP ? entry->timestamp
                                                               : mutation->timestamp;
          column->__isset_timestamp = TRUE;
        }
      g_ptr_array_add (tdelete->columns, column);
    }
  return tdelete;
}

void
_hbase_mutation_add_deletes (HBaseMutation *mutation, GPtrArray *deletes)
{
  static const EntryKind kinds[] = {
    ENTRY_DELETE_FAMILY, ENTRY_DELETE_COLUMN, ENTRY_DELETE_VERSION
  };

  /* nothing named: the whole row, a TDelete without columns */
  if (mutation->entries->len == 0)
    {
      g_ptr_array_add (deletes, delete_new (mutation));
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      HbaseThriftTDelete *tdelete = delete_of_kind (mutation, kinds[i]);

      if (tdelete != NULL)
        g_ptr_array_add (deletes, tdelete);
    }
}

void
_hbase_mutation_add_row_mutations (HBaseMutation *mutation, GPtrArray *mutations)
{
  if (mutation->kind == HBASE_MUTATION_PUT)
    {
      HbaseThriftTMutation *tmutation = g_object_new (HBASE_THRIFT_TYPE_T_MUTATION, NULL);

      /* a union: exactly one member set */
      g_object_unref (tmutation->put);
      tmutation->put = _hbase_mutation_to_put (mutation);
      tmutation->__isset_put = TRUE;
      g_ptr_array_add (mutations, tmutation);
    }
  else
    {
      g_autoptr(GPtrArray) deletes = g_ptr_array_new_with_free_func (g_object_unref);

      _hbase_mutation_add_deletes (mutation, deletes);
      for (guint i = 0; i < deletes->len; i++)
        {
          HbaseThriftTMutation *tmutation = g_object_new (HBASE_THRIFT_TYPE_T_MUTATION, NULL);

          g_object_unref (tmutation->deleteSingle);
          tmutation->deleteSingle = g_object_ref (g_ptr_array_index (deletes, i));
          tmutation->__isset_deleteSingle = TRUE;
          g_ptr_array_add (mutations, tmutation);
        }
    }
}

HbaseThriftTIncrement *
_hbase_mutation_to_increment (HBaseMutation *mutation)
{
  HbaseThriftTIncrement *increment = g_object_new (HBASE_THRIFT_TYPE_T_INCREMENT, NULL);

  increment->row = _hbase_byte_array_from_bytes (mutation->row);
  for (guint i = 0; i < mutation->entries->len; i++)
    {
      const Entry *entry = &g_array_index (mutation->entries, Entry, i);
      HbaseThriftTColumnIncrement *column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_INCREMENT,
                                                          NULL);

      column->family = _hbase_byte_array_from_bytes (entry->family);
      column->qualifier = _hbase_byte_array_from_bytes (entry->qualifier);
      column->amount = entry->amount;
      column->__isset_amount = TRUE;
      g_ptr_array_add (increment->columns, column);
    }
  set_durability (&increment->durability, &increment->__isset_durability, mutation->durability);
  increment->returnResults = TRUE;
  increment->__isset_returnResults = TRUE;
  return increment;
}

HbaseThriftTAppend *
_hbase_mutation_to_append (HBaseMutation *mutation)
{
  HbaseThriftTAppend *append = g_object_new (HBASE_THRIFT_TYPE_T_APPEND, NULL);

  append->row = _hbase_byte_array_from_bytes (mutation->row);
  for (guint i = 0; i < mutation->entries->len; i++)
    {
      const Entry *entry = &g_array_index (mutation->entries, Entry, i);
      HbaseThriftTColumnValue *value = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, NULL);

      value->family = _hbase_byte_array_from_bytes (entry->family);
      value->qualifier = _hbase_byte_array_from_bytes (entry->qualifier);
      value->value = _hbase_byte_array_from_bytes (entry->value);
      g_ptr_array_add (append->columns, value);
    }
  set_durability (&append->durability, &append->__isset_durability, mutation->durability);
  append->returnResults = TRUE;
  append->__isset_returnResults = TRUE;
  return append;
}
