import json
import threading

from django.conf import settings


class RequestLogMiddleware:
    """Appends one JSON line per request to /api/ to settings.ERP_REQUEST_LOG (when set): the
    method, path and query, the conditional and idempotency headers, the authenticated user and
    the status. Never the Authorization header."""

    lock = threading.Lock()

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if settings.ERP_REQUEST_LOG and request.path.startswith("/api/"):
            user = getattr(request, "user", None)
            entry = {
                "method": request.method,
                "path": request.path,
                "query": request.META.get("QUERY_STRING", ""),
                "if_none_match": request.headers.get("If-None-Match"),
                "if_match": request.headers.get("If-Match"),
                "idempotency_key": request.headers.get("Idempotency-Key"),
                "username": user.username if user is not None and user.is_authenticated else None,
                "status": response.status_code,
            }
            with self.lock, open(settings.ERP_REQUEST_LOG, "a", encoding="utf-8") as log:
                log.write(json.dumps(entry) + "\n")
        return response
