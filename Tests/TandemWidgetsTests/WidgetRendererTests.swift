import Foundation
import TandemWidgetModel
import TandemWidgetRendering
import TandemWidgets
import Testing

@Suite("Widget renderer")
struct WidgetRendererTests {
    let renderer = WidgetRenderer()
    let samples = WidgetGallery.standardSamples(now: TestDates.at(9))

    @Test(arguments: WidgetFamily.allCases)
    func everyStateDrawsWellFormedSVGAtTheFamilysSize(family: WidgetFamily) {
        for sample in samples {
            let svg = SVGInspector(renderer.svg(sample.content, family: family))
            #expect(svg.isWellFormed, "\(sample.name) in \(family)")
            #expect(svg.rootAttributes["width"] == String(Int(family.displaySize.width)))
            #expect(svg.rootAttributes["height"] == String(Int(family.displaySize.height)))
            #expect(svg.rootAttributes["viewBox"] == "0 0 \(Int(family.displaySize.width)) \(Int(family.displaySize.height))")
        }
    }

    @Test func textIsEscapedSoMarkupInDataStaysText() {
        let hostile = WidgetContent(
            title: "A <b> & \"c\"", rows: [WidgetRow(key: "</text><script>", value: "1 & 2")],
            state: .reauthRequired(reason: "'quoted' <reason>"), footer: "x\u{0}y"
        )
        let svg = renderer.svg(hostile, family: .systemMedium)
        #expect(svg.contains("A &lt;b&gt; &amp; &quot;c&quot;"))
        #expect(!svg.contains("<script>"))
        #expect(!svg.contains("<b>"))
        let parsed = SVGInspector(svg)
        #expect(parsed.isWellFormed)
        #expect(parsed.texts.contains("1 & 2"))
        #expect(parsed.texts.contains("x\u{FFFD}y"))
    }

    @Test(arguments: WidgetFamily.allCases)
    func rowsStopAtTheFamilysCapacity(family: WidgetFamily) throws {
        let content = try #require(samples.first { $0.name == "fresh" }).content
        let texts = SVGInspector(renderer.svg(content, family: family)).texts
        let drawnValues = content.rows.filter { row in texts.contains(row.value) }.count
        if family == .accessoryInline {
            #expect(drawnValues == 0, "inline draws its one row inside a single line")
        } else {
            #expect(drawnValues == min(content.rows.count, family.rowCapacity))
        }
    }

    @Test func eachStateHasABadgeColourOfItsOwn() {
        let colours = samples.map { sample -> String in
            let svg = renderer.svg(sample.content, family: .systemSmall)
            let badge = svg.split(separator: "\n").first { $0.contains("rx=\"9\"") } ?? ""
            return String(badge.split(separator: "fill=\"").last?.prefix(7) ?? "")
        }
        #expect(Set(colours).count == samples.count)
    }

    @Test func longTextEndsInAnEllipsisInsteadOfOverflowing() {
        let content = WidgetContent(
            title: String(repeating: "Quarterly revenue ", count: 5),
            rows: [WidgetRow(key: String(repeating: "k", count: 80), value: "42")],
            state: .fresh, footer: "up to date"
        )
        let texts = SVGInspector(renderer.svg(content, family: .systemSmall)).texts
        #expect(texts.first?.hasSuffix("…") == true)
        #expect(texts.contains { $0.hasPrefix("kkk") && $0.hasSuffix("…") })
    }

    @Test func aMessageWithNoRowsWrapsOntoLinesInsteadOfBeingCut() throws {
        let content = try #require(samples.first { $0.name == "signed-out" }).content
        #expect(content.rows.isEmpty)
        let words = content.footer.split(separator: " ").map(String.init)
        let svgLines = SVGInspector(renderer.svg(content, family: .systemSmall)).texts.filter { line in
            words.contains { line.hasPrefix($0) } && line != content.title
        }
        #expect(svgLines.count > 1, "\(svgLines)")
        #expect(svgLines.joined(separator: " ") == content.footer, "every word drawn, none cut: \(svgLines)")
        let box = renderer.terminalBox(content, family: .systemSmall)
        let message = box.split(separator: "\n").dropFirst(3).dropLast().map { $0.dropFirst(2).dropLast(2).trimmingCharacters(in: .whitespaces) }
        #expect(message.count > 1, "\(box)")
        #expect(message.joined(separator: " ") == content.footer, "every word shown, none cut:\n\(box)")
    }

    @Test func aMessageTooLongForItsLinesEndsInAnEllipsis() {
        let content = WidgetContent(
            title: "Orders", rows: [], state: .signedOut, footer: String(repeating: "open the app to sign in again ", count: 10))
        let box = renderer.terminalBox(content, family: .systemSmall)
        let lines = box.split(separator: "\n")
        #expect(lines.count == 7, "title, two rules, three message lines and the borders:\n\(box)")
        #expect(lines[5].contains("…"), "\(box)")
    }

    @Test(arguments: WidgetFamily.allCases)
    func terminalBoxesHaveAFixedWidthPerFamily(family: WidgetFamily) {
        let widths = samples.flatMap { sample in
            renderer.terminalBox(sample.content, family: family).split(separator: "\n").map(\.count)
        }
        #expect(Set(widths).count == 1, "\(family): \(Set(widths))")
    }

    @Test func terminalBoxShowsTitleBadgeRowsAndFooter() throws {
        let content = try #require(samples.first { $0.name == "stale" }).content
        #expect(renderer.terminalBox(content, family: .systemSmall) == """
        ╭──────────────────────╮
        │ Orders · Berl… [old] │
        ├──────────────────────┤
        │ Open orders       12 │
        │ Awaiting payment   3 │
        │ Shipped today     27 │
        │ Returns            1 │
        ├──────────────────────┤
        │ updated 2 h ago      │
        ╰──────────────────────╯

        """)
    }

    @Test func galleryPageShowsEveryStateInEveryFamily() {
        let gallery = WidgetGallery(samples: samples, actions: [])
        let page = gallery.html()
        #expect(page.components(separatedBy: "<svg ").count - 1 == samples.count * WidgetFamily.allCases.count)
        #expect(gallery.svgFiles().count == samples.count * WidgetFamily.allCases.count)
        #expect(gallery.svgFiles().first?.name == "fresh-systemSmall.svg")
        for family in WidgetFamily.allCases { #expect(page.contains("<th>\(family.rawValue)</th>")) }
    }

    @Test func footersSayHowOldTheDataIsAndWhatToDo() {
        #expect(WidgetFooter.text(for: .stale(age: 7_200)) == "updated 2 h ago")
        #expect(WidgetFooter.text(for: .signedOut) == "open the app to sign in")
        #expect(WidgetFooter.text(for: .fresh, updatedAt: TestDates.at(9), now: TestDates.at(9, 4)) == "updated 4 min ago")
        #expect(WidgetFooter.text(for: .fresh, updatedAt: TestDates.at(9), now: TestDates.at(9)) == "updated just now")
        #expect(WidgetFooter.text(for: .reauthRequired(reason: "session ended")).hasPrefix("open the app"))
        #expect(WidgetFooter.text(for: .unavailable) != WidgetFooter.text(for: .signedOut))
    }
}
