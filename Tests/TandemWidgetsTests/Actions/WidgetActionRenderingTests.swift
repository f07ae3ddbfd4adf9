import Foundation
import TandemProtocol
import TandemWidgetModel
import TandemWidgetRendering
import Testing

/// How the SVG card, the terminal box and the gallery draw a row's actions: buttons only where
/// the family shows them, the last action's state beside or instead of them, and rows without
/// actions exactly as before actions existed.
@Suite("Widget actions in the renderer")
struct WidgetActionRenderingTests {
    let renderer = WidgetRenderer()
    let samples = WidgetGallery.standardActionSamples()
    static let buttonFamilies = WidgetFamily.allCases.filter(\.showsActions)
    static let familiesWithoutButtons = WidgetFamily.allCases.filter { !$0.showsActions }

    func sample(_ name: String) throws -> WidgetContent {
        try #require(samples.first { $0.name == name }).content
    }

    // MARK: - Rows without actions

    @Test(arguments: WidgetFamily.allCases)
    func rowsWithoutActionsDrawByteForByteAsRowsFromBeforeActions(family: WidgetFamily) throws {
        // Rows as a container written before rows had actions holds them: no action keys at all.
        let json = #"[{"key":"Open orders","value":"12"},{"key":"Revenue today","value":"€ 4,210","imageName":"eurosign"}]"#
        let old = try JSONDecoder().decode([WidgetRow].self, from: Data(json.utf8))
        let built = [WidgetRow(key: "Open orders", value: "12"), WidgetRow(key: "Revenue today", value: "€ 4,210", imageName: "eurosign")]
        let decoded = WidgetContent(title: "Orders", rows: old, state: .fresh, footer: "up to date")
        let current = WidgetContent(title: "Orders", rows: built, state: .fresh, footer: "up to date")
        #expect(renderer.svg(decoded, family: family) == renderer.svg(current, family: family))
        #expect(renderer.terminalBox(decoded, family: family) == renderer.terminalBox(current, family: family))
    }

    @Test(arguments: WidgetFamily.allCases)
    func aDecidedItemWithoutAStateDrawsAsAPlainRow(family: WidgetFamily) throws {
        let plain = try sample("offering")
        var decided = plain
        for index in decided.rows.indices { decided.rows[index].action?.actions = [] }
        var readOnly = plain
        for index in readOnly.rows.indices { readOnly.rows[index].action = nil }
        #expect(renderer.svg(decided, family: family) == renderer.svg(readOnly, family: family))
        #expect(renderer.terminalBox(decided, family: family) == renderer.terminalBox(readOnly, family: family))
    }

    @Test(arguments: familiesWithoutButtons)
    func anItemOfferingActionsDrawsAsAPlainRowWhereTheFamilyHasNoButtons(family: WidgetFamily) throws {
        let offering = try sample("offering")
        var readOnly = offering
        for index in readOnly.rows.indices { readOnly.rows[index].action = nil }
        #expect(renderer.svg(offering, family: family) == renderer.svg(readOnly, family: family))
        #expect(renderer.terminalBox(offering, family: family) == renderer.terminalBox(readOnly, family: family))
    }

    // MARK: - Buttons

