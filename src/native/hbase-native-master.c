/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-master.c: MasterService calls over HBase's own RPC
 * (hbase-native-master.h).  The active master is asked of the registry
 * (ClientMetaService.GetActiveMaster) on the first bootstrap server that
 * answers, and remembered by the client until a call fails as if the master
 * were gone.  Each call opens its own connection (service "MasterService")
 * and closes it after: administration is rare, and the index-mark check
 * reads a descriptor at most every 10 s per table.  A change (create,
 * delete, enable, a family added ...) is sent with a nonce group and nonce, so the master
 * answers a resent request with the procedure it already started, and then
 * polls getProcedureResult until the procedure ends, as HBaseAdmin's
 * futures do; its failure is reported with the server's exception class
 * and message.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "../core/hbase-error-private.h"
#include "hbase-native-connection.h"
#include "hbase-native-master.h"
#include "hbase-native-replies.h"
#include "MasterAdmin.pb-c.h"
#include "Registry.pb-c.h"

#define MASTER_SERVICE "MasterService"

void
_hbase_native_family_free (HBaseNativeFamily *family)
{
  if (family == NULL)
    return;
  g_free (family->name);
  if (family->values != NULL)
    g_hash_table_unref (family->values);
  g_free (family);
}

/* "host:port" -> its parts; FALSE when it is not of that form. */
static gboolean
split_address (const char *address, char **host, guint *port)
{
  const char *colon = strrchr (address, ':');
  guint64 value;

  if (colon == NULL || colon == address ||
      !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &value, NULL))
    return FALSE;
  *host = g_strndup (address, colon - address);
  *port = (guint) value;
  return TRUE;
}

/* ---- the active master ----------------------------------------------------- */

static char *
master_from_registry (HBaseNativeClient *self, const char *address, gint64 deadline,
                      GCancellable *cancellable, GError **error)
{
  g_autofree char *host = NULL;
  guint port;
  g_autoptr(HBaseNativeConnection) conn = NULL;
  Hbase__Pb__GetActiveMasterRequest request = HBASE__PB__GET_ACTIVE_MASTER_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  char *master;

  if (!split_address (address, &host, &port))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "bootstrap server '%s' is not host:port", address);
      return NULL;
    }
  conn = _hbase_native_client_connection_new (self, host, port, HBASE_NATIVE_META_SERVICE);
  if (!_hbase_native_connection_call (conn, "GetActiveMaster", &request.base,
                                      &hbase__pb__get_active_master_response__descriptor,
                                      &reply, NULL, deadline, cancellable, error))
    return NULL;
  master = _hbase_native_master_from_reply ((Hbase__Pb__GetActiveMasterResponse *) reply, address,
                                            error);
  protobuf_c_message_free_unpacked (reply, NULL);
  return master;
}

char *
_hbase_native_master_from_reply (const Hbase__Pb__GetActiveMasterResponse *active,
                                 const char *address, GError **error)
{
  if (active->server_name != NULL && active->server_name->host_name != NULL &&
      active->server_name->has_port)
    return g_strdup_printf ("%s:%u", active->server_name->host_name, active->server_name->port);
  /* no active master yet (one is starting, or failing over): like
   * PleaseHold, worth asking again after a pause */
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_SERVER,
               "org.apache.hadoop.hbase.PleaseHoldException: bootstrap server %s knows no "
               "active master", address);
  return NULL;
}

static char *
locate_master (HBaseNativeClient *self, gint64 deadline, GCancellable *cancellable, GError **error)
{
  const char *const *bootstrap = _hbase_native_client_get_bootstrap (self);
  g_autoptr(GError) last = NULL;
  char *master = _hbase_native_client_dup_master (self);

  if (master != NULL)
    return master;
  for (guint i = 0; bootstrap != NULL && bootstrap[i] != NULL; i++)
    {
      g_clear_error (&last);
      master = master_from_registry (self, bootstrap[i], deadline, cancellable, &last);
      if (master != NULL)
        {
          _hbase_native_client_set_master (self, master);
          return master;
        }
      /* an unreachable server is skipped; any other answer is final */
      if (!g_error_matches (last, HBASE_ERROR, HBASE_ERROR_CONNECTION))
        break;
    }
  if (last == NULL)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "no bootstrap server is configured");
  else
    g_propagate_error (error, g_steal_pointer (&last));
  return NULL;
}

