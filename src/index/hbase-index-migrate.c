/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-migrate.c: moving an index kept in the former key layout
 * ("prefix:table", where the key space of table "t" held that of every
 * table of namespace "t", and "NAME" and "default:NAME" had one each) to
 * the current one ("prefix:LEN=NAME", see hbase-index-encoding.c), in one
 * atomic step in Redis.  docs/index-consistency.md ("Key layout") tells
 * when to run it. */
#include "config.h"

#include <string.h>

#include "hbase-index-private.h"
#include "hbase-index-reply-private.h"

/* ARGV: the new base; the old bases to try, in order (a count, then
 * each); the names of the exact indexes (a count, then each); the names
 * of the range indexes (likewise); the version of the definitions; for
 * every old base, the base of the table whose key space held it in the
 * former layout ("" for none) and the name it has there.
 *
 * Returns { outcome, keys moved, detail }: "moved" (detail: the old base),
 * "none" (no old index with a state), "current" (the new layout already
 * holds the index: migrated or built since), "in-use" (the new layout
 * holds keys but no state: upgraded clients wrote there first), or
 * "ambiguous" (detail: the old base of another table whose keys may be
 * mixed with these).  Everything happens in this one script, so writers
 * and other migrations see the keys all moved or none. */
static const char migrate_script[] =
  "local new = ARGV[1]\n"
  "local ai = 2\n"
  "local function arg() local v = ARGV[ai]; ai = ai + 1; return v end\n"
  "local function list() local t = {}; for k = 1, tonumber(arg()) do t[k] = arg() end; return t end\n"
  "local olds, xs, zs = list(), list(), list()\n"
  "local version = arg()\n"
  "local parents, names = {}, {}\n"
  "for k = 1, #olds do parents[k] = arg(); names[k] = arg() end\n"
  "local function glob(s) return (string.gsub(s, '[%*%?%[%]\\\\]', '\\\\%0')) end\n"
  "local function exists(k) return redis.call('EXISTS', k) == 1 end\n"
  "local fixed = {'state', 'seq', 'r', 'f'}\n"
  "if exists(new .. ':state') then return {'current', 0, ''} end\n"
  "for _, s in ipairs(fixed) do\n"
  "  if exists(new .. ':' .. s) then return {'in-use', 0, ''} end\n"
  "end\n"
  "local old, parent, name\n"
  "for k = 1, #olds do\n"
  "  local v = redis.call('HGET', olds[k] .. ':state', 'version')\n"
  "  if v and (old == nil or v == version) then old, parent, name = olds[k], parents[k], names[k] end\n"
  "  if v == version then break end\n"
  "end\n"
  "if old == nil then return {'none', 0, ''} end\n"
  "local is_fixed = {state = true, seq = true, r = true, f = true}\n"
  "-- a table of namespace NAME indexed too: its keys were under this base\n"
  "if #xs > 0 and exists(old .. ':x:state') then return {'ambiguous', 0, old .. ':x'} end\n"
  "for _, z in ipairs(zs) do\n"
  "  if is_fixed[z] and exists(old .. ':z:state') then return {'ambiguous', 0, old .. ':z'} end\n"
  "end\n"
  "-- this table's keys were under those of the default table named as its namespace\n"
  "if parent ~= '' and (name == 'x' or name == 'z') and exists(parent .. ':state') then\n"
  "  return {'ambiguous', 0, parent}\n"
  "end\n"
  "local n = 0\n"
  "local function move(k)\n"
  "  redis.call('RENAME', k, new .. string.sub(k, #old + 1)); n = n + 1\n"
  "end\n"
  "local function move_matching(pattern, accept)\n"
  "  local cursor = '0'\n"
  "  repeat\n"
  "    local res = redis.call('SCAN', cursor, 'MATCH', pattern, 'COUNT', 1000)\n"
  "    cursor = res[1]\n"
  "    for _, k in ipairs(res[2]) do if accept(k) then move(k) end end\n"
  "  until cursor == '0'\n"
  "end\n"
  "for _, s in ipairs(fixed) do if exists(old .. ':' .. s) then move(old .. ':' .. s) end end\n"
  "for _, z in ipairs(zs) do if exists(old .. ':z:' .. z) then move(old .. ':z:' .. z) end end\n"
  "for _, x in ipairs(xs) do\n"
  "  move_matching(glob(old .. ':x:' .. x .. ':') .. '*', function () return true end)\n"
  "end\n"
  "-- write outcomes: tokens are 8 hex digits, a process id, '.', a counter\n"
  "local tlen = #old + 4\n"
  "move_matching(glob(old .. ':t:') .. '*', function (k)\n"
  "  return string.find(string.sub(k, tlen), '^%x%x%x%x%x%x%x%x%d+%.%-?%d+$') ~= nil\n"
  "end)\n"
  "return {'moved', n, old}\n";

/* The spellings the former layout may hold the index under: as given,
 * and the other of "NAME" and "default:NAME". */
static GPtrArray *
old_names (const char *table)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *normalized = _hbase_index_table_normalize (table);
  g_autofree char *legacy = _hbase_index_meta_legacy_row (table);

  g_ptr_array_add (names, g_strdup (table));
  if (strcmp (normalized, table) != 0)
    g_ptr_array_add (names, g_steal_pointer (&normalized));
  else if (legacy != NULL)
    g_ptr_array_add (names, g_steal_pointer (&legacy));
  return names;
}

