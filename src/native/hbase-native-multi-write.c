/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-multi-write.c: many puts or deletes in few calls over
 * HBase's own RPC, as HBase's client sends a batch of them (what the
 * Thrift2 gateway does for putMultiple and deleteMultiple): the
 * mutations grouped by region and the regions by server, one Multi call
 * per server with one RegionAction (not atomic) per region, the actions in
 * the caller's order.  Results match their RegionAction by order and
 * their Action by index.  A region or a mutation the server answers with
 * a retryable exception is sent again as the client's policy says (puts
 * and deletes may be repeated), together with the later mutations of the
 * same row, so that a row's mutations end applied in the caller's order;
 * the others are kept.  Any other failure ends the batch: the mutations
 * acknowledged before it are applied, the rest may be in part.
 */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-error.h>

#include "../core/hbase-error-private.h"
#include "hbase-native-client.h"
#include "hbase-native-connection.h"
#include "hbase-native-mutation.h"
#include "hbase-native-pb.h"

/* The mutations of one region, by their place in the caller's list. */
typedef struct
{
  HBaseNativeRegion *region;
  GArray            *places;   /* guint */
} RegionItems;

static void
region_items_free (RegionItems *r)
{
  _hbase_native_region_free (r->region);
  g_array_unref (r->places);
  g_free (r);
}

static GError *
exception_error (const Hbase__Pb__NameBytesPair *pair)
{
  GError *error = NULL;
  g_autofree char *text = pair->has_value ? g_strndup ((const char *) pair->value.data,
                                                       pair->value.len) : NULL;

  _hbase_native_set_exception_error (&error, pair->name, text, FALSE);
  return error;
}

static gboolean
is_final (const GError *error)
{
  return _hbase_native_error_kind (error) == HBASE_NATIVE_EXCEPTION_FINAL ||
         _hbase_error_is_permanent (error);
}

typedef struct
{
  GPtrArray                *rows;    /* GBytes *, the caller's */
  HBaseNativeMutationParts *parts;   /* one per row */
  gboolean                 *done;    /* acknowledged */
  gboolean                  maybe_applied;   /* a call sent got no answer */
} MultiWrite;

/* One Multi call for @groups (RegionItems *, all on one server).  The
 * mutations acknowledged are marked done; a region or mutation that
 * failed with a retryable error stays pending (with the later ones of its
 * row) and leaves its error in *@retry; any other failure is returned. */
