"""A replay server for process tests of Tandem's customer backends: recorded OData V4, OData V2
(SAP Gateway, C4C, WCF Data Services, Olingo) responses served over real HTTP on loopback, as the
services wrote them, so that the server's paging, headers and mapping meet real wire bytes.

    replay = ODataReplay(Path(".../CustomerBackends/recordings/recordings.json"))
    replay.start()                  # 127.0.0.1, a free port, a background thread
    replay.base                     # "http://127.0.0.1:PORT"
    replay.requests()               # [{"method", "path", "query", "headers": {lower-case: value}}, ...]
    replay.set_status("v2-c4c-service-request", 503)
    replay.reset()                  # statuses back to the recorded ones, the request log emptied
    replay.stop()

What the manifest holds and how a request finds its route is written in the manifest itself
(`recordings.json`, key "matching"). In short: method and path equal, and every query parameter
the route names equal (null: absent, "*": any value); the first such route answers. A route's
body is served byte for byte, except that absolute URLs at the start of a JSON string (and in
`Location`/`Link` headers) that point to the recording's original origin get `base` in place of
that origin, path and query kept exactly; relative links are left alone.

Standard library only (http.server and threading): nothing to install next to the suites.
"""
import json
import re
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

# Headers that carry URLs of the recording's origin (the body's are found in its JSON strings).
URL_HEADERS = {"location", "content-location", "link"}
VERSIONS = {"v4", "v2"}


class ManifestError(Exception):
    """recordings.json is not what ODataReplay reads: the message says where."""


class Route:
    """One recorded answer: which request it answers, and with what."""

    def __init__(self, entry: dict, services: dict, root: Path):
        self.name = entry["name"]
        service = services.get(entry.get("service"))
        if service is None:
            raise ManifestError(f"route {self.name}: unknown service {entry.get('service')!r}")
        self.version = service["version"]
        self.origin = service.get("origin")
        self.method = entry.get("method", "GET").upper()
        self.path = entry["path"]
        self.match_path = urllib.parse.unquote(self.path)
        self.query = entry.get("query", {})
        self.status = int(entry.get("status", 200))
        self.headers = list(entry.get("headers", {}).items())
        self.etag = entry.get("etag")
        self.require_bearer = bool(entry.get("requireBearer", False))
        self.require_if_match = entry.get("requireIfMatch")
        body = entry.get("body")
        if body is None:
            self.body = b""
        else:
            file = root / body
            if not file.is_file():
                raise ManifestError(f"route {self.name}: no file {file}")
            self.body = file.read_bytes()

    def matches(self, method: str, path: str, query: dict) -> bool:
        if method != self.method or urllib.parse.unquote(path) != self.match_path:
            return False
        for name, wanted in self.query.items():
            given = query.get(name)
            if wanted is None and given is not None:
                return False
            if wanted == "*" and given is None:
                return False
            if wanted not in (None, "*") and given != wanted:
                return False
        return True


def _parse_query(query: str) -> dict:
    """Name to value, percent-decoded (`%24skiptoken` is `$skiptoken`); the last value wins.
    `+` stays a plus: OData services read it as a literal character, not a space."""
    parsed = {}
    for part in query.split("&") if query else []:
        name, _, value = part.partition("=")
        parsed[urllib.parse.unquote(name)] = urllib.parse.unquote(value)
    return parsed


def _etag_list(header: str) -> list:
    """The entity tags of an If-Match / If-None-Match value (`*` is kept as `*`)."""
    return [tag.strip() for tag in re.findall(r'\s*((?:W/)?"[^"]*"|\*)\s*(?:,|$)', header or "")]


def _weak_equal(left: str, right: str) -> bool:
    """RFC 9110 weak comparison: the opaque tags are equal, W/ or not."""
    strip = lambda tag: tag[2:] if tag.startswith("W/") else tag
    return strip(left) == strip(right)


