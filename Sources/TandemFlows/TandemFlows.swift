// TandemFlows is filled by its own issue (see DESIGN.md, "Flows"); it builds on TandemAuth.
import TandemAuth