static gboolean
multi_call (HBaseNativeClient *self, const char *table, MultiWrite *m, GPtrArray *groups,
            gint64 deadline, GCancellable *cancellable, GError **retry, GError **error)
{
  guint n_regions = groups->len, n_actions = 0, a = 0;
  g_autofree Hbase__Pb__RegionAction *ras = g_new0 (Hbase__Pb__RegionAction, n_regions);
  g_autofree Hbase__Pb__RegionAction **ra_pointers = g_new0 (Hbase__Pb__RegionAction *, n_regions);
  g_autofree Hbase__Pb__RegionSpecifier *specs = g_new0 (Hbase__Pb__RegionSpecifier, n_regions);
  g_autofree Hbase__Pb__Action *actions = NULL;
  g_autofree Hbase__Pb__Action **action_pointers = NULL;
  g_autoptr(GArray) failed = g_array_new (FALSE, FALSE, sizeof (guint));
  Hbase__Pb__MultiRequest request = HBASE__PB__MULTI_REQUEST__INIT;
  ProtobufCMessage *reply = NULL;
  Hbase__Pb__MultiResponse *response;
  gboolean ok = TRUE, sent = FALSE;

  for (guint i = 0; i < n_regions; i++)
    n_actions += ((RegionItems *) groups->pdata[i])->places->len;
  actions = g_new0 (Hbase__Pb__Action, n_actions);
  action_pointers = g_new0 (Hbase__Pb__Action *, n_actions);
  for (guint i = 0; i < n_regions; i++)
    {
      RegionItems *group = groups->pdata[i];

      hbase__pb__region_action__init (&ras[i]);
      hbase__pb__region_specifier__init (&specs[i]);
      specs[i].type = HBASE__PB__REGION_SPECIFIER__REGION_SPECIFIER_TYPE__REGION_NAME;
      _hbase_native_pb_set_bytes (&specs[i].value, group->region->name);
      ras[i].region = &specs[i];
      ras[i].n_action = group->places->len;
      ras[i].action = &action_pointers[a];
      for (guint j = 0; j < group->places->len; j++, a++)
        {
          guint place = g_array_index (group->places, guint, j);

          hbase__pb__action__init (&actions[a]);
          actions[a].has_index = TRUE;
          actions[a].index = j;
          actions[a].mutation = &m->parts[place].proto;
          action_pointers[a] = &actions[a];
        }
      ra_pointers[i] = &ras[i];
    }
  request.n_regionaction = n_regions;
  request.regionaction = ra_pointers;
  if (!_hbase_native_client_call_sent (self, ((RegionItems *) groups->pdata[0])->region, "Multi",
                                       &request.base, &hbase__pb__multi_response__descriptor,
                                       &reply, NULL, deadline, &sent, cancellable, error))
    {
      if (sent && _hbase_native_error_is_unanswered (*error))
        m->maybe_applied = TRUE;
      return FALSE;
    }
  response = (Hbase__Pb__MultiResponse *) reply;
  if (response->n_regionactionresult != n_regions)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "malformed Multi reply: %" G_GSIZE_FORMAT " region results for %u regions",
                   response->n_regionactionresult, n_regions);
      protobuf_c_message_free_unpacked (reply, NULL);
      return FALSE;
    }
  for (guint i = 0; i < n_regions && ok; i++)
    {
      const Hbase__Pb__RegionActionResult *rar = response->regionactionresult[i];
      RegionItems *group = groups->pdata[i];

      if (rar->exception != NULL)
        {
          GError *region_error = exception_error (rar->exception);

          if (is_final (region_error))
            {
              g_propagate_error (error, region_error);
              ok = FALSE;
              break;
            }
          if (_hbase_native_error_kind (region_error) == HBASE_NATIVE_EXCEPTION_RELOCATE)
            _hbase_native_client_forget (self, table, group->region->name);
          g_clear_error (retry);
          *retry = region_error;
          continue;
        }
      for (gsize k = 0; k < rar->n_resultorexception && ok; k++)
        {
          const Hbase__Pb__ResultOrException *roe = rar->resultorexception[k];
          guint place;

          if (!roe->has_index || roe->index >= group->places->len)
            {
              g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                           "malformed Multi reply: a result of no action sent");
              ok = FALSE;
              break;
            }
          place = g_array_index (group->places, guint, roe->index);
          if (roe->exception != NULL)
            {
              GError *row_error = exception_error (roe->exception);

              if (is_final (row_error))
                {
                  g_propagate_error (error, row_error);
                  ok = FALSE;
                  break;
                }
              if (_hbase_native_error_kind (row_error) == HBASE_NATIVE_EXCEPTION_RELOCATE)
                _hbase_native_client_forget (self, table, group->region->name);
              g_clear_error (retry);
              *retry = row_error;
              g_array_append_val (failed, place);
              continue;
            }
          m->done[place] = TRUE;
        }
    }
  protobuf_c_message_free_unpacked (reply, NULL);
  /* a failed mutation is sent again with the later ones of its row, so
   * that the row ends as the caller's order leaves it */
  for (guint f = 0; f < failed->len; f++)
    {
      guint place = g_array_index (failed, guint, f);

      for (guint q = place + 1; q < m->rows->len; q++)
        if (g_bytes_equal (m->rows->pdata[q], m->rows->pdata[place]))
          m->done[q] = FALSE;
    }
  return ok;
}

/* Sends the pending mutations until all are done (TRUE) or one fails
 * for good. */
