"""Server/openapi.yaml itself: a valid OpenAPI document, before anything is checked against it."""
from openapi_spec_validator import validate


def test_the_openapi_document_is_valid(spec):
    validate(spec)
