-- SPDX-License-Identifier: Apache-2.0
-- hbase-index.lua: the Redis side of the hbase-glib index (src/index).
--
-- One script, dispatched on ARGV[1]: "before" (a write is about to be
-- sent to HBase), "after" (it ended), "snapshot" and "repair" (rows read
-- from HBase correct their entries) and "clear".  Every change of a row's entries and of its
-- record happens here, atomically.  docs/index-consistency.md explains
-- the protocol; in short, a row's record holds:
--
--   E  the entries the row has in the index (sets and sorted sets)
--   C  the entries of values the row may have in HBase now (candidates);
--      stored only while changes are pending, else C = E
--   F  indexes whose value must be read again from HBase
--   P  changes in flight (pending): token, deadline, contended flag, an
--      outcome ('U' for in doubt, else none: looked up by token), and per
--      index the values written and flags (k: an older value may survive,
--      u: the value is only known after the write, r: it was learned)
--
-- Invariants: the sets and sorted sets hold exactly the entries in E of
-- every record; E contains C and every pending value; the value of the
-- row in HBase is in C, pending, or the row is in the fix set.
--
-- An entry is a self-delimiting blob the client packs once:
--   struct '>I1c0BI4c0I4c0I1c0': name, parts (1 set, 2 sorted set),
--   canonical value, sort key, score
-- so entries are compared as strings.  Ops are packed as
--   '>I1' count, then per op '>I1c0I1c0I2' name, flags, count, entries
-- and stored as they came.  A record is
--   '>BdI2' 'R', seq, #E, E entries; '>I2' #C (65535: none), C entries;
--   '>I1' #F, '>I1c0' names; '>I2' #P, per change '>I1c0dBI1c0I4c0'
--   token, deadline, contended, outcome, ops.
-- The client builds the same record for rows the index has no record of
-- (_hbase_index_fresh_record() in hbase-index-changes.c): keep both in step.
--
-- KEYS: state hash, seq counter, records hash, fix sorted set.
-- ARGV[2]: the key base; entry keys are base:x:NAME:VALUE (sets) and
-- base:z:NAME (sorted sets), write outcomes base:t:TOKEN.

local op = ARGV[1]
local base = ARGV[2]
local K_STATE, K_SEQ, K_REC, K_FIX = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local pack, unpack_s = struct.pack, struct.unpack
local F_ENTRY = '>I1c0BI4c0I4c0I1c0'

local ai = 3
local function arg() local v = ARGV[ai]; ai = ai + 1; return v end

local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

local function hasflag(flags, c) return string.find(flags, c, 1, true) ~= nil end

-- entries -----------------------------------------------------------------

local info = {}
local function entry(b)
  local e = info[b]
  if not e then
    local n, parts, v, k, s = unpack_s(F_ENTRY, b, 1)
    e = {n = n, k = k, s = s}
    if parts % 2 == 1 then e.xkey = base .. ':x:' .. n .. ':' .. v end
    if parts >= 2 then e.zkey = base .. ':z:' .. n end
    info[b] = e
  end
  return e
end

local function read_blobs(s, pos, n)
  local list = {}
  for i = 1, n do
    local nxt = select(6, unpack_s(F_ENTRY, s, pos))
    list[i] = string.sub(s, pos, nxt - 1)
    pos = nxt
  end
  return list, pos
end

-- a count then entries, as the client sends lists
local function read_list(s)
  local n, pos = unpack_s('>I2', s, 1)
  return (read_blobs(s, pos, n))
end

local function has(list, b)
  for i = 1, #list do if list[i] == b then return true end end
  return false
end

local function copy(list)
  local out = {}
  for i = 1, #list do out[i] = list[i] end
  return out
end

-- Redis changes, collected and sent at the end (removals first)
local sadd, srem, zadd, zrem = {}, {}, {}, {}

