"""Every SDK module that calls a required-reason API ships a privacy manifest that declares it.

App Store Connect refuses an upload whose code calls one of Apple's required-reason APIs without
an approved reason in a privacy manifest (ITMS-91053). A module under Sources/ that calls one
keeps `PrivacyInfo.xcprivacy` beside its sources, and Package.swift makes it a resource of the
module (on Apple platforms: elsewhere SwiftPM would give the module a resource accessor that
imports all of Foundation). This lists the calls in each module's Swift code (comments and string
literals left out) and fails, naming the file, the line and the category, when the module's
manifest is missing, does not declare the category, or gives no reason Apple lists for it; a
declared category that nothing calls fails too, so the manifest keeps saying what the code does.

The APIs and reasons are Apple's list, "Describing use of required reason API" (Bundle Resources).
"""
import plistlib
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from repository_layout import ROOT, swift_files

MANIFEST = "PrivacyInfo.xcprivacy"

# Apple's categories: the calls (as they appear in Swift) and the reason codes Apple accepts.
REQUIRED_REASON_APIS = {
    "NSPrivacyAccessedAPICategoryFileTimestamp": (
        [r"\b[fl]?stat(?:at)?\s*\(", r"\bf?getattrlist(?:bulk|at)?\s*\(",
         r"(?:\[\s*|FileAttributeKey)\.(?:creationDate|modificationDate)\b", r"\bfileModificationDate\b",
         r"\b(?:contentModificationDateKey|creationDateKey)\b", r"\bNSFile(?:Creation|Modification)Date\b",
         r"\bNSURL(?:ContentModification|Creation)DateKey\b"],
        {"DDA9.1", "C617.1", "3B52.1", "0A2A.1"},
    ),
    "NSPrivacyAccessedAPICategorySystemBootTime": (
        [r"\bsystemUptime\b", r"\bmach_absolute_time\s*\("],
        {"35F9.1", "8FFB.1", "3D61.1"},
    ),
    "NSPrivacyAccessedAPICategoryDiskSpace": (
        [r"\b(?:NSURL)?[vV]olume(?:AvailableCapacity(?:ForImportantUsage|ForOpportunisticUsage)?|TotalCapacity)Key\b",
         r"\.system(?:Free)?Size\b", r"\bNSFileSystem(?:Free)?Size\b", r"\bf?statv?fs\s*\(", r"\bf?getattrlist(?:at)?\s*\("],
        {"85F4.1", "E174.1", "7D9E.1", "B728.1"},
    ),
    "NSPrivacyAccessedAPICategoryActiveKeyboards": (
        [r"\bactiveInputModes\b"],
        {"3EC4.1", "54BD.1"},
    ),
    "NSPrivacyAccessedAPICategoryUserDefaults": (
        [r"\b(?:NS)?UserDefaults\b", r"@AppStorage\b"],
        {"CA92.1", "1C8F.1", "C56D.1", "AC6B.1"},
    ),
}
PATTERNS = {category: [re.compile(api) for api in apis] for category, (apis, _) in REQUIRED_REASON_APIS.items()}

# A comment, a string literal (single-line, or multi-line between triple quotes), or anything else.
SWIFT_TOKEN = re.compile(r'//[^\n]*|/\*.*?\*/|""".*?"""|"(?:\\.|[^"\\\n])*"', re.S)


@dataclass(frozen=True)
class Call:
    """A call of a required-reason API: where it is, what it calls and its category."""
    path: Path
    line: int
    api: str
    category: str


def code_only(text: str) -> str:
    """`text` with its comments and string literals blanked out, lines kept where they were."""
    return SWIFT_TOKEN.sub(lambda match: re.sub(r"[^\n]", " ", match.group()), text)


def calls(module: Path) -> list:
    """Every call of a required-reason API in the Swift files under `module`."""
    found = []
    for path in swift_files(module):
        code = code_only(path.read_text(encoding="utf-8"))
        for category, patterns in PATTERNS.items():
            for pattern in patterns:
                for match in pattern.finditer(code):
                    found.append(Call(path, code.count("\n", 0, match.start()) + 1, match.group().strip(" ([."), category))
    return sorted(set(found), key=lambda call: (call.path, call.line, call.category))


def declared(manifest: Path) -> dict:
    """The manifest's accessed-API categories, each with its reasons."""
    with manifest.open("rb") as file:
        document = plistlib.load(file)
    return {entry.get("NSPrivacyAccessedAPIType"): set(entry.get("NSPrivacyAccessedAPITypeReasons") or [])
            for entry in document.get("NSPrivacyAccessedAPITypes") or []}


