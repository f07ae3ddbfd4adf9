import TandemProtocol
import TandemWidgetModel

/// The cockpit's chart of widget taps: one horizontal bar per widget kind and family, longest
/// first, drawn as SVG on the server (no script, no external asset). Every label is escaped.
///
/// Kinds and families come from clients' analytics (anyone holding the app's credentials can
/// send any text), so a label shows only what looks like one: a family the SDK knows, a kind
/// that is a short identifier; anything else is counted under "other kind" or "other family",
/// so no sender can put a sentence in front of an administrator.
struct TapChart: Sendable {
    /// One bar.
    struct Bar: Sendable, Equatable {
        let label: String
        let count: Int
    }

    let bars: [Bar]

    /// The taps in `counts`, added up by kind and family (configurations are summed).
    init(_ counts: [AnalyticsCount]) {
        var totals: [String: Int] = [:]
        for count in counts {
            totals["\(Self.kindLabel(count.kind)) · \(Self.familyLabel(count.family))", default: 0] += count.count
        }
        bars = totals.map { Bar(label: $0.key, count: $0.value) }.sorted { ($0.count, $1.label) > ($1.count, $0.label) }
    }

    /// The chart, `width` units wide (it scales to its container).
    func svg(width: Int = 640) -> String {
        let rowHeight = 28
        let labelWidth = 260
        let height = max(1, bars.count) * rowHeight + 8
        let largest = max(1, bars.map(\.count).max() ?? 1)
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(width) \(height)" role="img" aria-label="Widget taps by kind and family" \
            class="chart"><title>Widget taps by kind and family</title>
            """
        if bars.isEmpty {
            out += ##"<text x="0" y="20" font-size="14" fill="#5f6368">No widget taps in the last seven days.</text>"##
        }
        for (index, bar) in bars.enumerated() {
            let y = index * rowHeight + 4
            let length = max(2, (width - labelWidth - 60) * bar.count / largest)
            out += """
                <g><text x="0" y="\(y + 17)" font-size="13" fill="currentColor">\(Self.escape(bar.label))</text>\
                <rect x="\(labelWidth)" y="\(y + 4)" width="\(length)" height="18" rx="3" fill="#1a73e8"/>\
                <text x="\(labelWidth + length + 6)" y="\(y + 17)" font-size="13" fill="currentColor">\(bar.count)</text></g>
                """
        }
        return out + "</svg>"
    }

    /// The longest widget kind a label shows.
    static let maximumKindLength = 40

    /// `kind` as a label: an identifier (`[A-Za-z0-9._-]`, at most ``maximumKindLength``) as
    /// is, anything else "other kind".
    static func kindLabel(_ kind: String?) -> String {
        guard let kind else { return "unknown kind" }
        return kind.utf8.count <= maximumKindLength && EventBatchRules.isValidName(kind) ? kind : "other kind"
    }

    /// `family` as a label: a widget family the SDK knows, anything else "other family".
    static func familyLabel(_ family: String?) -> String {
        guard let family else { return "unknown family" }
        return WidgetFamily(rawValue: family)?.rawValue ?? "other family"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
