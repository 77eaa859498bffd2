/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-atomic.c: increment, append and check-and-mutate over
 * HBase's own RPC, sent as the HBase 2.6 client sends them (what the
 * Thrift2 gateway's client does for the same call):
 *
 *  - increment and append: a Mutate of a MutationProto of type INCREMENT
 *    or APPEND, one ColumnValue per cell (an increment's value is its
 *    8-byte big-endian amount), the durability, the time range of all
 *    time, and the "_rr_" attribute (return results) the gateway sets;
 *    the new cells come back in MutateResponse.result.
 *  - check-and-mutate: a Multi with one atomic RegionAction holding the
 *    mutations and a Condition (row, family, qualifier, compare type, a
 *    BinaryComparator of the value, the time range of all time); whether
 *    it passed is RegionActionResult.processed (MultiResponse.processed
 *    from older servers).
 *
 * None of them is idempotent, so none is sent again once its request may
 * have reached the server: a retry follows the client's policy only when
 * nothing was written (the region not located, the connection not made)
 * or when the server answered that it did not run it (the region is
 * elsewhere, busy or opening, its call queue full, the server stopping,
 * aborting or not yet running: _hbase_native_error_not_run()).
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "../core/hbase-error-private.h"
#include "hbase-native-atomic.h"
#include "hbase-native-mutation.h"
#include "hbase-native-connection.h"
#include "hbase-native-pb.h"
#include "Comparator.pb-c.h"
#include "HBase.pb-c.h"

void
_hbase_native_error_set_in_doubt (GError *error)
{
  char *message;

  if (error == NULL || error->domain != HBASE_ERROR || hbase_error_is_in_doubt (error))
    return;
  _hbase_error_set_in_doubt (error, TRUE);
  message = g_strdup_printf ("%s (the request had been sent: it may have been applied)",
                             error->message);
  g_free (error->message);
  error->message = message;
}

gboolean
_hbase_native_error_is_unanswered (const GError *error)
{
  /* a server's exception keeps its text; nothing else does */
  return error != NULL && (error->domain != HBASE_ERROR ||
                           hbase_error_get_server_trace (error) == NULL);
}

/* One attempt on the region's server; *@sent: whether the request was
 * written. */
typedef gboolean (*OnceCall) (HBaseNativeClient *client, const HBaseNativeRegion *region,
                              Hbase__Pb__RegionSpecifier *spec, gpointer data, gint64 deadline,
                              gboolean *sent, GCancellable *cancellable, GError **error);

/* Runs @call on the region holding @row within one deadline, retried as
 * the client's policy says, but only while the call cannot have run. */
static gboolean
once_on_region (HBaseNativeClient *self, const char *table, GBytes *row, OnceCall call,
                gpointer data, GCancellable *cancellable, GError **error)
{
  gint64 deadline = _hbase_native_client_deadline (self);

  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(HBaseNativeRegion) region = NULL;
      Hbase__Pb__RegionSpecifier spec = HBASE__PB__REGION_SPECIFIER__INIT;
      g_autoptr(GError) local = NULL;
      gboolean sent = FALSE;

      region = _hbase_native_client_locate_by (self, table, row, deadline, cancellable, &local);
      if (region != NULL)
        {
          spec.type = HBASE__PB__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
          spec.value.data = (guint8 *) g_bytes_get_data (region->name, &spec.value.len);
          if (call (self, region, &spec, data, deadline, &sent, cancellable, &local))
            return TRUE;
        }
      if (sent && !_hbase_native_error_not_run (local))
        {
          gint64 wait_us;

          if (_hbase_native_error_is_unanswered (local))
            _hbase_native_error_set_in_doubt (local);

          /* not sent again; but a region whose server failed on the wire
           * is looked up afresh by the next operation */
          if (region != NULL &&
              _hbase_native_retry_decide (local, 0, 0, g_get_monotonic_time (), 0, &wait_us) ==
                HBASE_NATIVE_RETRY_RELOCATE)
            _hbase_native_client_forget (self, table, region->name);
        }
      else if (_hbase_native_client_retry (self, table, region, attempt, deadline, cancellable,
                                           &local))
        continue;
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
}

/* ---- increment and append ------------------------------------------------- */

typedef struct
{
  GBytes                   *row;
  Hbase__Pb__MutationProto *mutation;
  GPtrArray                *cells;   /* out */
} DeltaCall;

