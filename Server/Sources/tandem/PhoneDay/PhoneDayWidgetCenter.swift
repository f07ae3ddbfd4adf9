import TandemHost
import TandemWidgetSimulator

/// `WidgetCenter` on the simulated phone: the host's reloads go to the phone day's widgets.
struct PhoneDayWidgetCenter: WidgetReloader {
    let reloads: WidgetReloads

    func reloadTimelines(ofKind kind: String) async {
        await reloads.reloadTimelines(ofKind: kind)
    }

    func reloadAllTimelines() async {
        await reloads.reloadAllTimelines()
    }
}
