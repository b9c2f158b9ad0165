// The token bucket of token-bucket.ts as one atomic Redis script, on the Redis server's clock (TIME), so
// instances whose own clocks disagree still agree on every bucket. One call decides a whole batch of
// buckets (redis-bucket-batch.ts), in order, so two decisions on one key in a batch see each other as two
// calls would. KEYS[i] is the i-th bucket; ARGV holds five values per bucket: capacity, windowMs, cost (0
// looks without taking), a clock reading for tests only (empty: TIME, read once per call), and '1' to spend
// the cost whether it is there or not (token-bucket.ts's spend: a debt down to -capacity at most).
//
// A bucket is one string, "<level> <updated>": the level in units of token*windowMs and the instant it
// was computed at, as in token-bucket.ts. It expires when the bucket would be full again, so idle clients
// vanish. Each redis.call from a script costs Redis several µs, more than the arithmetic: the batch reads
// every bucket with one MGET and writes each changed one with one SET ... PX. (A key of another type reads
// as a full bucket and is overwritten.) Integers stay far inside 2^53 (2 * capacity * windowMs <= 1.8e14),
// and are written with %.0f so none is stored in exponent form. The answer is four integers per bucket:
// allowed (1/0), remaining, resetMs, retryAfterMs.
export const BUCKET_BATCH_SCRIPT = `
local stored = redis.call('MGET', unpack(KEYS))
local levels, updates, expiries, order = {}, {}, {}, {}
local out = {}
local serverNow
for i = 1, #KEYS do
  local key = KEYS[i]
  local a = (i - 1) * 5
  local capacity = tonumber(ARGV[a + 1])
  local window = tonumber(ARGV[a + 2])
  local cost = tonumber(ARGV[a + 3])
  local spend = ARGV[a + 5] == '1'
  local now
  if ARGV[a + 4] ~= '' then
    now = tonumber(ARGV[a + 4])
  else
    if not serverNow then
      local t = redis.call('TIME')
      serverNow = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    end
    now = serverNow
  end
  local full = capacity * window
  local level, updated = levels[key], updates[key]
  if level == nil and stored[i] then
    local l, u = string.match(stored[i], '^(-?%d+) (%d+)$')
    if l then level, updated = tonumber(l), tonumber(u) end
  end
  if level == nil then
    level, updated = full, now
  else
    local elapsed = math.min(math.max(0, now - updated), 2 * window)
    level = math.min(full, level + elapsed * capacity)
    updated = math.max(now, updated)
  end
  local need = cost * window
  local allowed = spend or level >= need
  if allowed then level = math.max(level - need, -full) end
  local reset = math.ceil((full - level) / capacity)
  local retry = 0
  if not allowed then retry = math.ceil((need - level) / capacity) end
  levels[key], updates[key] = level, updated
  if cost > 0 then
    if expiries[key] == nil then order[#order + 1] = key end
    expiries[key] = math.max(1, reset)
  end
  local o = (i - 1) * 4
  if allowed then out[o + 1] = 1 else out[o + 1] = 0 end
  out[o + 2] = math.floor(level / window)
  out[o + 3] = reset
  out[o + 4] = retry
end
for _, key in ipairs(order) do
  redis.call('SET', key, string.format('%.0f %.0f', levels[key], updates[key]), 'PX', expiries[key])
end
return out
`;