static gboolean
delta_call (HBaseNativeClient *client, const HBaseNativeRegion *located,
            Hbase__Pb__RegionSpecifier *region, gpointer data, gint64 deadline, gboolean *sent,
            GCancellable *cancellable, GError **error)
{
  DeltaCall *d = data;
  Hbase__Pb__MutateRequest request = HBASE__PB__MUTATE_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__Result *result;
  g_autoptr(GBytes) block = NULL;
  g_autoptr(GPtrArray) cells = NULL;

  request.region = region;
  request.mutation = d->mutation;
  if (!_hbase_native_client_call_sent (client, located, "Mutate", &request.base,
                                       &hbase__pb__mutate_response__descriptor, &reply, &block,
                                       deadline, sent, cancellable, error))
    return FALSE;
  result = ((Hbase__Pb__MutateResponse *) reply)->result;
  cells = _hbase_native_pb_reply_cells (result, block, d->row, "Mutate", error);
  protobuf_c_message_free_unpacked (reply, NULL);
  if (cells == NULL)
    return FALSE;
  d->cells = g_steal_pointer (&cells);
  return TRUE;
}

GPtrArray *
_hbase_native_client_increment (HBaseNativeClient *self, const char *table, GBytes *row,
                                gboolean is_increment, GPtrArray *cells, guint durability,
                                gboolean return_results, GCancellable *cancellable,
                                GError **error)
{
  HBaseNativeMutationParts parts = { 0 };
  Hbase__Pb__TimeRange all_time = HBASE__PB__TIME_RANGE__INIT;
  Hbase__Pb__NameBytesPair rr = HBASE__PB__NAME_BYTES_PAIR__INIT;
  Hbase__Pb__NameBytesPair *attributes[1] = { &rr };
  /* Bytes.toBytes(boolean): -1 for true */
  static guint8 rr_true = 0xff, rr_false = 0;
  DeltaCall d = { row, &parts.proto, NULL };
  gboolean ok;

  if (cells == NULL || cells->len == 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "an %s needs at least one cell",
                   is_increment ? "increment" : "append");
      return NULL;
    }
  /* a put's cells, as a put would carry them; then the kind made right */
  ok = _hbase_native_mutation_fill (&parts, row, TRUE, cells, HBASE_NATIVE_LATEST_TIMESTAMP,
                                    durability, error);
  if (ok)
    {
      parts.proto.mutate_type = is_increment ? HBASE__PB__MUTATION_PROTO__MUTATION_TYPE__INCREMENT
                                             : HBASE__PB__MUTATION_PROTO__MUTATION_TYPE__APPEND;
      for (guint i = 0; i < parts.proto.n_column_value; i++)
        parts.qvs[i].has_timestamp = FALSE;
      all_time.has_from = TRUE;
      all_time.from = 0;
      all_time.has_to = TRUE;
      all_time.to = (guint64) G_MAXINT64;
      parts.proto.time_range = &all_time;
      rr.name = (char *) "_rr_";
      rr.has_value = TRUE;
      rr.value.data = return_results ? &rr_true : &rr_false;
      rr.value.len = 1;
      parts.proto.n_attribute = 1;
      parts.proto.attribute = attributes;
      ok = once_on_region (self, table, row, delta_call, &d, cancellable, error);
    }
  _hbase_native_mutation_parts_clear (&parts);
  return ok ? d.cells : NULL;
}

/* ---- check-and-mutate ----------------------------------------------------- */

typedef struct
{
  Hbase__Pb__Condition     *condition;
  HBaseNativeMutationParts *parts;
  guint                     n;
  gboolean                  processed;   /* out */
} CheckCall;

/* A server's exception in a Multi reply, as the connection makes one from
 * an ExceptionResponse. */
static void
set_pair_error (GError **error, const Hbase__Pb__NameBytesPair *pair)
{
  g_autofree char *text = pair->has_value ? g_strndup ((const char *) pair->value.data,
                                                       pair->value.len) : NULL;

  _hbase_native_set_exception_error (error, pair->name, text, FALSE);
}

