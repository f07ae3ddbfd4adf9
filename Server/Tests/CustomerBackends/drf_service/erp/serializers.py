from rest_framework import serializers

from .models import Approval, Order


class ApprovalSerializer(serializers.ModelSerializer):
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    etag = serializers.CharField(read_only=True)

    class Meta:
        model = Approval
        fields = ["id", "title", "requester", "amount", "currency", "status", "createdAt", "etag"]
        read_only_fields = fields


class OrderSerializer(serializers.ModelSerializer):
    orderedAt = serializers.DateTimeField(source="ordered_at", read_only=True)

    class Meta:
        model = Order
        fields = ["id", "customer", "amount", "currency", "status", "orderedAt"]
        read_only_fields = fields


class DecisionSerializer(serializers.Serializer):
    comment = serializers.CharField(required=False, allow_blank=True, max_length=2000, default="")
