-- POSTs one JSON body on every request. The body is the script's first argument (after "--"), so one
-- script serves every scenario. done() (report.lua) prints a single JSON line so the runner never has to parse
-- wrk's human-formatted units ("1.23ms", "4.5k").
-- done(): report.lua, beside this script.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")

wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"

-- An optional second argument is one more header, "Name: value" (an API key for the keyed scenario).
-- A body containing "{fresh}" gets a label no other request of the run used in its place, so that no
-- two requests ask the same name (wrk then calls request() for every request, on its own CPU).
local counter = 0

function setup(thread)
  thread:set("tid", tostring(math.random(1, 1000000000)))
end

function init(args)
  if args[1] == nil or args[1] == "" then
    error("post.lua needs the request body as its first argument")
  end
  wrk.body = args[1]
  if args[2] ~= nil and args[2] ~= "" then
    local name, value = string.match(args[2], "^([^:]+):%s*(.+)$")
    if name == nil then error("post.lua: the second argument must be a header line, Name: value") end
    wrk.headers[name] = value
  end
  if string.find(wrk.body, "{fresh}", 1, true) then
    local template = wrk.body
    request = function()
      counter = counter + 1
      local label = string.format("r%s-%d", tid, counter)
      return wrk.format(nil, nil, nil, (string.gsub(template, "{fresh}", label, 1)))
    end
  end
end

-- No response() hook on purpose: defining one makes wrk hand every response to Lua, which costs
-- wrk CPU on the same cores the servers run on. Statuses are checked by a probe before each run.
