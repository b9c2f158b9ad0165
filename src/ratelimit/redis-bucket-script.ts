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
// Redis runs Lua slowly (about 3 µs for one bucket's arithmetic) and every redis.call costs more than that,
// so the script does only what must be atomic: it reads every bucket with one MGET, refills, takes, writes
// each changed bucket with one SET ... PX, and answers two integers per item: how many of its takes were
// granted, and the level before them. The caller derives remaining, reset and retry from those exactly as
// token-bucket.ts does. (A key of another type reads as a full bucket and is overwritten.) Integers stay far
// inside 2^53 (2 * capacity * windowMs <= 1.8e14), and are written with %.0f, never in exponent form.
export const ARGS_PER_ITEM = 6;
export const ANSWERS_PER_ITEM = 2;

export const BUCKET_BATCH_SCRIPT = `
local argv, keys = ARGV, KEYS
local stored = redis.call('MGET', unpack(keys))
local levels, updates, expiries, order = {}, {}, {}, {}
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
  redis.call('SET', key, string.format('%.0f %.0f', levels[key], updates[key]), 'PX', expiries[key])
end
return out
`;
