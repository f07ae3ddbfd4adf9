"""Intents that decide an item run only on an unlocked device (issue 37, S4-06).

App Intents' default `authenticationPolicy` is `.alwaysAllowed`: the intent runs on a locked
phone, so whoever holds one could approve from StandBy, a locked iPad's Lock Screen or Siri.
Every `AppIntent` the SDK declares must say `.requiresAuthentication`, unless it is listed below
with the reason it decides nothing. CI has no iOS SDK; this reads the sources.
"""
import re

from repository_layout import SOURCE_ROOTS, swift_files

# Intents that may keep the default, and why.
DECIDE_NOTHING = {
    "ShowApprovalsIntent": "opens the app at its approvals; the app asks for the passcode or Face ID",
}

INTENT = re.compile(r"^\s*(?:public\s+|package\s+|internal\s+)?struct\s+(\w+)\s*:\s*([^{]*)\{", re.M)
REQUIRES_AUTHENTICATION = re.compile(
    r"static\s+var\s+authenticationPolicy\s*:\s*IntentAuthenticationPolicy\s*\{\s*\.requiresAuthentication\s*\}")


def intents(text: str):
    """`(name, body)` of each struct in `text` that conforms to `AppIntent` directly."""
    found = []
    for match in INTENT.finditer(text):
        conformances = [name.strip() for name in match.group(2).split(",")]
        if "AppIntent" not in conformances:
            continue
        # The body: up to the matching closing brace.
        depth, end = 1, match.end()
        while depth and end < len(text):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        found.append((match.group(1), text[match.end():end]))
    return found


def violations(roots) -> list:
    """`(file, intent)` for each intent under `roots` that may run on a locked device."""
    found = []
    for root in roots:
        for path in swift_files(root):
            for name, body in intents(path.read_text(encoding="utf-8")):
                if name not in DECIDE_NOTHING and not REQUIRES_AUTHENTICATION.search(body):
                    found.append((path, name))
    return found


def test_every_intent_that_decides_requires_an_unlocked_device():
    names = {name for root in SOURCE_ROOTS for path in swift_files(root) for name, _ in intents(path.read_text(encoding="utf-8"))}
    assert {"ItemActionIntent", "ApproveItemIntent"} <= names, f"intents found: {sorted(names)}: is the tree where this test looks?"
    problems = [f"{path}: {name} keeps authenticationPolicy .alwaysAllowed (runs on a locked phone)" for path, name in violations(SOURCE_ROOTS)]
    assert not problems, "\n".join(problems)


def test_an_intent_without_the_policy_is_reported(tmp_path):
    apple = tmp_path / "Sources/Widgets/Apple"
    apple.mkdir(parents=True)
    (apple / "Decide.swift").write_text(
        "public struct DecideIntent: AppIntent {\n    func perform() async throws -> some IntentResult { .result() }\n}\n")
    (apple / "Locked.swift").write_text(
        "struct LockedIntent: AppIntent, Sendable {\n"
        "    static var authenticationPolicy: IntentAuthenticationPolicy { .requiresAuthentication }\n}\n")
    (apple / "Show.swift").write_text("public struct ShowApprovalsIntent: AppIntent {}\n")
    (apple / "Configuration.swift").write_text("struct Configuration: WidgetConfigurationIntent {}\n")
    assert [name for _, name in violations([tmp_path / "Sources"])] == ["DecideIntent"]
