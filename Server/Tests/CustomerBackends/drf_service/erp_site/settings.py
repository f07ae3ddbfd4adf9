"""Settings of the example ERP service, from its environment:

ERP_DATABASE        the SQLite file (required)
ERP_JWKS_URL        where the identity provider publishes its signing keys: Tandem's jwks_uri (required)
ERP_TOKEN_ISSUER    the `iss` tokens must carry: Tandem's issuer (required)
ERP_TOKEN_AUDIENCE  the `aud` tokens must carry: this service's identifier (required)
ERP_REQUEST_LOG     a file that gets one JSON line per API request (optional)
ERP_ALLOWED_HOSTS   comma-separated (default 127.0.0.1,localhost)
ERP_CACHE_MAX_AGE   optional: lists say `Cache-Control: private, max-age=N` instead of
                    `private, no-cache` (make bench's proxy figures: a page the caller may keep)
DJANGO_SECRET_KEY   optional: nothing here is signed with it (no sessions, no cookies)
"""
import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent


def required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"set {name} (see erp_site/settings.py)")
    return value


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or get_random_secret_key()
DEBUG = False
ERP_CACHE_MAX_AGE = int(os.environ["ERP_CACHE_MAX_AGE"]) if os.environ.get("ERP_CACHE_MAX_AGE", "").strip() else None
ALLOWED_HOSTS = [host.strip() for host in os.environ.get("ERP_ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if host.strip()]

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "rest_framework",
    "erp",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.common.CommonMiddleware",
    "erp.middleware.RequestLogMiddleware",
]

ROOT_URLCONF = "erp_site.urls"
WSGI_APPLICATION = "erp_site.wsgi.application"

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": required("ERP_DATABASE"),
        # Each decision is one write transaction that takes the lock at its start.
        "OPTIONS": {"transaction_mode": "IMMEDIATE", "timeout": 20},
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework_simplejwt.authentication.JWTAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 20,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "UNAUTHENTICATED_USER": None,
}

# The identity provider (Tandem) signs the tokens; this service only checks them, with the keys
# published at its JWKS URL. Users are known by their sign-in name.
SIMPLE_JWT = {
    "ALGORITHM": "ES256",
    "JWK_URL": required("ERP_JWKS_URL"),
    "ISSUER": required("ERP_TOKEN_ISSUER"),
    "AUDIENCE": required("ERP_TOKEN_AUDIENCE"),
    "LEEWAY": 5,
    "USER_ID_FIELD": "username",
    "USER_ID_CLAIM": "preferred_username",
    "TOKEN_TYPE_CLAIM": None,
    "AUTH_HEADER_TYPES": ("Bearer",),
}

ERP_REQUEST_LOG = os.environ.get("ERP_REQUEST_LOG") or None

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False}},
}
