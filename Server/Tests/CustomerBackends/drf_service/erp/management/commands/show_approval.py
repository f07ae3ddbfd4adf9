import json

from django.core.management.base import BaseCommand, CommandError

from erp.models import Approval


class Command(BaseCommand):
    help = "Prints an approval as JSON, with how and by whom it was decided."

    def add_arguments(self, parser):
        parser.add_argument("id")

    def handle(self, *args, id, **options):
        approval = Approval.objects.filter(pk=id).select_related("approver").first()
        if approval is None:
            raise CommandError(f"there is no approval {id}")
        self.stdout.write(json.dumps({
            "id": approval.id, "approver": approval.approver.username, "requester": approval.requester,
            "title": approval.title, "amount": str(approval.amount), "currency": approval.currency,
            "status": approval.status, "createdAt": approval.created_at.isoformat(), "version": approval.version,
            "etag": approval.etag, "decided_by": approval.decided_by, "decided_via": approval.decided_via,
            "decided_at": approval.decided_at.isoformat() if approval.decided_at else None,
            "comment": approval.comment, "last_if_match": approval.last_if_match,
        }))
