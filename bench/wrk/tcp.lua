-- POSTs checks whose port turns over a list, for the tcp and http benches: the per-target connection budget
-- is per address and port, and one port's ceiling is below what the server does under this load.
-- Arguments (after "--"): the body with "{port}" in it, then the ports, comma-separated.
-- done() prints the same WRK_JSON line as post.lua.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

local bodies = {}
local next_body = 0

function init(args)
  if args[1] == nil or args[2] == nil then error("tcp.lua needs a body with {port} and a list of ports") end
  for port in string.gmatch(args[2], "%d+") do
    bodies[#bodies + 1] = wrk.format(nil, nil, nil, (string.gsub(args[1], "{port}", port, 1)))
  end
  if #bodies == 0 then error("tcp.lua: no port in " .. args[2]) end
end

function request()
  next_body = next_body % #bodies + 1
  return bodies[next_body]
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"durationUs":%d,"requests":%d,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"min":%d,"mean":%.3f,"max":%d,"p50":%d,"p90":%d,"p99":%d,"p999":%d}}\n',
    summary.duration, summary.requests, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.min, latency.mean, latency.max,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9)))
end