def problems(sources: Path) -> list:
    """What is wrong with the manifests of the modules under `sources` (`Sources/` of a package):
    one line per call left undeclared, per category declared without a reason Apple lists, and
    per category declared that nothing calls."""
    found = []
    for module in sorted(path for path in sources.iterdir() if path.is_dir()):
        manifest = module / MANIFEST
        shown = manifest.relative_to(sources.parent)
        module_calls = calls(module)
        categories = declared(manifest) if manifest.exists() else {}
        for call in module_calls:
            where = f"{call.path.relative_to(sources.parent)}:{call.line}: {call.api} needs {call.category}"
            if not manifest.exists():
                found.append(f"{where}, and the module has no {shown}")
            elif call.category not in categories:
                found.append(f"{where}, which {shown} does not declare")
        for category, reasons in categories.items():
            if category not in REQUIRED_REASON_APIS:
                found.append(f"{shown}: {category} is not one of Apple's required-reason categories")
            elif not reasons or not reasons <= REQUIRED_REASON_APIS[category][1]:
                found.append(f"{shown}: {category} needs reasons from {sorted(REQUIRED_REASON_APIS[category][1])}, not {sorted(reasons)}")
            elif category not in {call.category for call in module_calls}:
                found.append(f"{shown}: declares {category}, which no source of {module.name} calls")
    return found


def test_every_required_reason_api_call_is_declared_by_its_modules_manifest():
    assert calls(ROOT / "Sources/TandemPlatform"), "no required-reason API call found where UntrustedFile calls fstat"
    found = problems(ROOT / "Sources")
    assert not found, "\n".join(found)


def test_every_manifest_is_a_complete_privacy_manifest():
    manifests = sorted((ROOT / "Sources").glob(f"*/{MANIFEST}"))
    assert manifests, "no privacy manifest under Sources/"
    for manifest in manifests:
        with manifest.open("rb") as file:
            document = plistlib.load(file)
        assert document.get("NSPrivacyTracking") is False, f"{manifest}: NSPrivacyTracking must be false"
        for key in ("NSPrivacyTrackingDomains", "NSPrivacyCollectedDataTypes", "NSPrivacyAccessedAPITypes"):
            assert isinstance(document.get(key), list), f"{manifest}: {key} must be an array"


def package_target(manifest_text: str, name: str) -> str:
    """The text of the `.target(name: "name", …)` declaration in Package.swift, parentheses balanced."""
    start = re.search(r'\.target(?=\(\s*name:\s*"' + re.escape(name) + '")', manifest_text)
    assert start, f'Package.swift declares no .target(name: "{name}")'
    depth = 0
    for end in range(start.end(), len(manifest_text)):
        depth += {"(": 1, ")": -1}.get(manifest_text[end], 0)
        if depth == 0:
            return manifest_text[start.start():end + 1]
    raise AssertionError(f'.target(name: "{name}") is not closed')


def unshipped(package: str, sources: Path) -> list:
    """The manifests under `sources` whose module's target in `package` (Package.swift's text)
    does not make them a resource (with `privacyManifest`, which leaves them out off Apple)."""
    return [f"Package.swift: {manifest.parent.name} does not ship {manifest.relative_to(sources.parent)} "
            "(exclude: privacyManifest.exclude, resources: privacyManifest.resources)"
            for manifest in sorted(sources.glob(f"*/{MANIFEST}"))
            if not {"exclude: privacyManifest.exclude", "resources: privacyManifest.resources"}
            <= set(re.findall(r"(?:exclude|resources): privacyManifest\.\w+", package_target(package, manifest.parent.name)))]


def test_every_manifest_is_a_resource_of_its_module():
    found = unshipped((ROOT / "Package.swift").read_text(encoding="utf-8"), ROOT / "Sources")
    assert not found, "\n".join(found)


# -- The check itself fails where it must.

@pytest.fixture
def sources(tmp_path) -> Path:
    """A copy of the SDK's Sources/ (Swift files and manifests only), to break."""
    copy = tmp_path / "Sources"
    shutil.copytree(ROOT / "Sources", copy, ignore=lambda folder, names: [
        name for name in names if not (Path(folder, name).is_dir() or name.endswith(".swift") or name == MANIFEST)])
    return copy


def without(manifest: Path, category: str):
    with manifest.open("rb") as file:
        document = plistlib.load(file)
    document["NSPrivacyAccessedAPITypes"] = [
        entry for entry in document["NSPrivacyAccessedAPITypes"] if entry["NSPrivacyAccessedAPIType"] != category]
    with manifest.open("wb") as file:
        plistlib.dump(document, file)


def test_a_category_removed_from_a_manifest_is_reported_with_each_call(sources):
    assert problems(sources) == []
    without(sources / "TandemSharedContainer" / MANIFEST, "NSPrivacyAccessedAPICategoryFileTimestamp")
    found = problems(sources)
    assert found, "removing the file timestamp declaration went unnoticed"
    assert all(line.startswith("Sources/TandemSharedContainer/") for line in found), "\n".join(found)
    assert any(line.startswith("Sources/TandemSharedContainer/Requests/RequestQueue.swift:") for line in found), "\n".join(found)
    assert all(line.endswith("needs NSPrivacyAccessedAPICategoryFileTimestamp, which "
                             "Sources/TandemSharedContainer/PrivacyInfo.xcprivacy does not declare") for line in found), "\n".join(found)