static gboolean
send_all (HBaseNativeClient *self, const char *table, MultiWrite *m, GCancellable *cancellable,
          GError **error)
{
  gint64 deadline = _hbase_native_client_deadline (self);

  for (guint attempt = 0;; attempt++)
    {
      g_autoptr(GHashTable) servers = NULL;
      g_autoptr(GPtrArray) order = g_ptr_array_new ();
      g_autoptr(GError) local = NULL;
      g_autoptr(HBaseNativeRegion) failed_region = NULL;
      gboolean complete = TRUE;
      RegionItems *last = NULL;   /* the group of the row before */

      servers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_ptr_array_unref);
      /* the pending mutations, by region, by server (servers in the order
       * their first mutation comes) */
      for (guint i = 0; i < m->rows->len && local == NULL; i++)
        {
          HBaseNativeRegion *region;
          g_autofree char *key = NULL;
          GPtrArray *list;
          RegionItems *group = NULL;

          if (m->done[i])
            continue;
          region = _hbase_native_client_locate_by (self, table, m->rows->pdata[i], deadline,
                                                   cancellable, &local);
          if (region == NULL)
            break;
          /* the region of the row before (the cache lends the same one):
           * its group, without a lookup */
          if (last != NULL && last->region == region)
            {
              _hbase_native_region_free (region);
              g_array_append_val (last->places, i);
              continue;
            }
          key = g_strdup_printf ("%s:%u", region->host, region->port);
          list = g_hash_table_lookup (servers, key);
          if (list == NULL)
            {
              list = g_ptr_array_new_with_free_func ((GDestroyNotify) region_items_free);
              g_ptr_array_add (order, list);
              g_hash_table_insert (servers, g_steal_pointer (&key), list);
            }
          for (guint g = 0; g < list->len && group == NULL; g++)
            if (g_bytes_equal (((RegionItems *) list->pdata[g])->region->name, region->name))
              group = list->pdata[g];
          if (group == NULL)
            {
              group = g_new0 (RegionItems, 1);
              group->region = region;
              group->places = g_array_new (FALSE, FALSE, sizeof (guint));
              g_ptr_array_add (list, group);
            }
          else
            _hbase_native_region_free (region);
          g_array_append_val (group->places, i);
          last = group;
        }
      for (guint s = 0; s < order->len && local == NULL; s++)
        {
          GPtrArray *groups = order->pdata[s];
          GError *retry = NULL;

          if (!multi_call (self, table, m, groups, deadline, cancellable, &retry, &local))
            {
              /* the whole call failed: its regions may be elsewhere */
              g_clear_error (&retry);
              failed_region = _hbase_native_region_ref (((RegionItems *) groups->pdata[0])->region);
              break;
            }
          if (retry != NULL)
            local = retry;
        }
      if (local == NULL)
        {
          for (guint i = 0; i < m->rows->len; i++)
            complete &= m->done[i];
          if (complete)
            return TRUE;
          g_set_error (&local, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                       "malformed Multi reply: a mutation had no result");
        }
      g_clear_pointer (&servers, g_hash_table_unref);
      if (_hbase_native_client_retry (self, table, failed_region, attempt, deadline, cancellable,
                                      &local))
        continue;
      /* applied in part, or maybe: as the Thrift2 path says of a batch */
      for (guint i = 0; i < m->rows->len && !m->maybe_applied; i++)
        m->maybe_applied = m->done[i];
      if (m->maybe_applied)
        _hbase_native_error_set_in_doubt (local);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
}

gboolean
_hbase_native_client_mutate_multi (HBaseNativeClient *self, const char *table, GPtrArray *rows,
                                   GPtrArray *mutations, GCancellable *cancellable,
                                   GError **error)
{
  guint n = rows->len;
  g_autofree HBaseNativeMutationParts *parts = g_new0 (HBaseNativeMutationParts, MAX (n, 1));
  g_autofree gboolean *done = g_new0 (gboolean, MAX (n, 1));
  MultiWrite m = { rows, parts, done, FALSE };
  gboolean ok = TRUE;
  guint filled = 0;

  g_return_val_if_fail (mutations->len == n, FALSE);
  for (; filled < n && ok; filled++)
    {
      const HBaseNativeMutation *mu = mutations->pdata[filled];

      ok = _hbase_native_mutation_fill (&parts[filled], rows->pdata[filled], mu->is_put, mu->cells,
                                        mu->timestamp, mu->durability, error);
    }
  if (ok && n > 0)
    ok = send_all (self, table, &m, cancellable, error);
  for (guint i = 0; i < filled; i++)
    _hbase_native_mutation_parts_clear (&parts[i]);
  return ok;
}
