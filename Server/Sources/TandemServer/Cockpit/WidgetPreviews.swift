import Foundation
import TandemProtocol
import TandemWidgetModel
import TandemWidgetRendering

/// Previews of the widgets an app's users have placed — the families and configurations their
/// taps of the last seven days name — drawn by the SDK's `WidgetRenderer` with this server's own
/// current rows, as the widget would show them fresh.
///
/// The configurations come from clients' analytics, so they are treated as untrusted: one that
/// does not decode, names no family, or asks for more rows than a widget shows is skipped or
/// clamped, one whose title is longer than a widget's or hides text (control, separator or
/// bidirectional characters) is skipped, and at most ``maximumPreviews`` are drawn. Captions
/// say the configuration is as clients reported it.
enum WidgetPreviews {
    /// One preview: what it shows and its SVG (made by the renderer, which escapes every text).
    struct Preview: Sendable {
        let caption: String
        let svg: String
    }

    static let maximumPreviews = 6
    /// The longest widget title a preview shows.
    static let maximumTitleLength = 40

    /// Whether `title` could be a widget's title: short, and hiding nothing.
    static func isPlausibleTitle(_ title: String) -> Bool {
        title.count <= maximumTitleLength && !title.unicodeScalars.contains(where: \.hidesText)
    }

    /// The previews for `counts`, most tapped first, drawn as of `now`.
    static func make(from counts: [AnalyticsCount], storage: BusinessDataStore, now: Date) async throws(StorageError) -> [Preview] {
        var seen = Set<String>()
        var previews: [Preview] = []
        for count in counts.sorted(by: { $0.count > $1.count }) where previews.count < maximumPreviews {
            guard let family = count.family.flatMap(WidgetFamily.init(rawValue:)),
                  let json = count.configuration,
                  let configuration = try? JSONDecoder().decode(DataWidgetConfiguration.self, from: Data(json.utf8)),
                  Self.isPlausibleTitle(configuration.title),
                  seen.insert("\(family.rawValue) \(json)").inserted
            else { continue }
            let limit = min(max(configuration.limit, 1), 20)
            guard let page = try await storage.entityPage(
                destination: configuration.destination, entitySet: configuration.entitySet, offset: 0, limit: limit)
            else { continue }
            let body = Data("{\"items\":[\(page.rows.joined(separator: ","))],\"total\":\(page.total)}".utf8)
            guard let rows = try? EntitySetPage(json: body).rows(
                keyField: configuration.keyField, valueField: configuration.valueField, entitySet: configuration.entitySet)
            else { continue }
            let content = WidgetContent(title: configuration.title, rows: Array(rows.prefix(limit)), state: .fresh, updatedAt: now, now: now)
            previews.append(Preview(
                caption: "\(TapChart.kindLabel(count.kind)) · \(family.rawValue) · “\(configuration.title)” as clients reported it",
                svg: WidgetRenderer().svg(content, family: family)))
        }
        return previews
    }
}
