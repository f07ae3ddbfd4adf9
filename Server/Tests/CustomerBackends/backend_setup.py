"""What the customer-backend suite's Tandem server and its backends agree on: the audience of the
backend tokens, the app, the users and their password. (A module of its own, not conftest.py:
every suite's conftest is imported as `conftest`, so a test importing from it could get another
suite's.)"""

AUDIENCE = "https://erp.example.test/api"
CLIENT_ID = "example-app"
PASSWORD = "correct-horse-battery-staple"
# Tandem's users; the DRF service knows all but dave.
USERNAMES = ("ada", "bob", "carol", "dave")