static gboolean
check_call (HBaseNativeClient *client, const HBaseNativeRegion *located,
            Hbase__Pb__RegionSpecifier *region, gpointer data, gint64 deadline, gboolean *sent,
            GCancellable *cancellable, GError **error)
{
  CheckCall *c = data;
  g_autofree Hbase__Pb__Action *actions = g_new0 (Hbase__Pb__Action, c->n);
  g_autofree Hbase__Pb__Action **pointers = g_new0 (Hbase__Pb__Action *, c->n);
  Hbase__Pb__RegionAction action = HBASE__PB__REGION_ACTION__INIT;
  Hbase__Pb__RegionAction *actions_of_regions[1] = { &action };
  Hbase__Pb__MultiRequest request = HBASE__PB__MULTI_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__MultiResponse *response;
  Hbase__Pb__RegionActionResult *result;
  gboolean ok = TRUE;

  for (guint i = 0; i < c->n; i++)
    {
      hbase__pb__action__init (&actions[i]);
      actions[i].has_index = TRUE;
      actions[i].index = i;
      actions[i].mutation = &c->parts[i].proto;
      pointers[i] = &actions[i];
    }
  action.region = region;
  action.has_atomic = TRUE;
  action.atomic = TRUE;
  action.n_action = c->n;
  action.action = pointers;
  action.condition = c->condition;
  request.n_regionaction = 1;
  request.regionaction = actions_of_regions;
  if (!_hbase_native_client_call_sent (client, located, "Multi", &request.base,
                                       &hbase__pb__multi_response__descriptor, &reply, NULL,
                                       deadline, sent, cancellable, error))
    return FALSE;
  response = (Hbase__Pb__MultiResponse *) reply;
  if (response->n_regionactionresult != 1)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "malformed Multi reply: %" G_GSIZE_FORMAT " region results for 1 region",
                   response->n_regionactionresult);
      protobuf_c_message_free_unpacked (reply, NULL);
      return FALSE;
    }
  result = response->regionactionresult[0];
  if (result->exception != NULL)
    {
      set_pair_error (error, result->exception);
      ok = FALSE;
    }
  for (gsize k = 0; ok && k < result->n_resultorexception; k++)
    if (result->resultorexception[k]->exception != NULL)
      {
        set_pair_error (error, result->resultorexception[k]->exception);
        ok = FALSE;
      }
  if (ok && result->has_processed)
    c->processed = result->processed;
  else if (ok)
    {
      /* servers before RegionActionResult.processed answered here */
      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      c->processed = response->has_processed && response->processed;
      G_GNUC_END_IGNORE_DEPRECATIONS
    }
  protobuf_c_message_free_unpacked (reply, NULL);
  return ok;
}

gboolean
_hbase_native_client_check_and_mutate (HBaseNativeClient *self, const char *table, GBytes *row,
                                       GBytes *family, GBytes *qualifier, guint compare_type,
                                       GBytes *value, GPtrArray *mutations, gboolean *processed,
                                       GCancellable *cancellable, GError **error)
{
  Hbase__Pb__Condition condition = HBASE__PB__CONDITION__INIT;
  Hbase__Pb__Comparator comparator = HBASE__PB__COMPARATOR__INIT;
  Hbase__Pb__BinaryComparator binary = HBASE__PB__BINARY_COMPARATOR__INIT;
  Hbase__Pb__ByteArrayComparable comparable = HBASE__PB__BYTE_ARRAY_COMPARABLE__INIT;
  Hbase__Pb__TimeRange all_time = HBASE__PB__TIME_RANGE__INIT;
  g_autofree guint8 *serialized = NULL;
  g_autofree HBaseNativeMutationParts *parts = NULL;
  CheckCall c = { &condition, NULL, 0, FALSE };
  gboolean ok = TRUE;

  *processed = FALSE;
  if (mutations == NULL || mutations->len == 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "check-and-mutate needs a mutation");
      return FALSE;
    }
  if (compare_type > HBASE__PB__COMPARE_TYPE__NO_OP)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "unknown compare type %u", compare_type);
      return FALSE;
    }
  /* the BinaryComparator of the value (empty: "no cell"), as its Java
   * class serializes itself */
  comparable.has_value = TRUE;
  _hbase_native_pb_set_bytes (&comparable.value, value);
  binary.comparable = &comparable;
  serialized = g_malloc (MAX (hbase__pb__binary_comparator__get_packed_size (&binary), 1));
  comparator.name = (char *) "org.apache.hadoop.hbase.filter.BinaryComparator";
  comparator.has_serialized_comparator = TRUE;
  comparator.serialized_comparator.len = hbase__pb__binary_comparator__pack (&binary, serialized);
  comparator.serialized_comparator.data = serialized;
  _hbase_native_pb_set_bytes (&condition.row, row);
  condition.has_family = TRUE;
  _hbase_native_pb_set_bytes (&condition.family, family);
  condition.has_qualifier = TRUE;
  _hbase_native_pb_set_bytes (&condition.qualifier, qualifier);
  condition.has_compare_type = TRUE;
  condition.compare_type = (Hbase__Pb__CompareType) compare_type;
  condition.comparator = &comparator;
  all_time.has_from = TRUE;
  all_time.from = 0;
  all_time.has_to = TRUE;
  all_time.to = (guint64) G_MAXINT64;
  condition.time_range = &all_time;

  parts = g_new0 (HBaseNativeMutationParts, mutations->len);
  for (guint i = 0; i < mutations->len; i++)
    {
      const HBaseNativeMutation *m = mutations->pdata[i];

      c.n = i + 1;
      ok = _hbase_native_mutation_fill (&parts[i], row, m->is_put, m->cells, m->timestamp,
                                        m->durability, error);
      if (!ok)
        break;
    }
  c.parts = parts;
  if (ok)
    ok = once_on_region (self, table, row, check_call, &c, cancellable, error);
  for (guint i = 0; i < c.n; i++)
    _hbase_native_mutation_parts_clear (&parts[i]);
  if (ok)
    *processed = c.processed;
  return ok;
}