/* One MasterService call, retried as the policy says until @deadline. */
static gboolean
master_call (HBaseNativeClient *self, const char *method, const ProtobufCMessage *param,
             const ProtobufCMessageDescriptor *descriptor, ProtobufCMessage **response,
             gint64 deadline, GCancellable *cancellable, GError **error)
{
  *response = NULL;
  if (!_hbase_native_client_check_refused (self, error))
    return FALSE;
  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GError) local = NULL;
      g_autofree char *master = locate_master (self, deadline, cancellable, &local);
      g_autofree char *host = NULL;
      guint port;

      if (master != NULL && !split_address (master, &host, &port))
        g_set_error (&local, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                     "the registry named a master that is not host:port: '%s'", master);
      else if (master != NULL)
        {
          g_autoptr(HBaseNativeConnection) conn =
            _hbase_native_client_connection_new (self, host, port, MASTER_SERVICE);

          if (_hbase_native_connection_call (conn, method, param, descriptor, response, NULL,
                                             deadline, cancellable, &local))
            return TRUE;
        }
      /* a master that is gone, stopping, not running yet (a backup master
       * answers so) or unreachable: ask the registry again */
      if (local->domain == HBASE_ERROR &&
          (_hbase_native_error_kind (local) == HBASE_NATIVE_EXCEPTION_SERVER_GONE ||
           local->code == HBASE_ERROR_CONNECTION || local->code == HBASE_ERROR_TIMEOUT))
        _hbase_native_client_set_master (self, NULL);
      if (!_hbase_native_client_retry (self, NULL, NULL, attempt, deadline, cancellable, &local))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
    }
}

/* ---- procedures -------------------------------------------------------------- */

/* A nonce group for this process and a nonce per change, as HBase's
 * client makes them (random, never 0). */
static guint64
random_nonzero (void)
{
  guint64 value;

  do
    value = ((guint64) g_random_int () << 32) | g_random_int ();
  while (value == 0);
  return value;
}

static guint64
nonce_group (void)
{
  static gsize group;

  if (g_once_init_enter (&group))
    g_once_init_leave (&group, (gsize) random_nonzero ());
  return (guint64) group;
}

/* Waits until procedure @proc_id ends, polling its result with a growing
 * pause (10 ms doubled up to 1 s); its failure becomes @error. */
static gboolean
wait_procedure (HBaseNativeClient *self, guint64 proc_id, gint64 deadline,
                GCancellable *cancellable, GError **error)
{
  gint64 pause_us = 10 * 1000;

  for (;;)
    {
      Hbase__Pb__GetProcedureResultRequest request = HBASE__PB__GET_PROCEDURE_RESULT_REQUEST__INIT;
      ProtobufCMessage *reply = NULL;
      Hbase__Pb__GetProcedureResultResponse *result;
      gint64 until;

      request.proc_id = proc_id;
      if (!master_call (self, "getProcedureResult", &request.base,
                        &hbase__pb__get_procedure_result_response__descriptor, &reply, deadline,
                        cancellable, error))
        return FALSE;
      result = (Hbase__Pb__GetProcedureResultResponse *) reply;
      if (result->state == HBASE__PB__GET_PROCEDURE_RESULT_RESPONSE__STATE__FINISHED)
        {
          gboolean ok = TRUE;

          if (result->exception != NULL)
            {
              const Hbase__Pb__GenericExceptionMessage *generic = result->exception->generic_exception;
              const char *cls = generic != NULL && generic->class_name != NULL
                                  ? generic->class_name : "org.apache.hadoop.hbase.DoNotRetryIOException";
              g_autofree char *text = g_strdup_printf ("%s: %s", cls,
                                                       generic != NULL && generic->message != NULL
                                                         ? generic->message
                                                         : "the master's procedure failed");

              _hbase_native_set_exception_error (error, cls, text, TRUE);
              ok = FALSE;
            }
          protobuf_c_message_free_unpacked (reply, NULL);
          return ok;
        }
      if (result->state == HBASE__PB__GET_PROCEDURE_RESULT_RESPONSE__STATE__NOT_FOUND)
        {
          protobuf_c_message_free_unpacked (reply, NULL);
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_SERVER,
                       "the master knows no procedure %" G_GUINT64_FORMAT
                       " (it may have ended long ago and been forgotten)", proc_id);
          return FALSE;
        }
      protobuf_c_message_free_unpacked (reply, NULL);
      if (deadline != 0 && g_get_monotonic_time () + pause_us >= deadline)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                       "the master's procedure %" G_GUINT64_FORMAT
                       " was still running at the operation's deadline", proc_id);
          return FALSE;
        }
      until = g_get_monotonic_time () + pause_us;
      while (g_get_monotonic_time () < until)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
          g_usleep (MIN (until - g_get_monotonic_time (), 20 * 1000));
        }
      pause_us = MIN (pause_us * 2, G_USEC_PER_SEC);
    }
}

