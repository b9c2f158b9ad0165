-- POSTs checks whose port turns over a list, for the tcp and http benches: the per-target connection budget
-- is per address and port, and one port's ceiling is below what the server does under this load.
-- Arguments (after "--"): the body with "{port}" in it, then the ports, comma-separated.
-- done(): report.lua, beside this script.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")

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
