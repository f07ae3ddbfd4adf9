#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemWidgetModel

/// Turning an outcome into the entries a person sees, with tap links built by `WidgetLink`.
extension DataWidgetProvider {
    /// The footer of a widget that has asked for rows and has none yet.
    static let waitingFooter = "waiting for the app to update"
    /// The footer of a widget whose request only the app in the foreground can answer.
    static let openAppFooter = "open the app to update"

    /// The timeline of `outcome` for `configuration` in `family` at `now`.
    func entries(for outcome: DataWidgetOutcome, configuration: DataWidgetConfiguration, family: WidgetFamily, now: Date) -> Timeline<WidgetContentEntry> {
        let links = Links(provider: self, configuration: configuration, family: family)
        let title = configuration.title
        let last = memory.shown(configuration)
        switch outcome {
        case .signedOut:
            let content = WidgetContent(title: title, rows: [], state: .signedOut, footer: WidgetFooter.text(for: .signedOut), primaryLink: links.url(target: "sign-in"))
            return Timeline(entries: [WidgetContentEntry(date: now, content: content)], policy: .never)
        case .reauthRequired(let reason):
            let state = WidgetState.reauthRequired(reason: reason)
            let content = WidgetContent(title: title, rows: [], state: state, footer: WidgetFooter.text(for: state), primaryLink: links.url(target: "sign-in"))
            return Timeline(entries: [WidgetContentEntry(date: now, content: content)], policy: .never)
        case .refused(let refusal, let retryAt):
            // Nothing read before is shown: the backend's "no" is about this user now.
            let content = WidgetContent(title: title, rows: [], state: .unavailable, footer: refusal.message, primaryLink: links.url(target: nil))
            return Timeline(entries: [WidgetContentEntry(date: now, content: content)], policy: .after(retryAt))
        case .unavailable(let retryAt):
            let content = WidgetContent(title: title, rows: links.rows(last?.rows ?? []), state: .unavailable, footer: WidgetFooter.text(for: .unavailable), primaryLink: links.url(target: nil))
            return Timeline(entries: [WidgetContentEntry(date: now, content: content)], policy: .after(retryAt))
        case .fresh(let shown, let expiresAt):
            let fresh = WidgetContent(title: title, rows: links.rows(shown.rows), state: .fresh, updatedAt: shown.fetchedAt, now: now, primaryLink: links.url(target: nil))
            var stale = fresh
            stale.state = .stale(age: expiresAt.timeIntervalSince(shown.fetchedAt))
            stale.footer = WidgetFooter.text(for: stale.state)
            return Timeline(
                entries: [WidgetContentEntry(date: now, content: fresh), WidgetContentEntry(date: expiresAt, content: stale)],
                policy: .after(expiresAt))
        case .stale(let retryAt, let waiting, let needsApp):
            guard let last else {
                let footer = needsApp ? Self.openAppFooter : waiting ? Self.waitingFooter : WidgetFooter.text(for: .unavailable)
                let content = WidgetContent(title: title, rows: [], state: .unavailable, footer: footer, primaryLink: links.url(target: nil))
                return Timeline(entries: [WidgetContentEntry(date: now, content: content)], policy: Self.policy(retryAt))
            }
            let content = WidgetContent(title: title, rows: links.rows(last.rows), state: .fresh, footer: "", primaryLink: links.url(target: nil))
            // Waiting for the host's reload: a day of ageing entries, the most a timeline holds.
            var entries = Self.aging(content, fetchedAt: last.fetchedAt, from: now, until: retryAt ?? now.addingTimeInterval(86_400))
            if needsApp {
                for index in entries.indices { entries[index].content.footer += " · \(Self.openAppFooter)" }
            }
            return Timeline(entries: entries, policy: Self.policy(retryAt))
        }
    }

    /// Reload at `retryAt`, or only when the host reloads the widget.
    static func policy(_ retryAt: Date?) -> ReloadPolicy {
        retryAt.map(ReloadPolicy.after) ?? .never
    }

    /// How relevant the fresh entry that brings new rows is (a smart stack rotates to the
    /// widget whose current entry scores highest): until the next entry, when the rows go stale.
    public static let newRowsRelevance = TimelineEntryRelevance(score: 1)

    /// `timeline` with ``newRowsRelevance`` on its first entry when that entry shows fresh rows
    /// that the previous fresh timeline of `configuration` did not; every other entry has none.
    func markingNewRows(_ timeline: Timeline<WidgetContentEntry>, of configuration: DataWidgetConfiguration) -> Timeline<WidgetContentEntry> {
        guard let first = timeline.entries.first, first.content.state == .fresh, !first.content.rows.isEmpty,
            memory.announce(first.content.rows, for: configuration)
        else { return timeline }
        var marked = timeline
        marked.entries[0].relevance = Self.newRowsRelevance
        return marked
    }

    /// `content` marked stale at `now` and again at each whole hour of its age before `end`
    /// (at most a day of them), so "updated 1 h ago" becomes "2 h ago" without a reload.
    static func aging(_ content: WidgetContent, fetchedAt: Date, from now: Date, until end: Date) -> [WidgetContentEntry] {
        let firstHour = Int(max(0, now.timeIntervalSince(fetchedAt)) / 3_600) + 1
        let hours = (firstHour..<firstHour + 24).map { fetchedAt.addingTimeInterval(TimeInterval($0 * 3_600)) }.filter { $0 < end }
        return ([now] + hours).map { date in
            var aged = content
            aged.state = .stale(age: max(0, date.timeIntervalSince(fetchedAt)))
            aged.footer = WidgetFooter.text(for: aged.state)
            return WidgetContentEntry(date: date, content: aged)
        }
    }

    /// The tap links of one instance: the widget's own and one per row (aimed at the row's key).
    struct Links {
        let provider: DataWidgetProvider
        let configuration: DataWidgetConfiguration
        let family: WidgetFamily

        /// The link aimed at `target`, or `nil` (logged) when it cannot be built.
        func url(target: String?) -> URL? {
            do throws(DeepLinkError) {
                return try WidgetLink(scheme: provider.scheme, kind: provider.kind, family: family, configuration: configuration, target: target).url()
            } catch {
                provider.logger.notice("no tap link for this target", metadata: ["error": "\(error)"])
                return nil
            }
        }

        /// The first of `rows` the family can show (`WidgetFamily/rowCapacity`: a timeline
        /// holds a dozen rows at most, not the hundreds a configuration may fetch), each linked
        /// to its key.
        func rows(_ rows: [WidgetRow]) -> [WidgetRow] {
            rows.prefix(family.rowCapacity).map { row in
                var row = row
                row.link = url(target: row.key)
                return row
            }
        }
    }
}
