// The token bucket of token-bucket.ts as one atomic Redis script, on the Redis server's clock (TIME), so
// instances whose own clocks disagree still agree on every bucket. KEYS[1] is the bucket; ARGV: capacity,
// windowMs, cost (0 looks without taking), a clock reading for tests only (empty: TIME), and '1' to spend
// the cost whether it is there or not (token-bucket.ts's spend: a debt down to -capacity at most). State
// is the level in units of token*windowMs and the instant it was computed at, as in token-bucket.ts; the
// key expires when the bucket would be full again, so idle clients vanish. Integers stay far inside
// 2^53 (2 * capacity * windowMs <= 1.8e14), and are written with %.0f so none is stored in exponent form.
export const BUCKET_SCRIPT = `
local capacity = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local spend = ARGV[5] == '1'
local now
if ARGV[4] ~= nil and ARGV[4] ~= '' then
  now = tonumber(ARGV[4])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local full = capacity * window
local level = full
local updated = now
local state = redis.call('HMGET', KEYS[1], 'l', 'u')
if state[1] and state[2] then
  level = tonumber(state[1])
  updated = tonumber(state[2])
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
if cost > 0 then
  redis.call('HSET', KEYS[1], 'l', string.format('%.0f', level), 'u', string.format('%.0f', updated))
  redis.call('PEXPIRE', KEYS[1], math.max(1, reset))
end
if allowed then allowed = 1 else allowed = 0 end
return { allowed, math.floor(level / window), reset, retry }
`;