/* A change's reply carries proc_id (field 1 of every *Response used
 * here); waits for it when set. */
static gboolean
change (HBaseNativeClient *self, const char *method, const ProtobufCMessage *param,
        const ProtobufCMessageDescriptor *descriptor, gint64 deadline,
        GCancellable *cancellable, GError **error)
{
  ProtobufCMessage *reply = NULL;
  const ProtobufCFieldDescriptor *field;
  gboolean has_proc;
  guint64 proc_id;

  if (!master_call (self, method, param, descriptor, &reply, deadline, cancellable, error))
    return FALSE;
  field = protobuf_c_message_descriptor_get_field_by_name (descriptor, "proc_id");
  g_assert (field != NULL && field->type == PROTOBUF_C_TYPE_UINT64);
  has_proc = *(const protobuf_c_boolean *) ((const char *) reply + field->quantifier_offset);
  proc_id = *(const guint64 *) ((const char *) reply + field->offset);
  protobuf_c_message_free_unpacked (reply, NULL);
  return !has_proc || wait_procedure (self, proc_id, deadline, cancellable, error);
}

/* ---- names --------------------------------------------------------------------- */

/* @table ("ns:name" or "name") as a TableName pointing into @table. */
static void
table_name_init (Hbase__Pb__TableName *out, const char *table)
{
  const char *colon = strchr (table, ':');

  hbase__pb__table_name__init (out);
  if (colon != NULL)
    {
      out->namespace_.data = (guint8 *) table;
      out->namespace_.len = colon - table;
      table = colon + 1;
    }
  else
    {
      out->namespace_.data = (guint8 *) "default";
      out->namespace_.len = 7;
    }
  out->qualifier.data = (guint8 *) table;
  out->qualifier.len = strlen (table);
}

/* As the client names tables: the default namespace left out. */
static char *
table_name_string (const Hbase__Pb__TableName *name)
{
  const ProtobufCBinaryData *ns = &name->namespace_;

  if (ns->len == 0 || (ns->len == 7 && memcmp (ns->data, "default", 7) == 0))
    return g_strndup ((const char *) name->qualifier.data, name->qualifier.len);
  return g_strdup_printf ("%.*s:%.*s", (int) ns->len, (const char *) ns->data,
                          (int) name->qualifier.len, (const char *) name->qualifier.data);
}

/* A server's "not found" keeps its code, with the message the Thrift2
 * path gives ("no such table"/"no such namespace"); its text stays as the
 * server trace. */
static void
name_not_found (GError *error, const char *what)
{
  if (error == NULL || !g_error_matches (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND))
    return;
  if (hbase_error_get_server_trace (error) == NULL)
    _hbase_error_set_server_trace (error, error->message);
  g_free (error->message);
  error->message = g_strdup_printf ("no such %s", what);
}

/* ---- reads ---------------------------------------------------------------------- */

/* @table's descriptor (free with protobuf_c_message_free_unpacked()), or
 * NULL: a missing table is HBASE_ERROR_NOT_FOUND. */
