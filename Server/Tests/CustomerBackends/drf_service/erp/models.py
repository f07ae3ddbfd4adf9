from django.conf import settings
from django.db import models


class Approval(models.Model):
    """A request waiting for its approver's decision. `version` goes up with every change; it is
    the item's ETag."""

    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REJECTED = "rejected"

    id = models.CharField(primary_key=True, max_length=32)
    approver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="approvals")
    requester = models.CharField(max_length=150)
    title = models.CharField(max_length=200)
    amount = models.DecimalField(max_digits=14, decimal_places=2)
    currency = models.CharField(max_length=3)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField()
    version = models.PositiveIntegerField(default=1)
    decided_by = models.CharField(max_length=150, null=True, blank=True)
    decided_via = models.CharField(max_length=200, null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    comment = models.TextField(blank=True, default="")
    last_if_match = models.CharField(max_length=100, null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return f"{self.id} {self.title} ({self.status})"

    @property
    def etag(self) -> str:
        return f'"{self.version}"'


class Order(models.Model):
    id = models.CharField(primary_key=True, max_length=32)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="orders")
    customer = models.CharField(max_length=200)
    amount = models.DecimalField(max_digits=14, decimal_places=2)
    currency = models.CharField(max_length=3)
    status = models.CharField(max_length=32)
    ordered_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return f"{self.id} {self.customer}"


class IdempotentResponse(models.Model):
    """The answer given to a user's request with an `Idempotency-Key`, replayed when the same key
    comes again for the same request."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=255)
    approval_id = models.CharField(max_length=32)
    action = models.CharField(max_length=16)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    etag = models.CharField(max_length=100, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="one_response_per_user_and_key")]
