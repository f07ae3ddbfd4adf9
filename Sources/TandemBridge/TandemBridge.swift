// TandemBridge is filled by its own issue (see DESIGN.md, "Shared container"); it builds on TandemVault.
import TandemVault
