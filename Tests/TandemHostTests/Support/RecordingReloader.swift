import TandemHost

/// A ``WidgetReloader`` that counts what it was asked to reload.
struct RecordingReloader: WidgetReloader {
    let reloads = Recorder<String>()

    func reloadTimelines(ofKind kind: String) async { reloads.append(kind) }

    func reloadAllTimelines() async { reloads.append("all") }
}