static Hbase__Pb__GetTableDescriptorsResponse *
read_descriptor (HBaseNativeClient *self, const char *table, GCancellable *cancellable, GError **error)
{
  Hbase__Pb__GetTableDescriptorsRequest request = HBASE__PB__GET_TABLE_DESCRIPTORS_REQUEST__INIT;
  Hbase__Pb__TableName name;
  Hbase__Pb__TableName *names[1] = { &name };
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__GetTableDescriptorsResponse *found;

  table_name_init (&name, table);
  request.n_table_names = 1;
  request.table_names = names;
  if (!master_call (self, "GetTableDescriptors", &request.base,
                    &hbase__pb__get_table_descriptors_response__descriptor, &reply,
                    _hbase_native_client_deadline (self), cancellable, error))
    return NULL;
  found = (Hbase__Pb__GetTableDescriptorsResponse *) reply;
  if (found->n_table_schema == 0 || found->table_schema[0] == NULL)
    {
      protobuf_c_message_free_unpacked (reply, NULL);
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND, "no such table");
      return NULL;
    }
  return found;
}

gboolean
_hbase_native_master_table_attribute (HBaseNativeClient *self, const char *table, const char *key,
                                      char **value, GCancellable *cancellable, GError **error)
{
  Hbase__Pb__GetTableDescriptorsResponse *found = read_descriptor (self, table, cancellable, error);
  gsize key_len = strlen (key);

  *value = NULL;
  if (found == NULL)
    return FALSE;
  for (gsize i = 0; i < found->table_schema[0]->n_attributes; i++)
    {
      const Hbase__Pb__BytesBytesPair *pair = found->table_schema[0]->attributes[i];

      if (pair->first.len == key_len && memcmp (pair->first.data, key, key_len) == 0)
        {
          *value = g_strndup ((const char *) pair->second.data, pair->second.len);
          break;
        }
    }
  protobuf_c_message_free_unpacked (&found->base, NULL);
  return TRUE;
}

gboolean
_hbase_native_master_set_table_attribute (HBaseNativeClient *self, const char *table,
                                          const char *key, const char *value,
                                          GCancellable *cancellable, GError **error)
{
  Hbase__Pb__GetTableDescriptorsResponse *found;
  Hbase__Pb__TableSchema *schema, modified;
  Hbase__Pb__ModifyTableRequest request = HBASE__PB__MODIFY_TABLE_REQUEST__INIT;
  Hbase__Pb__TableName name;
  Hbase__Pb__BytesBytesPair added = HBASE__PB__BYTES_BYTES_PAIR__INIT;
  gsize key_len = strlen (key), n = 0;
  g_autofree Hbase__Pb__BytesBytesPair **attributes = NULL;
  gint64 deadline = _hbase_native_client_deadline (self);
  GError *local = NULL;
  gboolean ok;

  found = read_descriptor (self, table, cancellable, error);
  if (found == NULL)
    return FALSE;
  /* the descriptor as the master has it, with @key's attribute replaced,
   * added or dropped: every other setting goes back unchanged */
  schema = found->table_schema[0];
  attributes = g_new0 (Hbase__Pb__BytesBytesPair *, schema->n_attributes + 1);
  for (gsize i = 0; i < schema->n_attributes; i++)
    {
      const Hbase__Pb__BytesBytesPair *pair = schema->attributes[i];

      if (!(pair->first.len == key_len && memcmp (pair->first.data, key, key_len) == 0))
        attributes[n++] = schema->attributes[i];
    }
  if (value != NULL)
    {
      added.first.data = (guint8 *) key;
      added.first.len = key_len;
      added.second.data = (guint8 *) value;
      added.second.len = strlen (value);
      attributes[n++] = &added;
    }
  /* a shallow copy: the unpacked reply keeps its own attributes */
  modified = *schema;
  modified.attributes = attributes;
  modified.n_attributes = n;
  table_name_init (&name, table);
  request.table_name = &name;
  request.table_schema = &modified;
  request.has_nonce_group = request.has_nonce = TRUE;
  request.nonce_group = nonce_group ();
  request.nonce = random_nonzero ();
  ok = change (self, "ModifyTable", &request.base, &hbase__pb__modify_table_response__descriptor,
               deadline, cancellable, &local);
  protobuf_c_message_free_unpacked (&found->base, NULL);
  if (!ok)
    {
      name_not_found (local, "table");
      g_propagate_error (error, local);
    }
  return ok;
}

