from decimal import Decimal, InvalidOperation

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from erp.models import Approval


class Command(BaseCommand):
    help = "Changes an approval as the ERP's own users would (its version, and so its etag, goes up)."

    def add_arguments(self, parser):
        parser.add_argument("id")
        parser.add_argument("--title")
        parser.add_argument("--requester")
        parser.add_argument("--amount")
        parser.add_argument("--currency")
        parser.add_argument("--status", choices=Approval.Status.values)

    @transaction.atomic
    def handle(self, *args, id, **options):
        try:
            approval = Approval.objects.get(pk=id)
        except Approval.DoesNotExist as error:
            raise CommandError(f"there is no approval {id}") from error
        for field in ("title", "requester", "currency", "status"):
            if options[field] is not None:
                setattr(approval, field, options[field])
        if options["amount"] is not None:
            try:
                approval.amount = Decimal(options["amount"])
            except InvalidOperation as error:
                raise CommandError(f"{options['amount']!r} is not an amount") from error
        approval.version += 1
        approval.save()
        self.stdout.write(f"{approval.id} is now version {approval.version}")
