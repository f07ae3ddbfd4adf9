// TandemWidgets is filled by its own issue (see DESIGN.md, "Widgets"); it builds on TandemAuth.
import TandemAuth
