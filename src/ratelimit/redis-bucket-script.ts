// The token bucket of token-bucket.ts as one atomic Redis script, on the Redis server's clock (TIME), so
// instances whose own clocks disagree still agree on every bucket. One call decides a whole batch
// (redis-bucket-batch.ts), in order, so two decisions on one key in a batch see each other as two calls
// would. KEYS[i] is the i-th item's bucket; ARGV holds six values per item: capacity, windowMs, cost (0 looks
// without taking), a clock reading for tests only (empty: TIME, read once per call), '1' to spend the cost
// whether it is there or not (token-bucket.ts's spend: a debt down to -capacity at most), and how many takes
// of that cost the item stands for (a run of takes on one bucket, each seeing the one before).
//
// A bucket is one string, "<level> <updated>": the level in units of token*windowMs and the instant it was
// computed at, as in token-bucket.ts. It expires when the bucket would be full again, so idle clients vanish.
// Redis runs Lua slowly, and every redis.call costs more than one bucket's arithmetic in it (figures in
// bench/README.md), so the script does only what must be atomic: it reads every bucket with one MGET, refills, takes, writes
// each changed bucket with one SET ... PX, and answers two integers per item: how many of its takes were
// granted, and the level before them. The caller derives remaining, reset and retry from those exactly as
// token-bucket.ts does. Integers stay far inside 2^53 (2 * capacity * windowMs <= 1.8e14), and are written
// with %.0f, never in exponent form.
//
// Whatever else a key holds (written by hand, an older version, another program) must neither fail the
// batch, which answers other clients too, nor stay: a value this script could not have written (not the
// format, longer than any bucket, a level outside -full..full, a stamp more than FUTURE_SKEW_MS ahead of
// the clock) reads as a full bucket and is unlinked at once, so the bucket is rewritten whole by its take.
// A key of another type reads as nothing in MGET, so a fresh bucket is written with NX; only if that
// finds the key taken is it unlinked first (UNLINK frees a big hash off Redis's main thread, where a plain
// SET would free it inside the script, past the caller's timeout); a look alone leaves it to the next
// take. A stamp however old needs no check: a refill of two windows fills any bucket. A valid bucket
// costs a length check and three comparisons.
export const ARGS_PER_ITEM = 6;
export const ANSWERS_PER_ITEM = 2;
// A stamp this far ahead of the clock is still believed (a Redis whose clock stepped back, or a failover
// to one a little behind): the bucket refills nothing until then. Beyond it, it is garbage: a full bucket.
export const FUTURE_SKEW_MS = 60_000;
// "<level> <updated>" is about 30 characters at most; anything longer is not a bucket, and is not scanned.
const MAX_VALUE_LENGTH = 40;

export const BUCKET_BATCH_SCRIPT = `
local argv, keys = ARGV, KEYS
local stored = redis.call('MGET', unpack(keys))
local levels, updates, expiries, order, fresh = {}, {}, {}, {}, {}
local out = {}
local serverNow
for i = 1, #keys do
  local key = keys[i]
  local a = (i - 1) * ${ARGS_PER_ITEM}
  local capacity = tonumber(argv[a + 1])
  local window = tonumber(argv[a + 2])
  local cost = tonumber(argv[a + 3])
  local spend = argv[a + 5] == '1'
  local takes = tonumber(argv[a + 6])
  local now
  if argv[a + 4] ~= '' then
    now = tonumber(argv[a + 4])
  else
    if not serverNow then
      local t = redis.call('TIME')
      serverNow = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
    end
    now = serverNow
  end
  local full = capacity * window
  local level, updated = levels[key], updates[key]
  if level == nil then
    local value = stored[i]
    if value then
      local l, u
      if #value <= ${MAX_VALUE_LENGTH} then l, u = string.match(value, '^(-?%d+) (%d+)$') end
      if l then l, u = tonumber(l), tonumber(u) end
      if l and l >= -full and l <= full and u <= now + ${FUTURE_SKEW_MS} then
        level, updated = l, u
      else
        redis.call('UNLINK', key)
      end
    end
  end
  if level == nil then
    fresh[key] = true
    level, updated = full, now
  else
    local elapsed = math.min(math.max(0, now - updated), 2 * window)
    level = math.min(full, level + elapsed * capacity)
    updated = math.max(now, updated)
  end
  local before = level
  local need = cost * window
  local granted = 0
  if spend then
    granted = 1
    level = math.max(level - need, -full)
  elseif need == 0 then
    if level >= 0 then granted = 1 end
  elseif level >= need then
    granted = math.min(takes, math.floor(level / need))
    level = level - granted * need
  end
  levels[key], updates[key] = level, updated
  if cost > 0 then
    if expiries[key] == nil then order[#order + 1] = key end
    expiries[key] = math.max(1, math.ceil((full - level) / capacity))
  end
  out[(i - 1) * ${ANSWERS_PER_ITEM} + 1] = granted
  out[(i - 1) * ${ANSWERS_PER_ITEM} + 2] = before
end
for _, key in ipairs(order) do
  local value = string.format('%.0f %.0f', levels[key], updates[key])
  if not fresh[key] then
    redis.call('SET', key, value, 'PX', expiries[key])
  elseif not redis.call('SET', key, value, 'PX', expiries[key], 'NX') then
    redis.call('UNLINK', key)
    redis.call('SET', key, value, 'PX', expiries[key])
  end
end
return out
`;
