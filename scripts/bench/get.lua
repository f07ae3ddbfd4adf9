-- wrk script: a plain GET, optionally with an Authorization header, reporting in the format
-- scripts/bench-server.sh reads. With an If-None-Match value too, every request revalidates
-- and the answer expected is 304 instead of 200 (scripts/bench/backend_proxy.py).
--
--   wrk -t2 -c64 -d10s -s get.lua http://127.0.0.1:PORT/PATH -- [AUTHORIZATION [IF-NONE-MATCH]]
--
-- done() prints one line:
--   BENCH requests=N duration_us=N rps=F p50_ms=F p99_ms=F non2xx=N non200=N socket_errors=N
-- (non200 counts every status but the one expected, 200 or 304; non2xx is wrk's count of
-- status >= 400.)

local threads = {}
non200 = 0
first_failure = ""
expected = 200

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  if args[1] and args[1] ~= "" then wrk.headers["Authorization"] = args[1] end
  if args[2] and args[2] ~= "" then
    wrk.headers["If-None-Match"] = args[2]
    expected = 304
  end
end

function response(status, headers, body)
  if status ~= expected then
    non200 = non200 + 1
    if first_failure == "" then first_failure = status .. " " .. string.sub(body, 1, 200) end
  end
end

function done(summary, latency, requests)
  local total, failure = 0, ""
  for _, thread in ipairs(threads) do
    total = total + (thread:get("non200") or 0)
    if failure == "" then failure = thread:get("first_failure") or "" end
  end
  local errors = summary.errors
  io.write(string.format(
    "BENCH requests=%d duration_us=%d rps=%.1f p50_ms=%.3f p99_ms=%.3f non2xx=%d non200=%d socket_errors=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, errors.status, total,
    errors.connect + errors.read + errors.write + errors.timeout))
  if failure ~= "" then io.write("BENCH_FIRST_FAILURE " .. string.gsub(failure, "\n", " ") .. "\n") end
end
