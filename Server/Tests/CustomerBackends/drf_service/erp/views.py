import hashlib

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.http import parse_etags, quote_etag
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from .models import Approval, IdempotentResponse, Order
from .serializers import ApprovalSerializer, DecisionSerializer, OrderSerializer


def acting_party(token) -> str | None:
    """Who acts for the user, per the token's `act` claim (RFC 8693): the `sub` of it, or None
    when the user called themselves."""
    act = token.get("act") if token is not None else None
    return act.get("sub") if isinstance(act, dict) else None


class IsApprover(BasePermission):
    message = "Only members of the group 'approvers' decide approvals."

    def has_permission(self, request, view):
        return request.user.groups.filter(name="approvers").exists()


class ConditionalListMixin:
    """A list answered 200 carries a strong ETag (a hash of its exact body) and
    `Cache-Control: private, no-cache` (or `private, max-age=N` with ERP_CACHE_MAX_AGE=N, as
    `make bench` serves it); a GET whose If-None-Match names that ETag gets 304."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if request.method == "GET" and response.status_code == status.HTTP_200_OK:
            if settings.ERP_CACHE_MAX_AGE is None:
                patch_cache_control(response, private=True, no_cache=True)
            else:
                patch_cache_control(response, private=True, max_age=settings.ERP_CACHE_MAX_AGE)

            def conditional(rendered):
                rendered["ETag"] = quote_etag(hashlib.sha256(rendered.content).hexdigest())
                return get_conditional_response(request, etag=rendered["ETag"], response=rendered)

            response.add_post_render_callback(conditional)
        return response


class ApprovalViewSet(ConditionalListMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """The approvals the caller decides. Decisions are conditional (If-Match: the item's etag)
    and idempotent (Idempotency-Key)."""

    serializer_class = ApprovalSerializer
    permission_classes = [IsAuthenticated, IsApprover]

    def get_queryset(self):
        return Approval.objects.filter(approver=self.request.user).order_by("id")

    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        return self.decide(request, pk, "approve", Approval.Status.APPROVED)

    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        return self.decide(request, pk, "reject", Approval.Status.REJECTED)

    def decide(self, request, pk, action_name, outcome):
        if_match = request.headers.get("If-Match", "").strip()
        if not if_match:
            return Response({"detail": "If-Match is required: send the approval's etag."},
                            status=status.HTTP_428_PRECONDITION_REQUIRED)
        key = request.headers.get("Idempotency-Key", "").strip()
        if not key or len(key) > 255:
            return Response({"detail": "An Idempotency-Key header (up to 255 characters) is required."},
                            status=status.HTTP_400_BAD_REQUEST)
        decision = DecisionSerializer(data=request.data or {})
        decision.is_valid(raise_exception=True)

        with transaction.atomic():
            earlier = IdempotentResponse.objects.filter(user=request.user, key=key).first()
            if earlier is not None:
                if (earlier.approval_id, earlier.action) != (pk, action_name):
                    return Response({"detail": "This Idempotency-Key was used for another request."},
                                    status=status.HTTP_422_UNPROCESSABLE_ENTITY)
                return Response(earlier.body, status=earlier.status_code,
                                headers={"ETag": earlier.etag, "Idempotent-Replayed": "true"})

            approval = self.get_object()
            if approval.etag not in parse_etags(if_match):
                return Response({"detail": "The approval has changed: fetch it again."},
                                status=status.HTTP_412_PRECONDITION_FAILED, headers={"ETag": approval.etag})
            if approval.status != Approval.Status.PENDING:
                return Response({"detail": f"{approval.id} is already {approval.status}."},
                                status=status.HTTP_409_CONFLICT, headers={"ETag": approval.etag})

            approval.status = outcome
            approval.decided_by = request.user.username
            approval.decided_via = acting_party(request.auth)
            approval.decided_at = timezone.now()
            approval.comment = decision.validated_data["comment"]
            approval.last_if_match = if_match
            approval.version += 1
            approval.save()

            body = dict(ApprovalSerializer(approval).data)
            IdempotentResponse.objects.create(user=request.user, key=key, approval_id=pk, action=action_name,
                                              status_code=status.HTTP_200_OK, body=body, etag=approval.etag)
        return Response(body, headers={"ETag": approval.etag})


class OrderViewSet(ConditionalListMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    """The caller's orders."""

    serializer_class = OrderSerializer

    def get_queryset(self):
        return Order.objects.filter(owner=self.request.user).order_by("id")


class WhoAmIView(APIView):
    def get(self, request):
        return Response({"username": request.user.username, "via": acting_party(request.auth)})
