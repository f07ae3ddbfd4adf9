// TandemAuth is filled by its own issue (see DESIGN.md, "Auth client"); it builds on TandemBridge.
import TandemBridge
