from django.urls import path
from rest_framework.routers import SimpleRouter

from .views import ApprovalViewSet, OrderViewSet, WhoAmIView

router = SimpleRouter()
router.register("approvals", ApprovalViewSet, basename="approval")
router.register("orders", OrderViewSet, basename="order")

urlpatterns = [
    path("whoami/", WhoAmIView.as_view(), name="whoami"),
    *router.urls,
]
