#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemSharedContainer
import TandemWidgetModel

/// When a reload asks for the next one beyond what its rows say, so that a widget spends
/// WidgetKit's daily budget once: a direct-mode widget that pushes reach asks only for a safety
/// net, and a widget that cannot read its data waits longer after each try. Both are kept per
/// instance in the container (`SharedContainer.widgetReloads`): iOS discards the widget's
/// process between reloads. The rules and their numbers: the article "Building a business widget".
extension DataWidgetProvider {
    /// How much sooner than it asked a reload must come to count as a push's (or the host's):
    /// WidgetKit makes a due reload on time or a little late, never early.
    static let earlyReloadTolerance: TimeInterval = 60

    /// The instance a reload is for, which names its records in the container. Two widgets of
    /// the same kind, family and configuration share them, as they share their timeline.
    struct ReloadedInstance: Encodable {
        let kind: String
        let family: WidgetFamily
        let configuration: DataWidgetConfiguration
    }

    /// What a direct-mode reload learnt about pushes, to be recorded with the reload it asks for.
    struct PushPacing {
        let instance: ReloadedInstance
        let sealingKey: SharedSealingKey
        /// Whether pushes still arrive: the last reload that came before its time, or else the
        /// registration, is less than the safety net ago.
        let isPushed: Bool
        let lastExternalReloadAt: Date?
    }

    // MARK: - Pushes

    /// Whether pushes reach `instance` at `now`, or `nil` when the host says of no push
    /// registration (no status, or one that does not open under `sealingKey`: forged, damaged,
    /// unreadable): the widget then polls exactly as it always has, and records nothing.
    func pushPacing(of instance: ReloadedInstance, sealingKey: SharedSealingKey, now: Date) -> PushPacing? {
        let status: WidgetPushStatus?
        do {
            status = try container.widgetPushStatus.read(sealingKey: sealingKey)
        } catch {
            logger.notice("ignoring a push status that cannot be read", metadata: ["error": "\(error)"])
            return nil
        }
        guard let status else { return nil }
        let previous: WidgetReloadPacing?
        do {
            previous = try container.widgetReloads.pacing(of: instance, sealingKey: sealingKey)
        } catch {
            logger.notice("ignoring reload pacing that cannot be read", metadata: ["error": "\(error)"])
            previous = nil
        }
        // No record: the first reload of this instance, not a push's. A record that asked for no
        // reload: whatever reloads it is a push or the host.
        let isExternal = previous.map { previous in
            previous.scheduledReloadAt.map { now < $0.addingTimeInterval(-Self.earlyReloadTolerance) } ?? true
        } ?? false
        let lastExternalReloadAt = isExternal ? now : previous?.lastExternalReloadAt
        // A reload from before this registration says nothing of it; a date ahead of the clock
        // (the clock was set back) counts as now.
        let heardFrom = min(now, max(status.registeredAt, lastExternalReloadAt ?? status.registeredAt))
        return PushPacing(
            instance: instance, sealingKey: sealingKey, isPushed: now.timeIntervalSince(heardFrom) < schedule.pushSafetyNet,
            lastExternalReloadAt: lastExternalReloadAt)
    }

    /// `outcome` as `pacing` makes it: a pushed widget's fresh rows stay fresh until the safety
    /// net, when it asks for its next reload; any other outcome is kept. The reload it asks for is
    /// recorded; when it cannot be, the widget polls (`outcome` as it is), since it could not
    /// tell a push from its own reload next time.
    func paced(_ outcome: DataWidgetOutcome, by pacing: PushPacing, now: Date) -> DataWidgetOutcome {
        var paced = outcome
        if pacing.isPushed, case .fresh(let shown, let expiresAt) = outcome {
            paced = .fresh(shown, expiresAt: max(expiresAt, now.addingTimeInterval(schedule.pushSafetyNet)))
        }
        let record = WidgetReloadPacing(scheduledReloadAt: paced.reloadDate, lastExternalReloadAt: pacing.lastExternalReloadAt)
        do {
            try container.widgetReloads.setPacing(record, of: pacing.instance, sealingKey: pacing.sealingKey)
        } catch {
            logger.warning("cannot write the reload pacing; polling", metadata: ["error": "\(error)"])
            return outcome
        }
        return paced
    }

    // MARK: - Unavailable

    /// Seconds until the next try after a reload of `instance` that cannot read its data:
    /// ``DataWidgetSchedule/retry`` doubled for each such reload before it in a row, up to
    /// ``DataWidgetSchedule/maximumUnavailableRetry``. The count is kept where it can be read
    /// and written before the first unlock; when it cannot be written the wait is `retry`.
    /// Without an instance (a look, not a reload) nothing is counted.
    func unavailableRetry(of instance: ReloadedInstance?) -> TimeInterval {
        guard let instance else { return schedule.retry }
        let reloads = container.widgetReloads
        let count: Int
        do {
            count = try reloads.unavailableCount(of: instance)
        } catch {
            logger.notice("ignoring an unavailable count that cannot be read", metadata: ["error": "\(error)"])
            count = 0
        }
        do {
            try reloads.setUnavailableCount(count + 1, of: instance)
        } catch {
            logger.notice("cannot count the unavailable reload", metadata: ["error": "\(error)"])
            return schedule.retry
        }
        return schedule.unavailableRetry(afterUnavailable: count)
    }

    /// Forgets the unavailable reloads of `instance`: this one read its data.
    func resetUnavailableCount(of instance: ReloadedInstance) {
        do {
            try container.widgetReloads.removeUnavailableCount(of: instance)
        } catch {
            logger.notice("cannot reset the unavailable count", metadata: ["error": "\(error)"])
        }
    }
}