GPtrArray *
_hbase_native_master_table_families (HBaseNativeClient *self, const char *table,
                                     GCancellable *cancellable, GError **error)
{
  Hbase__Pb__GetTableDescriptorsResponse *found = read_descriptor (self, table, cancellable, error);
  const Hbase__Pb__TableSchema *schema;
  GPtrArray *families;

  if (found == NULL)
    return NULL;
  schema = found->table_schema[0];
  families = g_ptr_array_new_with_free_func ((GDestroyNotify) _hbase_native_family_free);
  for (gsize i = 0; i < schema->n_column_families; i++)
    {
      const Hbase__Pb__ColumnFamilySchema *cf = schema->column_families[i];
      HBaseNativeFamily *family = g_new0 (HBaseNativeFamily, 1);

      family->name = g_strndup ((const char *) cf->name.data, cf->name.len);
      family->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      for (gsize j = 0; j < cf->n_attributes; j++)
        g_hash_table_replace (family->values,
                              g_strndup ((const char *) cf->attributes[j]->first.data,
                                         cf->attributes[j]->first.len),
                              g_strndup ((const char *) cf->attributes[j]->second.data,
                                         cf->attributes[j]->second.len));
      g_ptr_array_add (families, family);
    }
  protobuf_c_message_free_unpacked (&found->base, NULL);
  return families;
}

/* The table's state (TableState.State), FALSE with NOT_FOUND when the
 * table is missing. */
static gboolean
table_state (HBaseNativeClient *self, const char *table, gint *state, GCancellable *cancellable,
             GError **error)
{
  Hbase__Pb__GetTableStateRequest request = HBASE__PB__GET_TABLE_STATE_REQUEST__INIT;
  Hbase__Pb__TableName name;
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__GetTableStateResponse *found;

  table_name_init (&name, table);
  request.table_name = &name;
  if (!master_call (self, "GetTableState", &request.base,
                    &hbase__pb__get_table_state_response__descriptor, &reply,
                    _hbase_native_client_deadline (self), cancellable, error))
    return FALSE;
  found = (Hbase__Pb__GetTableStateResponse *) reply;
  *state = found->table_state != NULL ? (gint) found->table_state->state : -1;
  protobuf_c_message_free_unpacked (reply, NULL);
  if (*state < 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "malformed HBase RPC reply: GetTableState without a state");
      return FALSE;
    }
  return TRUE;
}