class ODataReplay:
    """Serves the routes of a manifest on 127.0.0.1. See the module's docstring."""

    def __init__(self, manifest: Path):
        manifest = Path(manifest)
        try:
            document = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise ManifestError(f"{manifest}: {error}") from error
        root = (manifest.parent / document.get("root", ".")).resolve()
        services = document.get("services", {})
        for name, service in services.items():
            if service.get("version") not in VERSIONS:
                raise ManifestError(f"service {name}: version must be one of {sorted(VERSIONS)}")
        self.services = services
        self.routes = [Route(entry, services, root) for entry in document.get("routes", [])]
        names = [route.name for route in self.routes]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ManifestError(f"route names used twice: {duplicates}")
        self.base = ""
        self._lock = threading.Lock()
        self._requests = []
        self._statuses = {}
        self._server = None
        self._thread = None

    # -- control ---------------------------------------------------------------------------

    def start(self) -> str:
        """Listens on a free loopback port in a daemon thread; returns (and sets) `base`."""
        replay = self

        class Handler(_Handler):
            owner = replay

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, name="odata-replay", daemon=True)
        self._thread.start()
        return self.base

    def stop(self):
        """Stops listening and waits for the thread; nothing if it is not running."""
        if self._server is None:
            return
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        self._server = None
        self._thread = None

    def requests(self) -> list:
        """Every request received since start or the last reset, in order:
        {"method", "path" (as sent, not decoded), "query" (the raw query string, "" if none),
        "headers" ({lower-case name: value})}."""
        with self._lock:
            return [dict(entry, headers=dict(entry["headers"])) for entry in self._requests]

    def set_status(self, route: str, status: int):
        """Makes `route` answer `status` with an OData error body of its service's version
        instead of its recording, until reset(). KeyError for a name the manifest lacks."""
        if route not in {entry.name for entry in self.routes}:
            raise KeyError(route)
        with self._lock:
            self._statuses[route] = int(status)

    def reset(self):
        """Every route answers its recording again, and the request log is emptied."""
        with self._lock:
            self._statuses.clear()
            self._requests.clear()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    # -- answering -------------------------------------------------------------------------

    def rewrite(self, text: str, origin: str) -> str:
        """`base` in place of `origin` where a JSON string (or a header value, or a `<` of a
        Link header) starts with it, followed by `/`, `?`, `#` or the string's end; in its plain
        and its `\\/`-escaped spelling. Path and query stay exactly as recorded."""
        if not origin or not self.base:
            return text
        for spelled, replacement in ((origin, self.base),
                                     (origin.replace("/", "\\/"), self.base.replace("/", "\\/"))):
            text = re.sub(r'(^|["<])' + re.escape(spelled) + r'(?=$|[/?#"]|\\/)',
                          lambda match: match.group(1) + replacement, text)
        return text

    def _record(self, method: str, target: str, headers) -> tuple:
        path, _, query = target.partition("?")
        entry = {"method": method, "path": path, "query": query,
                 "headers": {name.lower(): value for name, value in headers.items()}}
        with self._lock:
            self._requests.append(entry)
        return path, query, entry["headers"]

    def _route_for(self, method: str, path: str, query: str):
        parsed = _parse_query(query)
        return next((route for route in self.routes if route.matches(method, path, parsed)), None)

    def _version_for(self, path: str) -> str:
        """The version of the service whose root is the longest prefix of `path` (V4 if none)."""
        decoded = urllib.parse.unquote(path)
        best, version = -1, "v4"
        for service in self.services.values():
            root = service.get("root", "")
            if (decoded == root or decoded.startswith(root.rstrip("/") + "/")) and len(root) > best:
                best, version = len(root), service["version"]
        return version

    def answer(self, method: str, target: str, headers) -> tuple:
        """(status, [(name, value)], body bytes) for one request; records it first."""
        path, query, headers = self._record(method, target, headers)
        route = self._route_for(method, path, query)
        if route is None:
            return error(self._version_for(path), 404, "NotRecorded",
                         f"No recorded response for {method} {target}")
        with self._lock:
            override = self._statuses.get(route.name)
        if override is not None:
            return error(route.version, override, str(override), f"Replay status {override} set for route {route.name}")
        if route.require_bearer:
            scheme, _, token = headers.get("authorization", "").partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                status, response_headers, body = error(route.version, 401, "Unauthorized",
                                                       "This route needs Authorization: Bearer")
                return status, response_headers + [("WWW-Authenticate", "Bearer")], body
        if route.require_if_match is not None:
            if "if-match" not in headers:
                return error(route.version, 428, "PreconditionRequired", "This write needs If-Match")
            tags = _etag_list(headers["if-match"])
            if "*" not in tags and route.require_if_match not in tags:
                return error(route.version, 412, "PreconditionFailed",
                             "If-Match does not match the entity's current ETag")
        response_headers = [(name, self.rewrite(value, route.origin) if name.lower() in URL_HEADERS else value)
                            for name, value in route.headers]
        if route.etag and not any(name.lower() == "etag" for name, _ in response_headers):
            response_headers.append(("ETag", route.etag))
        if route.etag and method in ("GET", "HEAD") and "if-none-match" in headers:
            tags = _etag_list(headers["if-none-match"])
            if "*" in tags or any(_weak_equal(tag, route.etag) for tag in tags):
                return 304, [(name, value) for name, value in response_headers
                             if name.lower() in ("etag", "cache-control", "odata-version", "dataserviceversion")], b""
        body = route.body
        if route.origin and self.base:
            body = self.rewrite(body.decode("utf-8"), route.origin).encode("utf-8")
        return route.status, response_headers, body


def error(version: str, status: int, code: str, message: str) -> tuple:
    """An OData error answer: V4 `{"error":{"code","message"}}`, V2 (SAP Gateway's JSON form)
    `{"error":{"code","message":{"lang","value"}}}`."""
    if version == "v2":
        document = {"error": {"code": code, "message": {"lang": "en", "value": message}}}
        headers = [("Content-Type", "application/json"), ("dataserviceversion", "1.0")]
    else:
        document = {"error": {"code": code, "message": message}}
        headers = [("Content-Type", "application/json;odata.metadata=minimal"), ("OData-Version", "4.0")]
    return status, headers, json.dumps(document).encode("utf-8")


class _Handler(BaseHTTPRequestHandler):
    """Hands every request to its ODataReplay (`owner`) and writes what it answers."""
    owner = None
    protocol_version = "HTTP/1.1"
    server_version = "odata-replay"
    sys_version = ""

    def _serve(self):
        self._drain_body()
        status, headers, body = self.owner.answer(self.command, self.path, self.headers)
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        if status != 304:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and self.command != "HEAD" and status != 304:
            self.wfile.write(body)

    def _drain_body(self):
        """Reads (and drops) the request's body, sized or chunked, so that the connection can
        carry the next request."""
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailer fields, up to the blank line
                    return
                self.rfile.read(size + 2)  # the chunk and its CRLF
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _serve

    def log_message(self, format, *args):
        """Quiet: the request log is `requests()`."""