static void
batch_names (RedisBatch *batch, const HBaseIndexSpec *spec, HBaseIndexFlags flag)
{
  guint n = 0;

  for (guint i = 0; i < spec->columns->len; i++)
    if (((const IndexColumn *) g_ptr_array_index (spec->columns, i))->flags & flag)
      n++;
  _hbase_index_batch_uint (batch, n);
  for (guint i = 0; i < spec->columns->len; i++)
    {
      const IndexColumn *column = g_ptr_array_index (spec->columns, i);

      if (column->flags & flag)
        _hbase_index_batch_str (batch, column->name);
    }
}

/**
 * hbase_index_migrate:
 * @index: an index
 * @moved: (out) (optional): how many Redis keys were moved
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Moves the index of @index's table from the former Redis key layout
 * ("prefix:TABLE", where the keys of table "t" enclosed
 * those of every table of namespace "t", and "NAME" and "default:NAME"
 * had an index each) to the current one ("prefix:LEN=NAME"), renaming its
 * keys in one atomic step: queries answer from the moved index at once,
 * without a rebuild.  Run it once per indexed table after upgrading,
 * before writing through upgraded clients, with no client of the former
 * version writing any more (what it writes afterwards goes to the former
 * keys and is lost to the index).  When both spellings of a table of the
 * default namespace have an index, the one built with the current
 * definitions is moved.
 *
 * Nothing is moved, successfully, when the current layout already holds
 * the index (migrated or rebuilt since) or the former layout holds none.
 * It fails with %HBASE_INDEX_ERROR_REDIS and nothing moved when the keys
 * cannot be told apart from another table's (a table "t" with an exact
 * index and an indexed table "t:x"; rebuild both instead), or when
 * upgraded clients wrote to the current layout first (rebuild instead).
 *
 * Returns: %TRUE on success
 *
 * Since: 0.2
 */
gboolean
hbase_index_migrate (HBaseIndex *index, guint64 *moved, GCancellable *cancellable,
                     GError **error)
{
  IndexCore *core;
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(redisReply) reply = NULL;
  g_autoptr(GPtrArray) names = NULL;
  const char *outcome = NULL;
  const char *detail = NULL;
  long long count = 0;

  g_return_val_if_fail (_hbase_index_is_opened (index), FALSE);
  core = index->core;
  if (moved != NULL)
    *moved = 0;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  names = old_names (core->table_name);
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "EVAL");
  _hbase_index_batch_str (batch, migrate_script);
  _hbase_index_batch_str (batch, "0");
  _hbase_index_batch_str (batch, core->base);
  _hbase_index_batch_uint (batch, names->len);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *old = _hbase_index_legacy_key_base (core->spec, g_ptr_array_index (names, i));

      _hbase_index_batch_str (batch, old);
    }
  batch_names (batch, core->spec, HBASE_INDEX_EXACT);
  batch_names (batch, core->spec, HBASE_INDEX_RANGE);
  _hbase_index_batch_str (batch, core->version);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      const char *colon = strchr (name, ':');
      g_autofree char *parent_name = colon != NULL ? g_strndup (name, (gsize) (colon - name)) : NULL;
      /* with hash tags, "{t}" never enclosed "{t:x}" */
      g_autofree char *parent = parent_name != NULL && !core->spec->hash_tag
                                ? _hbase_index_legacy_key_base (core->spec, parent_name) : NULL;

      _hbase_index_batch_str (batch, parent != NULL ? parent : "");
      _hbase_index_batch_str (batch, colon != NULL ? colon + 1 : name);
    }
  reply = _hbase_index_redis_command (core->pool, batch, error);
  if (reply == NULL)
    {
      g_prefix_error (error, "migrate the index of %s: ", core->table_name);
      return FALSE;
    }
  if (!_hbase_index_reply_array (reply, "the migration script", 3, 3,
                                 REPLY_STRING | REPLY_STATUS | REPLY_INTEGER, error) ||
      !_hbase_index_reply_string (reply->element[0], "the migration script", FALSE, TRUE, &outcome,
                                  NULL, error) ||
      !_hbase_index_reply_integer (reply->element[1], "the migration script", &count, error) ||
      !_hbase_index_reply_string (reply->element[2], "the migration script", FALSE, TRUE, &detail,
                                  NULL, error))
    {
      g_prefix_error (error, "migrate the index of %s: ", core->table_name);
      return FALSE;
    }
  if (strcmp (outcome, "ambiguous") == 0)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "migrate the index of %s: its keys in the former layout cannot be told apart "
                   "from those under %s (another indexed table's); nothing moved: rebuild the "
                   "index instead (hbase_index_rebuild(), `hbase-glib index-rebuild`)",
                   core->table_name, detail);
      return FALSE;
    }
  if (strcmp (outcome, "in-use") == 0)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "migrate the index of %s: the current key layout already holds entries "
                   "written since the upgrade; nothing moved: rebuild the index instead "
                   "(hbase_index_rebuild(), `hbase-glib index-rebuild`)", core->table_name);
      return FALSE;
    }
  if (moved != NULL && strcmp (outcome, "moved") == 0 && count > 0)
    *moved = (guint64) count;
  return TRUE;
}
