"""The WSGI application gunicorn serves (`gunicorn erp_site.wsgi`)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "erp_site.settings")

application = get_wsgi_application()