def test_a_missing_manifest_is_reported_with_each_call(sources):
    (sources / "TandemPlatform" / MANIFEST).unlink()
    found = problems(sources)
    assert any(line.startswith("Sources/TandemPlatform/Files/UntrustedFile.swift:") and "fstat needs NSPrivacyAccessedAPICategoryFileTimestamp" in line
               and line.endswith("the module has no Sources/TandemPlatform/PrivacyInfo.xcprivacy") for line in found), "\n".join(found)


def test_a_manifest_package_swift_does_not_ship_is_reported(sources):
    package = (ROOT / "Package.swift").read_text(encoding="utf-8")
    target = package_target(package, "TandemSharedContainer")
    assert unshipped(package.replace(target, target.replace("resources: privacyManifest.resources", "resources: []")), sources) == [
        "Package.swift: TandemSharedContainer does not ship Sources/TandemSharedContainer/PrivacyInfo.xcprivacy "
        "(exclude: privacyManifest.exclude, resources: privacyManifest.resources)"]


def test_a_new_call_in_a_module_without_a_manifest_is_reported(sources):
    (sources / "TandemWidgetModel" / "Seen.swift").write_text('let seen = UserDefaults(suiteName: "group.example")\n')
    assert problems(sources) == [
        "Sources/TandemWidgetModel/Seen.swift:1: UserDefaults needs NSPrivacyAccessedAPICategoryUserDefaults, "
        "and the module has no Sources/TandemWidgetModel/PrivacyInfo.xcprivacy"]


def test_a_category_nothing_calls_and_a_reason_apple_does_not_list_are_reported(tmp_path):
    module = tmp_path / "Sources" / "Module"
    module.mkdir(parents=True)
    (module / "Uptime.swift").write_text("let up = ProcessInfo.processInfo.systemUptime\n")
    document = {"NSPrivacyTracking": False, "NSPrivacyTrackingDomains": [], "NSPrivacyCollectedDataTypes": [],
                "NSPrivacyAccessedAPITypes": [
                    {"NSPrivacyAccessedAPIType": "NSPrivacyAccessedAPICategorySystemBootTime", "NSPrivacyAccessedAPITypeReasons": ["C617.1"]},
                    {"NSPrivacyAccessedAPIType": "NSPrivacyAccessedAPICategoryDiskSpace", "NSPrivacyAccessedAPITypeReasons": ["E174.1"]}]}
    with (module / MANIFEST).open("wb") as file:
        plistlib.dump(document, file)
    assert problems(tmp_path / "Sources") == [
        "Sources/Module/PrivacyInfo.xcprivacy: NSPrivacyAccessedAPICategorySystemBootTime needs reasons from "
        "['35F9.1', '3D61.1', '8FFB.1'], not ['C617.1']",
        "Sources/Module/PrivacyInfo.xcprivacy: declares NSPrivacyAccessedAPICategoryDiskSpace, which no source of Module calls",
    ]


@pytest.mark.parametrize("code, category", [
    ("guard fstat(descriptor, &status) == 0", "NSPrivacyAccessedAPICategoryFileTimestamp"),
    ("lstat(path, &status)", "NSPrivacyAccessedAPICategoryFileTimestamp"),
    ("let modified = attributes[.modificationDate] as? Date", "NSPrivacyAccessedAPICategoryFileTimestamp"),
    ("try url.resourceValues(forKeys: [.contentModificationDateKey])", "NSPrivacyAccessedAPICategoryFileTimestamp"),
    ("let up = ProcessInfo.processInfo.systemUptime", "NSPrivacyAccessedAPICategorySystemBootTime"),
    ("let start = mach_absolute_time()", "NSPrivacyAccessedAPICategorySystemBootTime"),
    ("try url.resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey])", "NSPrivacyAccessedAPICategoryDiskSpace"),
    ("statfs(path, &info)", "NSPrivacyAccessedAPICategoryDiskSpace"),
    ("let free = attributes[.systemFreeSize]", "NSPrivacyAccessedAPICategoryDiskSpace"),
    ("let modes = UITextInputMode.activeInputModes", "NSPrivacyAccessedAPICategoryActiveKeyboards"),
    ("UserDefaults.standard.set(true, forKey: \"seen\")", "NSPrivacyAccessedAPICategoryUserDefaults"),
    ("@AppStorage(\"seen\") var seen = false", "NSPrivacyAccessedAPICategoryUserDefaults"),
])
def test_each_listed_call_is_recognised(tmp_path, code, category):
    (tmp_path / "Call.swift").write_text(f"func f() {{\n    {code}\n}}\n")
    assert [(call.line, call.category) for call in calls(tmp_path)] == [(2, category)]


def test_comments_strings_and_look_alikes_are_not_calls(tmp_path):
    (tmp_path / "Quiet.swift").write_text(
        '/// One `open`, one `fstat(2)`, one `read`.\n'
        'let status = container.status()   // lstat(path) is not called here\n'
        'let message = "stat(\\"x\\") failed"\n'
        '/* UserDefaults\n   systemUptime */\n'
        'let text = """\n    mach_absolute_time()\n    """\n'
        'let date = token.modificationDate\n')
    assert calls(tmp_path) == []
