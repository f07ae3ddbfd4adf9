-- wrk script: POST /oauth/token with grant_type=refresh_token, a different refresh token on every
-- request (each can be redeemed only once).
--
--   wrk -t2 -c64 -d10s -s refresh.lua http://127.0.0.1:PORT -- TOKEN_FILE CLIENT_ID THREADS [PROOF_FILE]
--
-- With PROOF_FILE (DPoP-bound grants), every request carries the next of its thread's DPoP proofs
-- (lines split among threads as the tokens are; each proof is accepted once); a request made when
-- they have run out is sent without one and shows up as a non-200.
--
-- TOKEN_FILE holds fresh refresh tokens, one per line. Thread i (0-based) of THREADS takes lines
-- i+1, i+1+THREADS, …, so no two requests share a token. When a thread has used all of its own,
-- it redeems the successors the server sent back (each 200 carries one); every 200 gives
-- one back, so the pool only runs dry if responses fail. A request made with the pool empty is
-- sent with an invalid token and shows up as a non-200.
--
-- done() prints one line for scripts/bench-server.sh:
--   BENCH requests=N duration_us=N rps=F p50_ms=F p99_ms=F non2xx=N non200=N socket_errors=N
--         preissued_used=N successors_used=N exhausted=N

local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local tokens = {}
local token_count = 0
local next_index = 1
local successors = {}
local client_id
local proofs = {}
local next_proof = 1
non200 = 0
preissued_used = 0
successors_used = 0
exhausted = 0
first_failure = ""

-- The lines of `path` that are this thread's: i+1, i+1+THREADS, …
local function thread_lines(path, thread_count)
  local lines = {}
  local file = assert(io.open(path, "r"))
  local line_number = 0
  for line in file:lines() do
    if line ~= "" then
      if line_number % thread_count == id then lines[#lines + 1] = line end
      line_number = line_number + 1
    end
  end
  file:close()
  return lines
end

function init(args)
  local path, thread_count = args[1], tonumber(args[3])
  client_id = args[2]
  assert(path and client_id and thread_count, "usage: -- TOKEN_FILE CLIENT_ID THREADS [PROOF_FILE]")
  tokens = thread_lines(path, thread_count)
  if args[4] then proofs = thread_lines(args[4], thread_count) end
  token_count = #tokens
  wrk.method = "POST"
  wrk.path = "/oauth/token"
  wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
end

local function form(token)
  return "grant_type=refresh_token&client_id=" .. client_id .. "&refresh_token=" .. token
end

function request()
  local token
  if next_index <= token_count then
    token = tokens[next_index]
    next_index = next_index + 1
    preissued_used = preissued_used + 1
  elseif #successors > 0 then
    token = table.remove(successors)
    successors_used = successors_used + 1
  else
    token = "tdr_exhausted"
    exhausted = exhausted + 1
  end
  local headers = nil
  if next_proof <= #proofs then
    headers = { ["DPoP"] = proofs[next_proof], ["Content-Type"] = "application/x-www-form-urlencoded" }
    next_proof = next_proof + 1
  end
  return wrk.format(nil, nil, headers, form(token))
end

function response(status, headers, body)
  if status == 200 then
    local successor = string.match(body, '"refresh_token":"([^"]+)"')
    if successor then successors[#successors + 1] = successor end
  else
    non200 = non200 + 1
    if first_failure == "" then first_failure = status .. " " .. string.sub(body, 1, 200) end
  end
end

function done(summary, latency, requests)
  local sum = { non200 = 0, preissued_used = 0, successors_used = 0, exhausted = 0 }
  local failure = ""
  for _, thread in ipairs(threads) do
    for name, _ in pairs(sum) do sum[name] = sum[name] + (thread:get(name) or 0) end
    if failure == "" then failure = thread:get("first_failure") or "" end
  end
  local errors = summary.errors
  io.write(string.format(
    "BENCH requests=%d duration_us=%d rps=%.1f p50_ms=%.3f p99_ms=%.3f non2xx=%d non200=%d socket_errors=%d preissued_used=%d successors_used=%d exhausted=%d\n",
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, errors.status, sum.non200,
    errors.connect + errors.read + errors.write + errors.timeout,
    sum.preissued_used, sum.successors_used, sum.exhausted))
  if failure ~= "" then io.write("BENCH_FIRST_FAILURE " .. string.gsub(failure, "\n", " ") .. "\n") end
end
