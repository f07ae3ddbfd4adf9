#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemWidgetModel

/// Lays out the SVG of every sample × family on one HTML page, side by side, so a person (or
/// a headless browser in CI) can see every state of every family at once; below them, an
/// "Actions" section shows rows with buttons and every action state in the families that show
/// buttons (``actions``, by default ``standardActionSamples()``).
///
/// ```swift
/// let gallery = WidgetGallery(samples: WidgetGallery.standardSamples(now: now))
/// let page = gallery.html()                 // a String; no file is written
/// try gallery.write(to: outputDirectory)   // index.html and one .svg per cell
/// ```
public struct WidgetGallery: Sendable {
    /// One row of the gallery: a name and the content drawn in every family.
    public struct Sample: Hashable, Sendable {
        /// A short name, also used in file names ("stale").
        public var name: String
        /// The content.
        public var content: WidgetContent

        /// A sample called `name` showing `content`.
        public init(name: String, content: WidgetContent) {
            self.name = name
            self.content = content
        }
    }

    /// The rows of the page, top to bottom.
    public var samples: [Sample]
    /// The columns of the page, left to right.
    public var families: [WidgetFamily]
    /// The rows of the "Actions" section, drawn in the families of ``families`` that show action
    /// buttons (`WidgetFamily/showsActions`); empty for no such section.
    public var actions: [Sample]

    /// A gallery of `samples` drawn in `families`, followed by an "Actions" section.
    ///
    /// - Parameters:
    ///   - samples: The rows of the page, one per widget state.
    ///   - families: Its columns (default: all).
    ///   - actions: The rows of the "Actions" section (default: ``standardActionSamples()``;
    ///     pass `[]` to leave the section out).
    public init(samples: [Sample], families: [WidgetFamily] = WidgetFamily.allCases, actions: [Sample] = standardActionSamples()) {
        self.samples = samples
        self.families = families
        self.actions = actions
    }

    /// The columns of the "Actions" section: the families that show action buttons.
    public var actionFamilies: [WidgetFamily] { families.filter(\.showsActions) }

    /// The page: a self-contained HTML document with the SVGs inline.
    public func html() -> String {
        let renderer = WidgetRenderer()
        var page = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Tandem widget gallery</title>
        <style>body{font-family:-apple-system,Helvetica,Arial,sans-serif;background:#F2F2F7;margin:24px}
        table{border-spacing:16px}th{text-align:left;font-weight:600;color:#3A3A3C}td{vertical-align:top}</style>
        </head><body><h1>Widget gallery</h1><table><tr><th>state</th>
        """
        page += table(samples, in: families, renderer: renderer)
        if !actions.isEmpty, !actionFamilies.isEmpty {
            page += "</table>\n<h2>Actions</h2><table><tr><th>action state</th>"
            page += table(actions, in: actionFamilies, renderer: renderer)
        }
        return page + "</table></body></html>\n"
    }

    /// The rest of a table whose first header cell is written: the families' header cells, then
    /// one row per sample.
    private func table(_ samples: [Sample], in families: [WidgetFamily], renderer: WidgetRenderer) -> String {
        var rows = families.map { "<th>\($0.rawValue)</th>" }.joined() + "</tr>\n"
        for sample in samples {
            rows += "<tr><th>\(XMLText.escape(sample.name))</th>"
            for family in families {
                rows += "<td>\(renderer.svg(sample.content, family: family))</td>"
            }
            rows += "</tr>\n"
        }
        return rows
    }

    /// Each cell as a file name and its SVG, in page order: `<sample>-<family>.svg`, then the
    /// "Actions" section's as `actions-<sample>-<family>.svg`.
    public func svgFiles() -> [(name: String, svg: String)] {
        let renderer = WidgetRenderer()
        let sections = [(prefix: "", samples: samples, families: families), (prefix: "actions-", samples: actions, families: actionFamilies)]
        return sections.flatMap { section in
            section.samples.flatMap { sample in
                section.families.map { family in
                    (
                        name: "\(section.prefix)\(Self.fileStem(sample.name))-\(family.rawValue).svg",
                        svg: renderer.svg(sample.content, family: family)
                    )
                }
            }
        }
    }

    /// Writes `index.html` and every ``svgFiles()`` file into `directory`, creating it if needed.
    ///
    /// - Throws: The file system's error if the directory or a file cannot be written.
    public func write(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for file in svgFiles() {
            try Data(file.svg.utf8).write(to: directory.appendingPathComponent(file.name), options: .atomic)
        }
        try Data(html().utf8).write(to: directory.appendingPathComponent("index.html"), options: .atomic)
    }

    /// One sample per state, with made-up business rows: what the gallery and previews show.
    ///
    /// - Parameter now: The time the samples are drawn at; pass a fixed date for stable output.
    public static func standardSamples(now: Date) -> [Sample] {
        let rows = [
            ("Open orders", "12"), ("Awaiting payment", "3"), ("Shipped today", "27"), ("Returns", "1"),
            ("Revenue today", "€ 4,210"), ("Average basket", "€ 61.40"), ("New customers", "8"),
            ("Support tickets", "5"), ("Low stock items", "2"), ("Backorders", "0"), ("Refunds", "€ 120"),
            ("Conversion", "3.4 %"),
        ].map { WidgetRow(key: $0.0, value: $0.1) }
        let title = "Orders · Berlin"
        let fetched = now.addingTimeInterval(-120)
        return [
            Sample(name: "fresh", content: WidgetContent(title: title, rows: rows, state: .fresh, updatedAt: fetched, now: now)),
            Sample(name: "stale", content: WidgetContent(title: title, rows: rows, state: .stale(age: 7_200), updatedAt: nil, now: now)),
            Sample(name: "unavailable", content: WidgetContent(title: title, rows: rows, state: .unavailable, updatedAt: nil, now: now)),
            Sample(name: "signed-out", content: WidgetContent(title: title, rows: [], state: .signedOut, updatedAt: nil, now: now)),
            Sample(
                name: "reauth-required",
                content: WidgetContent(title: title, rows: [], state: .reauthRequired(reason: "Your session ended"), updatedAt: nil, now: now)
            ),
        ]
    }

    private static func fileStem(_ name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        let stem = String(name.lowercased().map { allowed.contains($0) ? $0 : "-" })
        return stem.isEmpty ? "sample" : stem
    }
}
