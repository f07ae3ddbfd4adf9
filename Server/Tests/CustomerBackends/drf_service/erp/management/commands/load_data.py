import json
import sys
from decimal import Decimal, InvalidOperation

from django.contrib.auth.models import Group, User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.dateparse import parse_datetime

from erp.models import Approval, IdempotentResponse, Order

EXAMPLE = """{"users": [{"username": "ada", "approver": true}, {"username": "carol", "approver": false}],
 "approvals": [{"id": "A-1001", "approver": "ada", "requester": "bob", "title": "Laptop", "amount": "1299.00",
                "currency": "EUR", "status": "pending", "createdAt": "2026-12-07T08:00:00Z"}],
 "orders": [{"id": "O-1", "owner": "ada", "customer": "Acme", "amount": "12.50", "currency": "EUR",
             "status": "open", "orderedAt": "2026-12-01T10:00:00Z"}]}"""


class Command(BaseCommand):
    help = ("Replaces every user, approval and order with those of a JSON document (a file, or - for "
            "standard input), e.g.\n" + EXAMPLE)

    def add_arguments(self, parser):
        parser.add_argument("document", help="the JSON file, or - to read standard input")

    def handle(self, *args, document, **options):
        try:
            if document == "-":
                data = json.load(sys.stdin)
            else:
                with open(document, encoding="utf-8") as file:
                    data = json.load(file)
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read {document}: {error}") from error

        try:
            users = self.load(data)
        except KeyError as error:
            raise CommandError(f"an entry of {document} has no {error}") from error
        self.stdout.write(f"loaded {len(users)} users, {Approval.objects.count()} approvals, {Order.objects.count()} orders")

    @transaction.atomic
    def load(self, data) -> dict:
        IdempotentResponse.objects.all().delete()
        Approval.objects.all().delete()
        Order.objects.all().delete()
        User.objects.all().delete()
        approvers, _ = Group.objects.get_or_create(name="approvers")
        users = {}
        for entry in data.get("users", []):
            user = User(username=entry["username"])
            user.set_unusable_password()  # they sign in at the identity provider, never here
            user.save()
            if entry.get("approver"):
                user.groups.add(approvers)
            users[user.username] = user
        for entry in data.get("approvals", []):
            Approval.objects.create(
                id=entry["id"], approver=self.user(users, entry["approver"]), requester=entry["requester"],
                title=entry["title"], amount=self.amount(entry["amount"]), currency=entry["currency"],
                status=self.status(entry.get("status", Approval.Status.PENDING)), created_at=self.moment(entry["createdAt"]),
                version=entry.get("version", 1))
        for entry in data.get("orders", []):
            Order.objects.create(
                id=entry["id"], owner=self.user(users, entry["owner"]), customer=entry["customer"],
                amount=self.amount(entry["amount"]), currency=entry["currency"], status=entry.get("status", "open"),
                ordered_at=self.moment(entry["orderedAt"]))
        return users

    @staticmethod
    def user(users, username):
        if username not in users:
            raise CommandError(f"{username!r} is not one of the document's users")
        return users[username]

    @staticmethod
    def status(text):
        if text not in Approval.Status.values:
            raise CommandError(f"{text!r} is not one of {Approval.Status.values}")
        return text

    @staticmethod
    def amount(text):
        try:
            return Decimal(str(text))
        except InvalidOperation as error:
            raise CommandError(f"{text!r} is not an amount") from error

    @staticmethod
    def moment(text):
        moment = parse_datetime(text)
        if moment is None or moment.tzinfo is None:
            raise CommandError(f"{text!r} is not a date and time with a zone (2026-12-07T08:00:00Z)")
        return moment