    @Test(arguments: buttonFamilies)
    func everyOfferingRowHasAFilledApproveAndAnOutlinedRejectButton(family: WidgetFamily) throws {
        let svg = renderer.svg(try sample("offering"), family: family)
        let approve = elements(of: svg, after: #"data-action="approve""#)
        let reject = elements(of: svg, after: #"data-action="reject""#)
        #expect(approve.count == 3 && reject.count == 3, "\(svg)")
        #expect(approve.allSatisfy { $0.contains(##"fill="#1E8E3E""##) && !$0.contains("stroke=") })
        #expect(reject.allSatisfy { $0.contains(##"fill="#FFFFFF" stroke="#C5221F""##) })
        #expect(svg.contains(#"<g role="button" aria-label="Approve PR-1003" data-action="approve">"#))
        #expect(svg.contains(#"<g role="button" aria-label="Reject PR-1005" data-action="reject">"#))
        let texts = SVGInspector(svg).texts
        #expect(texts.contains("2,480.00 EUR") && texts.filter { $0 == "Approve" }.count == 3)
        #expect(SVGInspector(svg).isWellFormed)
    }

    @Test(arguments: buttonFamilies)
    func buttonsStayInsideTheCardAndALongValueShortensForThem(family: WidgetFamily) throws {
        let row = WidgetRow(
            key: "PR-1003", value: String(repeating: "9", count: 120) + " EUR",
            action: WidgetRowAction(ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1003"), etag: "W/\"1\""))
        let svg = renderer.svg(WidgetContent(title: "Approvals", rows: [row], state: .fresh, footer: "up to date"), family: family)
        let reject = try #require(elements(of: svg, after: #"data-action="reject""#).first)
        let x = try #require(attribute("x", in: reject).flatMap(Double.init))
        let width = try #require(attribute("width", in: reject).flatMap(Double.init))
        #expect(x + width <= family.displaySize.width - 14, "\(svg)")
        #expect(SVGInspector(svg).texts.contains { $0.hasPrefix("999") && $0.hasSuffix("…") })
    }

    @Test(arguments: familiesWithoutButtons)
    func familiesWithoutButtonsNeverDrawOne(family: WidgetFamily) {
        for sample in samples {
            #expect(!renderer.svg(sample.content, family: family).contains("role=\"button\""), "\(sample.name)")
            let box = renderer.terminalBox(sample.content, family: family)
            #expect(!box.contains("[Approve]") && !box.contains("[Reject]"), "\(sample.name):\n\(box)")
        }
    }

    @Test func aStepUpButtonSaysItOpensTheApp() throws {
        let svg = renderer.svg(try sample("needs-app"), family: .systemMedium)
        #expect(svg.contains(#"aria-label="Approve PR-1003 in the app""#))
        #expect(svg.contains(#"aria-label="Approve PR-1004""#))
    }

    // MARK: - States

    @Test(arguments: buttonFamilies)
    func pendingAndDoneShowTheirStateInPlaceOfTheButtons(family: WidgetFamily) throws {
        for (name, label, color) in [("pending", "Approving…", "#5F6368"), ("done", "✓ Approved", "#1E8E3E")] {
            let svg = renderer.svg(try sample(name), family: family)
            #expect(!svg.contains(#"aria-label="Approve PR-1003""#), "\(name) in \(family)")
            #expect(elements(of: svg, after: #"data-action="approve""#).count == 2, "the other rows keep theirs")
            #expect(SVGInspector(svg).texts.contains(label), "\(name) in \(family)")
            #expect(elements(of: svg, after: "role=\"status\"").first?.contains("fill=\"\(color)\" fill-opacity") == true, "\(name)")
        }
    }

    @Test(arguments: buttonFamilies)
    func aStateThatOffersActionsAgainShowsBesideTheButtons(family: WidgetFamily) throws {
        for (name, color) in [("conflict", "#B26A00"), ("needs-app", "#1A73E8"), ("refused", "#C5221F"), ("expired", "#C5221F")] {
            let content = try sample(name)
            let state = try #require(content.rows.first?.actionState)
            let svg = renderer.svg(content, family: family)
            #expect(elements(of: svg, after: #"data-action="approve""#).count == 3, "\(name) in \(family)")
            #expect(svg.contains("<g role=\"status\" aria-label=\"PR-1003: \(state.label)\" data-action-state=\"\(state.name)\">"))
            #expect(elements(of: svg, after: "role=\"status\"").first?.contains("fill=\"\(color)\" fill-opacity") == true, "\(name)")
        }
    }

    @Test func theWidestCardSaysTheWholeStateTheMediumOneItsName() throws {
        let content = try sample("conflict")
        #expect(SVGInspector(renderer.svg(content, family: .systemExtraLarge)).texts.contains("Changed — check again"))
        #expect(SVGInspector(renderer.svg(content, family: .systemMedium)).texts.contains("conflict"))
    }

    @Test func theSmallCardMarksTheStateWithASymbolWhereItsNameDoesNotFit() throws {
        let texts = SVGInspector(renderer.svg(try sample("done"), family: .systemSmall)).texts
        #expect(texts.contains("✓"))
        #expect(texts.contains("PR-1003"))
    }

    @Test func theInlineWidgetAddsTheStateOnlyWhenTheWholeLineFits() {
        let action = WidgetRowAction(ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-7"), etag: "W/\"1\"")
        let short = WidgetContent(
            title: "Approvals", rows: [WidgetRow(key: "PR-7", value: "90 EUR", action: action, actionState: .pending(.approve))],
            state: .fresh, footer: "")
        #expect(SVGInspector(renderer.svg(short, family: .accessoryInline)).texts.contains("Approvals: PR-7 90 EUR · pending"))
        let long = WidgetContent(
            title: "Approvals · sales · Berlin", rows: [WidgetRow(key: "PR-7", value: "90 EUR", action: action, actionState: .pending(.approve))],
            state: .fresh, footer: "")
        #expect(!renderer.svg(long, family: .accessoryInline).contains("pending"))
    }

    // MARK: - Terminal box

    @Test func terminalBoxShowsButtonsAndAStateInThePlaceOfThem() throws {
        #expect(renderer.terminalBox(try sample("pending"), family: .systemMedium) == """
        ╭──────────────────────────────────────────╮
        │ Approvals · sales                [Fresh] │
        ├──────────────────────────────────────────┤
        │ PR-1003          2,480.00 EUR Approving… │
        │ PR-1004    312.50 EUR [Approve] [Reject] │
        │ PR-1005  1,075.20 EUR [Approve] [Reject] │
        ├──────────────────────────────────────────┤
        │ up to date                               │
        ╰──────────────────────────────────────────╯

        """)
    }

    @Test func terminalBoxPutsAStateBesideButtonsOnTheLineBelow() throws {
        #expect(renderer.terminalBox(try sample("conflict"), family: .systemMedium) == """
        ╭──────────────────────────────────────────╮
        │ Approvals · sales                [Fresh] │
        ├──────────────────────────────────────────┤
        │ PR-1003  2,480.00 EUR [Approve] [Reject] │
        │   ↳ Changed — check again                │
        │ PR-1004    312.50 EUR [Approve] [Reject] │
        │ PR-1005  1,075.20 EUR [Approve] [Reject] │
        ├──────────────────────────────────────────┤
        │ up to date                               │
        ╰──────────────────────────────────────────╯

        """)
    }

    @Test func terminalBoxWithoutButtonsMarksTheStateOnlyWhereThereIsRoom() throws {
        #expect(renderer.terminalBox(try sample("done"), family: .systemSmall) == """
        ╭──────────────────────╮
        │ Approvals · sa… [ok] │
        ├──────────────────────┤
        │ PR-1003 2,480.00 … ✓ │
        │ PR-1004   312.50 EUR │
        │ PR-1005   1,075.20 … │
        ├──────────────────────┤
        │ up to date           │
        ╰──────────────────────╯

        """)
        let box = renderer.terminalBox(try sample("done"), family: .accessoryCircular)
        #expect(!box.contains("✓") && !box.contains("done"), "no room in the circular box:\n\(box)")
    }

    @Test(arguments: WidgetFamily.allCases)
    func terminalBoxesWithActionsKeepTheFamilysWidth(family: WidgetFamily) {
        let widths = samples.flatMap { sample in
            renderer.terminalBox(sample.content, family: family).split(separator: "\n").map(\.count)
        }
        #expect(widths.allSatisfy { $0 == TerminalWidth.of(family) }, "\(family): \(Set(widths))")
    }

    // MARK: - Gallery

    @Test func galleryHasAnActionsSectionWithEveryStateInEveryFamilyWithButtons() {
        let states = WidgetGallery.standardSamples(now: TestDates.at(9))
        let gallery = WidgetGallery(samples: states)
        #expect(gallery.actions.map(\.name) == ["offering", "pending", "waiting", "done", "conflict", "needs-app", "refused", "expired"])
        #expect(gallery.actionFamilies == [.systemMedium, .systemLarge, .systemExtraLarge])
        let page = gallery.html()
        let expected = states.count * WidgetFamily.allCases.count + samples.count * 3
        #expect(page.components(separatedBy: "<svg ").count - 1 == expected)
        #expect(gallery.svgFiles().count == expected)
        #expect(page.contains("<h2>Actions</h2>"))
        let names = Set(gallery.svgFiles().map(\.name))
        #expect(names.contains("actions-needs-app-systemExtraLarge.svg") && names.contains("fresh-systemSmall.svg"))
        #expect(!names.contains("actions-done-systemSmall.svg"))
        #expect(!WidgetGallery(samples: states, actions: []).html().contains("Actions"))
    }

    // MARK: - Reading the SVG

    /// The elements on the lines after each line containing `marker`, up to the group's end.
    private func elements(of svg: String, after marker: String) -> [String] {
        let lines = svg.split(separator: "\n").map(String.init)
        return lines.indices.filter { lines[$0].contains(marker) }.map { start in
            lines[(start + 1)...].prefix { $0 != "</g>" }.joined(separator: "\n")
        }
    }

    private func attribute(_ name: String, in element: String) -> String? {
        guard let range = element.range(of: " \(name)=\"") else { return nil }
        return String(element[range.upperBound...].prefix { $0 != "\"" })
    }
}

/// The terminal box's width per family, as `WidgetRenderer.terminalBox` documents it.
private enum TerminalWidth {
    static func of(_ family: WidgetFamily) -> Int {
        switch family {
        case .systemSmall: 24
        case .systemMedium, .systemLarge: 44
        case .systemExtraLarge: 64
        case .accessoryCircular: 16
        case .accessoryRectangular: 26
        case .accessoryInline: 40
        }
    }
}