gboolean
_hbase_native_master_table_exists (HBaseNativeClient *self, const char *table, gboolean *exists,
                                   GCancellable *cancellable, GError **error)
{
  g_autoptr(GError) local = NULL;
  gint state;

  *exists = FALSE;
  if (table_state (self, table, &state, cancellable, &local))
    {
      *exists = TRUE;
      return TRUE;
    }
  if (g_error_matches (local, HBASE_ERROR, HBASE_ERROR_NOT_FOUND))
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

gboolean
_hbase_native_master_is_table_enabled (HBaseNativeClient *self, const char *table,
                                       gboolean *enabled, GCancellable *cancellable, GError **error)
{
  GError *local = NULL;
  gint state;

  *enabled = FALSE;
  if (!table_state (self, table, &state, cancellable, &local))
    {
      name_not_found (local, "table");
      g_propagate_error (error, local);
      return FALSE;
    }
  *enabled = state == HBASE__PB__TABLE_STATE__STATE__ENABLED;
  return TRUE;
}

GPtrArray *
_hbase_native_master_list_tables (HBaseNativeClient *self, const char *namespace_,
                                  GCancellable *cancellable, GError **error)
{
  ProtobufCMessage *reply = NULL;
  GPtrArray *names;
  Hbase__Pb__TableName **found;
  gsize n_found;
  GError *local = NULL;

  if (namespace_ == NULL)
    {
      /* what the gateway's getTableNamesByPattern(".*", false) asks */
      Hbase__Pb__GetTableNamesRequest request = HBASE__PB__GET_TABLE_NAMES_REQUEST__INIT;

      request.regex = (char *) ".*";
      request.has_include_sys_tables = TRUE;
      request.include_sys_tables = FALSE;
      if (!master_call (self, "GetTableNames", &request.base,
                        &hbase__pb__get_table_names_response__descriptor, &reply,
                        _hbase_native_client_deadline (self), cancellable, error))
        return NULL;
      found = ((Hbase__Pb__GetTableNamesResponse *) reply)->table_names;
      n_found = ((Hbase__Pb__GetTableNamesResponse *) reply)->n_table_names;
    }
  else
    {
      Hbase__Pb__ListTableNamesByNamespaceRequest request =
        HBASE__PB__LIST_TABLE_NAMES_BY_NAMESPACE_REQUEST__INIT;

      request.namespacename = (char *) namespace_;
      if (!master_call (self, "ListTableNamesByNamespace", &request.base,
                        &hbase__pb__list_table_names_by_namespace_response__descriptor, &reply,
                        _hbase_native_client_deadline (self), cancellable, &local))
        {
          name_not_found (local, "namespace");
          g_propagate_error (error, local);
          return NULL;
        }
      found = ((Hbase__Pb__ListTableNamesByNamespaceResponse *) reply)->tablename;
      n_found = ((Hbase__Pb__ListTableNamesByNamespaceResponse *) reply)->n_tablename;
    }
  names = g_ptr_array_new_full (n_found + 1, g_free);
  for (gsize i = 0; i < n_found; i++)
    g_ptr_array_add (names, table_name_string (found[i]));
  protobuf_c_message_free_unpacked (reply, NULL);
  return names;
}

GPtrArray *
_hbase_native_master_list_namespaces (HBaseNativeClient *self, GCancellable *cancellable,
                                      GError **error)
{
  Hbase__Pb__ListNamespacesRequest request = HBASE__PB__LIST_NAMESPACES_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__ListNamespacesResponse *found;
  GPtrArray *names;

  if (!master_call (self, "ListNamespaces", &request.base,
                    &hbase__pb__list_namespaces_response__descriptor, &reply,
                    _hbase_native_client_deadline (self), cancellable, error))
    return NULL;
  found = (Hbase__Pb__ListNamespacesResponse *) reply;
  names = g_ptr_array_new_full (found->n_namespacename + 1, g_free);
  for (gsize i = 0; i < found->n_namespacename; i++)
    g_ptr_array_add (names, g_strdup (found->namespacename[i]));
  protobuf_c_message_free_unpacked (reply, NULL);
  return names;
}

/* ---- changes -------------------------------------------------------------------- */

gboolean
_hbase_native_master_table_op (HBaseNativeClient *self, HBaseNativeTableOp op, const char *table,
                               GCancellable *cancellable, GError **error)
{
  Hbase__Pb__TableName name;
  gint64 deadline = _hbase_native_client_deadline (self);
  GError *local = NULL;
  gboolean ok = FALSE;

  table_name_init (&name, table);
  switch (op)
    {
    case HBASE_NATIVE_TABLE_ENABLE:
      {
        Hbase__Pb__EnableTableRequest request = HBASE__PB__ENABLE_TABLE_REQUEST__INIT;

        request.table_name = &name;
        request.has_nonce_group = request.has_nonce = TRUE;
        request.nonce_group = nonce_group ();
        request.nonce = random_nonzero ();
        ok = change (self, "EnableTable", &request.base, &hbase__pb__enable_table_response__descriptor,
                     deadline, cancellable, &local);
        break;
      }
    case HBASE_NATIVE_TABLE_DISABLE:
      {
        Hbase__Pb__DisableTableRequest request = HBASE__PB__DISABLE_TABLE_REQUEST__INIT;

        request.table_name = &name;
        request.has_nonce_group = request.has_nonce = TRUE;
        request.nonce_group = nonce_group ();
        request.nonce = random_nonzero ();
        ok = change (self, "DisableTable", &request.base, &hbase__pb__disable_table_response__descriptor,
                     deadline, cancellable, &local);
        break;
      }
    case HBASE_NATIVE_TABLE_DELETE:
      {
        Hbase__Pb__DeleteTableRequest request = HBASE__PB__DELETE_TABLE_REQUEST__INIT;

        request.table_name = &name;
        request.has_nonce_group = request.has_nonce = TRUE;
        request.nonce_group = nonce_group ();
        request.nonce = random_nonzero ();
        ok = change (self, "DeleteTable", &request.base, &hbase__pb__delete_table_response__descriptor,
                     deadline, cancellable, &local);
        break;
      }
    case HBASE_NATIVE_TABLE_TRUNCATE:
    case HBASE_NATIVE_TABLE_TRUNCATE_PRESERVING_SPLITS:
      {
        Hbase__Pb__TruncateTableRequest request = HBASE__PB__TRUNCATE_TABLE_REQUEST__INIT;

        request.tablename = &name;
        request.has_preservesplits = TRUE;
        request.preservesplits = op == HBASE_NATIVE_TABLE_TRUNCATE_PRESERVING_SPLITS;
        request.has_nonce_group = request.has_nonce = TRUE;
        request.nonce_group = nonce_group ();
        request.nonce = random_nonzero ();
        ok = change (self, "truncateTable", &request.base, &hbase__pb__truncate_table_response__descriptor,
                     deadline, cancellable, &local);
        break;
      }
    }
  if (!ok)
    {
      name_not_found (local, "table");
      g_propagate_error (error, local);
    }
  return ok;
}

static void
family_value_add (gpointer key, gpointer value, gpointer user_data)
{
  GPtrArray *pairs = user_data;
  Hbase__Pb__BytesBytesPair *pair = g_new (Hbase__Pb__BytesBytesPair, 1);

  hbase__pb__bytes_bytes_pair__init (pair);
  pair->first.data = key;
  pair->first.len = strlen (key);
  pair->second.data = value;
  pair->second.len = strlen (value);
  g_ptr_array_add (pairs, pair);
}

/* @family as a ColumnFamilySchema in @schema, pointing into @family; its
 * attributes in @pairs (Hbase__Pb__BytesBytesPair *, to free). */
static void
family_schema_init (Hbase__Pb__ColumnFamilySchema *schema, const HBaseNativeFamily *family,
                    GPtrArray *pairs)
{
  hbase__pb__column_family_schema__init (schema);
  schema->name.data = (guint8 *) family->name;
  schema->name.len = strlen (family->name);
  if (family->values != NULL)
    g_hash_table_foreach (family->values, family_value_add, pairs);
  schema->n_attributes = pairs->len;
  schema->attributes = (Hbase__Pb__BytesBytesPair **) pairs->pdata;
}

gboolean
_hbase_native_master_family_op (HBaseNativeClient *self, HBaseNativeFamilyOp op, const char *table,
                                const HBaseNativeFamily *family, GCancellable *cancellable,
                                GError **error)
{
  Hbase__Pb__TableName name;
  Hbase__Pb__ColumnFamilySchema schema;
  g_autoptr(GPtrArray) pairs = g_ptr_array_new_with_free_func (g_free);
  gint64 deadline = _hbase_native_client_deadline (self);
  GError *local = NULL;
  gboolean ok = FALSE;

  table_name_init (&name, table);
  switch (op)
    {
    case HBASE_NATIVE_FAMILY_ADD:
      {
        Hbase__Pb__AddColumnRequest request = HBASE__PB__ADD_COLUMN_REQUEST__INIT;

        family_schema_init (&schema, family, pairs);
        request.table_name = &name;
        request.column_families = &schema;
        request.has_nonce_group = request.has_nonce = TRUE;
        request.nonce_group = nonce_group ();
        request.nonce = random_nonzero ();
        ok = change (self, "AddColumn", &request.base, &hbase__pb__add_column_response__descriptor,
                     deadline, cancellable, &local);
        break;
      }
    case HBASE_NATIVE_FAMILY_MODIFY:
      {
        Hbase__Pb__ModifyColumnRequest request = HBASE__PB__MODIFY_COLUMN_REQUEST__INIT;

        family_schema_init (&schema, family, pairs);
        request.table_name = &name;
        request.column_families = &schema;
        request.has_nonce_group = request.has_nonce = TRUE;
        request.nonce_group = nonce_group ();
        request.nonce = random_nonzero ();
        ok = change (self, "ModifyColumn", &request.base, &hbase__pb__modify_column_response__descriptor,
                     deadline, cancellable, &local);
        break;
      }
    case HBASE_NATIVE_FAMILY_DELETE:
      {
        Hbase__Pb__DeleteColumnRequest request = HBASE__PB__DELETE_COLUMN_REQUEST__INIT;

        request.table_name = &name;
        request.column_name.data = (guint8 *) family->name;
        request.column_name.len = strlen (family->name);
        request.has_nonce_group = request.has_nonce = TRUE;
        request.nonce_group = nonce_group ();
        request.nonce = random_nonzero ();
        ok = change (self, "DeleteColumn", &request.base, &hbase__pb__delete_column_response__descriptor,
                     deadline, cancellable, &local);
        break;
      }
    }
  if (!ok)
    {
      name_not_found (local, "table");
      g_propagate_error (error, local);
    }
  return ok;
}

gboolean
_hbase_native_master_create_table (HBaseNativeClient *self, const char *table, GPtrArray *families,
                                   GPtrArray *split_keys, GCancellable *cancellable, GError **error)
{
  Hbase__Pb__CreateTableRequest request = HBASE__PB__CREATE_TABLE_REQUEST__INIT;
  Hbase__Pb__TableSchema schema = HBASE__PB__TABLE_SCHEMA__INIT;
  Hbase__Pb__TableName name;
  guint n = families->len;
  g_autofree Hbase__Pb__ColumnFamilySchema *family_schemas = g_new0 (Hbase__Pb__ColumnFamilySchema, n);
  g_autofree Hbase__Pb__ColumnFamilySchema **family_pointers = g_new0 (Hbase__Pb__ColumnFamilySchema *, n);
  g_autoptr(GPtrArray) pair_arrays = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  guint n_keys = split_keys != NULL ? split_keys->len : 0;
  g_autofree ProtobufCBinaryData *keys = g_new0 (ProtobufCBinaryData, MAX (n_keys, 1));
  gboolean ok;

  table_name_init (&name, table);
  schema.table_name = &name;
  for (guint i = 0; i < n; i++)
    {
      GPtrArray *pairs = g_ptr_array_new_with_free_func (g_free);

      g_ptr_array_add (pair_arrays, pairs);
      family_schema_init (&family_schemas[i], families->pdata[i], pairs);
      family_pointers[i] = &family_schemas[i];
    }
  schema.n_column_families = n;
  schema.column_families = family_pointers;
  for (guint i = 0; i < n_keys; i++)
    {
      gsize len;

      keys[i].data = (guint8 *) g_bytes_get_data (split_keys->pdata[i], &len);
      keys[i].len = len;
    }
  request.table_schema = &schema;
  request.n_split_keys = n_keys;
  request.split_keys = keys;
  request.has_nonce_group = request.has_nonce = TRUE;
  request.nonce_group = nonce_group ();
  request.nonce = random_nonzero ();
  ok = change (self, "CreateTable", &request.base, &hbase__pb__create_table_response__descriptor,
               _hbase_native_client_deadline (self), cancellable, error);
  return ok;
}

gboolean
_hbase_native_master_create_namespace (HBaseNativeClient *self, const char *name,
                                       GCancellable *cancellable, GError **error)
{
  Hbase__Pb__CreateNamespaceRequest request = HBASE__PB__CREATE_NAMESPACE_REQUEST__INIT;
  Hbase__Pb__NamespaceDescriptor descriptor = HBASE__PB__NAMESPACE_DESCRIPTOR__INIT;

  descriptor.name.data = (guint8 *) name;
  descriptor.name.len = strlen (name);
  request.namespacedescriptor = &descriptor;
  request.has_nonce_group = request.has_nonce = TRUE;
  request.nonce_group = nonce_group ();
  request.nonce = random_nonzero ();
  return change (self, "CreateNamespace", &request.base,
                 &hbase__pb__create_namespace_response__descriptor,
                 _hbase_native_client_deadline (self), cancellable, error);
}

gboolean
_hbase_native_master_delete_namespace (HBaseNativeClient *self, const char *name,
                                       GCancellable *cancellable, GError **error)
{
  Hbase__Pb__DeleteNamespaceRequest request = HBASE__PB__DELETE_NAMESPACE_REQUEST__INIT;
  GError *local = NULL;

  request.namespacename = (char *) name;
  request.has_nonce_group = request.has_nonce = TRUE;
  request.nonce_group = nonce_group ();
  request.nonce = random_nonzero ();
  if (change (self, "DeleteNamespace", &request.base, &hbase__pb__delete_namespace_response__descriptor,
              _hbase_native_client_deadline (self), cancellable, &local))
    return TRUE;
  name_not_found (local, "namespace");
  g_propagate_error (error, local);
  return FALSE;
}