local function push(t, key, a, b)
  local l = t[key]
  if not l then l = {}; t[key] = l end
  l[#l + 1] = a
  if b then l[#l + 1] = b end
end

local function add_entry(b, rk)
  local e = entry(b)
  if e.xkey then push(sadd, e.xkey, rk) end
  if e.zkey then push(zadd, e.zkey, e.s, e.k .. rk) end
end

local function del_entry(b, rk)
  local e = entry(b)
  if e.xkey then push(srem, e.xkey, rk) end
  if e.zkey then push(zrem, e.zkey, e.k .. rk) end
end

local function flush_one(cmd, t, step)
  for key, l in pairs(t) do
    for i = 1, #l, step do
      redis.call(cmd, key, unpack(l, i, math.min(i + step - 1, #l)))
    end
  end
end

local function flush()
  flush_one('SREM', srem, 4000)
  flush_one('ZREM', zrem, 4000)
  flush_one('SADD', sadd, 4000)
  flush_one('ZADD', zadd, 4000)
end

-- ops ------------------------------------------------------------------------

local function parse_ops(s)
  local ops = {}
  local nops, pos = unpack_s('>I1', s, 1)
  for j = 1, nops do
    local o, nv = {}, nil
    o.n, o.f, nv, pos = unpack_s('>I1c0I1c0I2', s, pos)
    o.vals, pos = read_blobs(s, pos, nv)
    ops[j] = o
  end
  return ops
end

local function encode_ops(ops)
  local out = {pack('>I1', #ops)}
  for _, o in ipairs(ops) do
    out[#out + 1] = pack('>I1c0I1c0I2', #o.n, o.n, #o.f, o.f, #o.vals)
    for _, b in ipairs(o.vals) do out[#out + 1] = b end
  end
  return table.concat(out)
end

local function ops_of(p)
  if not p.ops then p.ops = parse_ops(p.raw) end
  return p.ops
end

-- records ------------------------------------------------------------------

local function encode(r)
  local out = {pack('>BdI2', 82, r.s, #r.E)}
  for _, b in ipairs(r.E) do out[#out + 1] = b end
  if r.C then
    out[#out + 1] = pack('>I2', #r.C)
    for _, b in ipairs(r.C) do out[#out + 1] = b end
  else
    out[#out + 1] = '\255\255'
  end
  local fix = {}
  for name in pairs(r.F) do fix[#fix + 1] = name end
  table.sort(fix)
  out[#out + 1] = pack('>I1', #fix)
  for _, name in ipairs(fix) do out[#out + 1] = pack('>I1c0', #name, name) end
  out[#out + 1] = pack('>I2', #r.P)
  for _, p in ipairs(r.P) do
    local raw = p.raw or encode_ops(p.ops)
    local o = p.o or ''
    out[#out + 1] = pack('>I1c0dBI1c0I4c0', #p.t, p.t, p.d, p.c and 1 or 0, #o, o, #raw, raw)
  end
  return table.concat(out)
end

local function decode(s)
  if not s then return nil end
  local r = {F = {}, P = {}}
  local _, seq, ne, pos = unpack_s('>BdI2', s, 1)
  local n
  r.s = seq
  r.E, pos = read_blobs(s, pos, ne)
  n, pos = unpack_s('>I2', s, pos)
  if n ~= 65535 then r.C, pos = read_blobs(s, pos, n) end
  n, pos = unpack_s('>I1', s, pos)
  for i = 1, n do
    local name
    name, pos = unpack_s('>I1c0', s, pos)
    r.F[name] = true
  end
  n, pos = unpack_s('>I2', s, pos)
  for i = 1, n do
    local p, c, o = {}, nil, nil
    p.t, p.d, c, o, p.raw, pos = unpack_s('>I1c0dBI1c0I4c0', s, pos)
    p.c = (c == 1)
    if o ~= '' then p.o = o end
    r.P[i] = p
  end
  return r
end

local function new_record() return {s = 0, E = {}, P = {}, F = {}} end

local function hmget(rows)
  local out = {}
  for i = 1, #rows, 1000 do
    local ks = {}
    for j = i, math.min(i + 999, #rows) do ks[#ks + 1] = rows[j].rk end
    local got = redis.call('HMGET', K_REC, unpack(ks))
    for j = 1, #got do out[i + j - 1] = got[j] end
  end
  return out
end

local function hset(list)
  for i = 1, #list, 2000 do
    redis.call('HSET', K_REC, unpack(list, i, math.min(i + 1999, #list)))
  end
end

-- candidates and pending changes --------------------------------------------

local function ensure_c(r) if not r.C then r.C = copy(r.E) end end

-- C[name] := vals
local function set_cands(r, name, vals)
  local keep = {}
  for _, b in ipairs(r.C) do if entry(b).n ~= name then keep[#keep + 1] = b end end
  for _, b in ipairs(vals) do if not has(keep, b) then keep[#keep + 1] = b end end
  r.C = keep
end

local function add_cands(r, vals)
  for _, b in ipairs(vals) do if not has(r.C, b) then r.C[#r.C + 1] = b end end
end

-- the change p was applied (p.c: other writes overlapped it); an op whose
-- value was learned after the write (flag r) has it in o.res
local function commit(r, p)
  for _, o in ipairs(ops_of(p)) do
    local res = o.res or {}
    if hasflag(o.f, 'u') and not hasflag(o.f, 'r') then
      add_cands(r, o.vals)
      r.F[o.n] = true
    elseif not p.c and not hasflag(o.f, 'k') then
      set_cands(r, o.n, hasflag(o.f, 'r') and res or o.vals)
      r.F[o.n] = nil
    else
      add_cands(r, o.vals)
      add_cands(r, res)
    end
  end
end

-- a change whose outcome will never be known: keep all its values
local function fold(r, p)
  for _, o in ipairs(ops_of(p)) do
    add_cands(r, o.vals)
    if hasflag(o.f, 'u') and not hasflag(o.f, 'r') then r.F[o.n] = true end
  end
end

-- removes the entries no candidate and no pending change needs
local function prune(r, rk)
  local live = {}
  for _, b in ipairs(r.C or r.E) do live[b] = true end
  for _, p in ipairs(r.P) do
    for _, o in ipairs(ops_of(p)) do
      for _, b in ipairs(o.vals) do live[b] = true end
    end
  end
  local keep = {}
  for _, b in ipairs(r.E) do
    if live[b] then keep[#keep + 1] = b else del_entry(b, rk) end
  end
  r.E = keep
  if #r.P == 0 and r.C then
    for _, b in ipairs(r.C) do
      if not has(r.E, b) then r.E[#r.E + 1] = b; add_entry(b, rk) end
    end
    r.C = nil
  end
end

local outcomes = {}
local function outcome_of(p)
  if p.o then return p.o end
  local o = outcomes[p.t]
  if o == nil then
    o = redis.call('GET', base .. ':t:' .. p.t)
    outcomes[p.t] = o
  end
  return o or nil
end

-- settles the changes whose writers ended (their outcome is known) or
-- whose lease is over (all of them when abandon)
local function resolve(r, rk, now, abandon)
  if #r.P == 0 then return end
  ensure_c(r)
  local keep = {}
  for _, p in ipairs(r.P) do
    local o = outcome_of(p)
    if o == 'A' then commit(r, p)
    elseif o == 'N' then -- nothing was written
    elseif abandon or now > p.d then fold(r, p)
    else keep[#keep + 1] = p end
  end
  r.P = keep
  prune(r, rk)
end

local fixes = {}
local function update_fix(r, rk, now)
  local unknown = false
  for _, p in ipairs(r.P) do
    for _, o in ipairs(ops_of(p)) do
      if hasflag(o.f, 'u') and not hasflag(o.f, 'r') then unknown = true end
    end
  end
  if next(r.F) ~= nil then
    redis.call('ZADD', K_FIX, 'LT', now, rk)
  elseif not unknown then
    fixes[#fixes + 1] = rk
  end
end

local function flush_fixes()
  for i = 1, #fixes, 4000 do
    redis.call('ZREM', K_FIX, unpack(fixes, i, math.min(i + 3999, #fixes)))
  end
end

-- before ---------------------------------------------------------------------
-- ARGV: token, lease ms, definitions version, n, then per row: rk, 'u' if
-- a value is known only after the write (else ''), the values written
-- ('>I2' count, entries), ops; then the entries of all the values written,
-- grouped by the client: the number of sets, per set its key, the number
-- of members and the members (row keys); the number of sorted sets, per
-- sorted set its key, the number of arguments and score, member pairs.
-- Returns {gen, "0"/"1" per row: the row needs work in "after"}.

if op == 'before' then
  local token, lease, version, n = arg(), tonumber(arg()), arg(), tonumber(arg())
  local st = redis.call('HMGET', K_STATE, 'version', 'gen')
  if st[1] and st[1] ~= version then
    return redis.error_reply('HBIDX_CHANGED the index definitions changed since this client opened the index')
  end
  local now = now_ms()
  local deadline = now + lease
  local seq0 = redis.call('INCRBY', K_SEQ, n) - n
  local first = ai
  local rows = {}
  for i = 1, n do rows[i] = ARGV[first + 4 * (i - 1)] end
  local recs = {}
  for i = 1, n, 1000 do
    local got = redis.call('HMGET', K_REC, unpack(rows, i, math.min(i + 999, n)))
    for j = 1, #got do recs[i + j - 1] = got[j] end
  end
  local out, eager = {}, {}
  -- what follows E in the record of a row seen for the first time: no
  -- candidates, nothing to read again, this change pending
  local fresh_tail = '\255\255\0' .. pack('>I2I1c0dBI1c0', 1, #token, token, deadline, 0, 0, '')
  local nout = 0
  for i = 1, n do
    local at = first + 4 * (i - 1)
    local rk, u, list, raw = ARGV[at], ARGV[at + 1], ARGV[at + 2], ARGV[at + 3]
    if not recs[i] then
      -- a row without record (an insert): its entries are the values
      -- written (added below, as the client grouped them)
      if u ~= '' then redis.call('ZADD', K_FIX, 'LT', deadline, rk) end
      out[nout + 1] = rk
      out[nout + 2] = pack('>Bd', 82, seq0 + i) .. list .. fresh_tail .. pack('>I4', #raw) .. raw
      nout = nout + 2
      eager[i] = u ~= '' and '1' or '0'
    else
      local row = {rk = rk, raw = raw}
      local ops = parse_ops(row.raw)
      local r = decode(recs[i])
      local needs_after, unknown = false, false
      resolve(r, rk, now, false)
      local contended = #r.P > 0
      ensure_c(r)
      if contended then
        for _, p in ipairs(r.P) do p.c = true end
        needs_after = true
      end
      for _, o in ipairs(ops) do
        -- an entry of this index not written again goes stale if this applies
        if not hasflag(o.f, 'k') then
          for _, b in ipairs(r.E) do
            if entry(b).n == o.n and not has(o.vals, b) then needs_after = true end
          end
        end
        for _, b in ipairs(o.vals) do
          if not has(r.E, b) then r.E[#r.E + 1] = b end   -- added below
        end
        if hasflag(o.f, 'u') then unknown = true end
      end
      if unknown then
        needs_after = true
        redis.call('ZADD', K_FIX, 'LT', deadline, rk)
      end
      r.s = seq0 + i
      r.P[#r.P + 1] = {t = token, d = deadline, c = contended, raw = row.raw, ops = ops}
      out[nout + 1] = rk
      out[nout + 2] = encode(r)
      nout = nout + 2
      eager[i] = needs_after and '1' or '0'
    end
  end
  -- removals of settled changes first, then every value written
  flush_one('SREM', srem, 4000)
  flush_one('ZREM', zrem, 4000)
  srem, zrem = {}, {}
  ai = first + 4 * n
  for _, cmd in ipairs({'SADD', 'ZADD'}) do
    for _ = 1, tonumber(arg()) do
      local key, count = arg(), tonumber(arg())
      local from = ai
      for i = from, from + count - 1, 4000 do
        redis.call(cmd, key, unpack(ARGV, i, math.min(i + 3999, from + count - 1)))
      end
      ai = from + count
    end
  end
  flush()
  hset(out)
  return {st[2] or '0', table.concat(eager)}
end

-- after ------------------------------------------------------------------------
-- ARGV: token, lease ms, TTL of the outcome ms, gen seen by before, the
-- outcome of the rows not listed ('' when every row is listed), all rows
-- listed ('1'/'0'), n, then per row: rk, outcome, ops, learned values
-- (per op: '>I2' count, entries).
-- Returns 'GEN' when the index was cleared since "before" and not every
-- row was listed (call again with all of them), else 'OK'.

if op == 'after' then
  local token, lease, ttl, gen_seen, default = arg(), tonumber(arg()), tonumber(arg()), arg(), arg()
  local all_rows, n = arg() == '1', tonumber(arg())
  local gen = redis.call('HGET', K_STATE, 'gen') or '0'
  if gen ~= gen_seen and not all_rows then return 'GEN' end
  if default ~= '' then redis.call('SET', base .. ':t:' .. token, default, 'PX', ttl) end
  local now = now_ms()
  local rows = {}
  for i = 1, n do
    local row = {rk = arg(), out = arg()}
    row.ops = parse_ops(arg())
    local learned, pos = arg(), 1
    for _, o in ipairs(row.ops) do
      local nr
      nr, pos = unpack_s('>I2', learned, pos)
      o.res, pos = read_blobs(learned, pos, nr)
    end
    rows[i] = row
  end
  local recs = hmget(rows)
  local out = {}
  for i, row in ipairs(rows) do
    local rk = row.rk
    local r = decode(recs[i]) or new_record()
    local me
    for k, p in ipairs(r.P) do
      if p.t == token then me = p; table.remove(r.P, k); break end
    end
    resolve(r, rk, now, false)
    ensure_c(r)
    if not me then
      -- the record lost this change (a clear; or it was taken as
      -- abandoned): while it was missing the row looked quiet, so a
      -- snapshot taken then may precede a read from before this write
      -- landed (a new seq makes its repair only add), and a change
      -- started then, still pending, did not see this one overlap it
      -- (it is contended; those settled above landed before or are
      -- followed by this change's values, added below)
      r.s = redis.call('INCR', K_SEQ)
      for _, p in ipairs(r.P) do p.c = true end
    end
    local mine = {t = token, d = me and me.d or (now + lease), c = (me == nil) or me.c,
                  ops = row.ops}
    -- entries of learned values, and all of them again if the index was
    -- cleared meanwhile: the record may have been made again since (by
    -- the rebuild's scan), and adding is idempotent.  A safeguard on a rare
    -- path: since the clear is atomic, a record listing an entry the sets
    -- lack is not known to happen.
    local cleared = gen ~= gen_seen
    for _, o in ipairs(row.ops) do
      for _, list in ipairs({o.vals, o.res}) do
        for _, b in ipairs(list) do
          if not has(r.E, b) then r.E[#r.E + 1] = b; add_entry(b, rk)
          elseif cleared then add_entry(b, rk) end
        end
      end
    end
    if row.out == 'A' then
      commit(r, mine)
    elseif row.out == 'U' then
      -- in doubt: HBase may still apply it; keep it pending until its
      -- lease ends, with every value it may have left
      for _, o in ipairs(mine.ops) do
        for _, b in ipairs(o.res) do
          if not has(o.vals, b) then o.vals[#o.vals + 1] = b end
        end
        o.res = nil
      end
      mine.c = true
      mine.o = 'U'
      r.P[#r.P + 1] = mine
    end
    prune(r, rk)
    update_fix(r, rk, now)
    out[#out + 1] = rk
    out[#out + 1] = encode(r)
  end
  flush()
  flush_fixes()
  if #out > 0 then hset(out) end
  return 'OK'
end

-- repair -----------------------------------------------------------------------
-- ARGV: mode ('exact' or 'add'), abandon ('1': every pending change is
-- taken as abandoned), n, then per row: rk, snapshot (from "snapshot"
-- below, taken before the row was read from HBase; '' for none),
-- actual entries and orphan entries (each '>I2' count, entries).  'exact'
-- makes the entries equal to the actual ones when no change is pending and
-- the record did not change since the snapshot; otherwise (and in 'add'
-- mode) the actual entries are only added.  Returns "1"/"0" per row:
-- repaired exactly.

if op == 'repair' then
  local mode, abandon, n = arg(), arg() == '1', tonumber(arg())
  local gen = redis.call('HGET', K_STATE, 'gen') or '0'
  local now = now_ms()
  local rows = {}
  for i = 1, n do
    rows[i] = {rk = arg(), snap = arg()}
    rows[i].actual = read_list(arg())
    rows[i].orphans = read_list(arg())
  end
  local recs = hmget(rows)
  local out, done = {}, {}
  for i, row in ipairs(rows) do
    local rk = row.rk
    local r = decode(recs[i])
    local existed = r ~= nil
    if not r then r = new_record() end
    resolve(r, rk, now, abandon)
    local same = row.snap ~= '' and
                 row.snap == gen .. '/' .. (existed and string.format('%.17g', r.s) or '-')
    if mode == 'exact' and #r.P == 0 and same then
      for _, b in ipairs(r.E) do if not has(row.actual, b) then del_entry(b, rk) end end
      for _, b in ipairs(row.orphans) do if not has(row.actual, b) then del_entry(b, rk) end end
      for _, b in ipairs(row.actual) do add_entry(b, rk) end
      r.E = copy(row.actual)
      r.C = nil
      r.F = {}
      fixes[#fixes + 1] = rk
      done[i] = '1'
    else
      -- every actual entry is added, also one the record lists (adding is
      -- idempotent): a safeguard for rebuilds, which use this mode, should
      -- a record ever list an entry the sets lack
      for _, b in ipairs(row.actual) do
        if not has(r.E, b) then r.E[#r.E + 1] = b end
        add_entry(b, rk)
        if r.C and not has(r.C, b) then r.C[#r.C + 1] = b end
      end
      if #r.P == 0 then update_fix(r, rk, now) end
      done[i] = '0'
    end
    if existed or #r.E > 0 or #r.P > 0 then
      out[#out + 1] = rk
      out[#out + 1] = encode(r)
    end
  end
  flush()
  flush_fixes()
  if #out > 0 then hset(out) end
  return table.concat(done)
end

-- snapshot ---------------------------------------------------------------------
-- ARGV: abandon ('1': every pending change is taken as over), n, then the
-- row keys.  Read only: taken before the rows are read from HBase for an
-- exact repair.  Returns per row 'GEN/-' (no record), 'GEN/SEQ' (the
-- index's generation and the record's seq), or '' when a change is still
-- pending once those whose outcome is stored or whose lease ended are
-- settled: its HBase write may land after the read, and a change settled
-- between the snapshot and the repair leaves the seq as it was (only
-- "before" moves it, and an "after" whose change the record had lost),
-- so the repair must only add.  The generation tells
-- records made again after a clear apart: a rebuild's scan (and the bulk
-- "before") makes them with seq 0, the seq a record made by an earlier
-- repair or bulk write also has, so a write landing between the read and
-- the rebuild would otherwise be undone by an exact repair to the read.

if op == 'snapshot' then
  local abandon, n = arg() == '1', tonumber(arg())
  local now = now_ms()
  local rows = {}
  for i = 1, n do rows[i] = {rk = arg()} end
  local recs = hmget(rows)
  local gen = redis.call('HGET', K_STATE, 'gen') or '0'
  local out = {}
  for i, row in ipairs(rows) do
    local r = decode(recs[i])
    if not r then
      out[i] = gen .. '/-'
    else
      resolve(r, row.rk, now, abandon)   -- nothing is written back
      out[i] = #r.P == 0 and gen .. '/' .. string.format('%.17g', r.s) or ''
    end
  end
  return out
end

-- clear ------------------------------------------------------------------------
-- ARGV: the MATCH pattern of the index's keys.  Deletes every key of the
-- index but its state and write counter, and starts a new generation, in
-- one step: a write's "before" runs wholly before it (its entries go, and
-- its "after" sees the new generation and adds them again) or wholly after
-- (its entries stay).  A clear in several steps let a write lose an entry
-- it had just added while its record, written later, still listed it.
-- Returns the number of keys deleted.

if op == 'clear' then
  local pattern, cursor, n = arg(), '0', 0
  repeat
    local res = redis.call('SCAN', cursor, 'MATCH', pattern, 'COUNT', 1000)
    cursor = res[1]
    for _, k in ipairs(res[2]) do
      if k ~= K_STATE and k ~= K_SEQ then redis.call('UNLINK', k); n = n + 1 end
    end
  until cursor == '0'
  redis.call('HINCRBY', K_STATE, 'gen', 1)
  return n
end

return redis.error_reply('HBIDX unknown function ' .. tostring(op))
