"""An HTTP client that checks every answer against Server/openapi.yaml: the status is the one the
test expects and is documented for the operation, the documented headers are there and match
their schemas, the content type is a documented one and a JSON body matches its schema."""
import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from http.cookiejar import CookieJar

import jsonschema

# Seconds an answer may take. Generous: signing in hashes a password, which in a debug build on
# a busy machine takes seconds, and a slow answer is not what these tests judge.
ANSWER_TIMEOUT = 60


def resolve(spec: dict, node):
    """Inlines $refs and turns OpenAPI 3.0's `nullable` into JSON Schema's type lists."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            return resolve(spec, target)
        resolved = {key: resolve(spec, value) for key, value in node.items() if key != "nullable"}
        if node.get("nullable") is True:
            if "type" in resolved:
                resolved["type"] = [resolved["type"], "null"]
            if "enum" in resolved:
                resolved["enum"] = resolved["enum"] + [None]
        return resolved
    if isinstance(node, list):
        return [resolve(spec, value) for value in node]
    return node


@dataclass
class Answer:
    """One response: its status, body and headers, and what in it the document does not allow."""
    request: str
    status: int
    body: bytes
    headers: object
    problems: list = field(default_factory=list)

    def json(self) -> dict:
        return json.loads(self.body)

    def describe(self) -> str:
        return f"{self.request} → {self.status}: {self.body[:300]!r}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments, **options):
        return None


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class DocumentedAPI:
    """The server at `base`, spoken to as `spec` (the parsed OpenAPI document) describes it.

    Redirects are not followed, and cookies are kept for the life of the object (one browser)."""

    def __init__(self, spec: dict, base: str):
        self.spec = spec
        self.base = base
        self.cookies = CookieJar()
        self._opener = urllib.request.build_opener(_NoRedirect, urllib.request.HTTPCookieProcessor(self.cookies))

    def call(self, method: str, path: str, operation: str, *, form=None, json_body=None, raw=None, headers=None) -> Answer:
        """Sends one request and returns the answer with the ways it departs from the document for
        `operation` (a path of the document). The body is `form` (form-encoded), `json_body` (JSON)
        or `raw` (bytes; give its Content-Type in `headers`)."""
        headers = dict(headers or {})
        data = None
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        elif json_body is not None:
            data = json.dumps(json_body).encode()
            headers.setdefault("Content-Type", "application/json")
        elif raw is not None:
            data = raw
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with self._opener.open(request, timeout=ANSWER_TIMEOUT) as response:
                answer = Answer(f"{method} {path}", response.status, response.read(), response.headers)
        except urllib.error.HTTPError as error:
            answer = Answer(f"{method} {path}", error.code, error.read(), error.headers)
        answer.problems = self._departures(method, operation, answer)
        return answer

    def expect(self, status: int, method: str, path: str, operation: str, **options) -> Answer:
        """`call`, asserting that the answer has `status` and conforms to the document."""
        answer = self.call(method, path, operation, **options)
        problems = list(answer.problems)
        if answer.status != status:
            problems.insert(0, f"status {answer.status}, expected {status}")
        assert not problems, f"{answer.describe()}\n  " + "\n  ".join(problems)
        return answer

    def _departures(self, method: str, operation: str, answer: Answer) -> list:
        problems = []
        documented = resolve(self.spec, self.spec["paths"][operation][method.lower()])["responses"].get(str(answer.status))
        if documented is None:
            return [f"status {answer.status} is not documented for {method} {operation}"]
        for name, header in (documented.get("headers") or {}).items():
            value = answer.headers.get(name)
            if value is None:
                if header.get("required"):
                    problems.append(f"header {name} is missing")
                continue
            schema = header["schema"]
            if schema.get("type") == "integer":
                value = int(value) if value.isdigit() else value
            problems += [f"header {name}: {error.message}" for error in jsonschema.Draft4Validator(schema).iter_errors(value)]
        content = documented.get("content") or {}
        content_type = (answer.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content:
            if content_type not in content:
                problems.append(f"content type {content_type or '(none)'} is not one of {sorted(content)}")
            elif content_type == "application/json":
                try:
                    document = json.loads(answer.body)
                except ValueError as error:
                    problems.append(f"the body is not JSON: {error}")
                else:
                    validator = jsonschema.Draft4Validator(content[content_type]["schema"])
                    problems += [f"body: {error.message} at {list(error.absolute_path)}" for error in validator.iter_errors(document)]
        return problems
