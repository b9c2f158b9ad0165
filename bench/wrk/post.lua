-- POSTs one JSON body on every request. The body is the script's first argument (after "--"), so one
-- script serves every scenario. done() prints a single JSON line so the runner never has to parse
-- wrk's human-formatted units ("1.23ms", "4.5k").
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

function init(args)
  if args[1] == nil or args[1] == "" then
    error("post.lua needs the request body as its first argument")
  end
  wrk.body = args[1]
end

-- No response() hook on purpose: defining one makes wrk hand every response to Lua, which costs
-- wrk CPU on the same cores the servers run on. Statuses are checked by a probe before each run.
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
