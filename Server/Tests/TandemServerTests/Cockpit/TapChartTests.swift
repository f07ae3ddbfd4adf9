import Testing

@testable import TandemServer

/// The cockpit's tap chart: taps added up by kind and family, longest bar first, labels escaped,
/// and only identifiers and known families shown (issue 24, finding 17).
@Suite("Tap chart")
struct TapChartTests {
    @Test func barsAddUpConfigurationsAndComeLongestFirst() {
        let chart = TapChart([
            AnalyticsCount(kind: "orders", family: "systemSmall", configuration: "{\"a\":1}", count: 2),
            AnalyticsCount(kind: "orders", family: "systemSmall", configuration: "{\"a\":2}", count: 3),
            AnalyticsCount(kind: "<b>", family: "systemLarge", configuration: nil, count: 7),
            AnalyticsCount(kind: nil, family: nil, configuration: nil, count: 1),
        ])
        #expect(chart.bars == [
            TapChart.Bar(label: "other kind · systemLarge", count: 7), TapChart.Bar(label: "orders · systemSmall", count: 5),
            TapChart.Bar(label: "unknown kind · unknown family", count: 1),
        ])
        let svg = chart.svg()
        #expect(svg.contains("other kind · systemLarge"))
        #expect(!svg.contains("<b>") && !svg.contains("&lt;b&gt;"))
        #expect(svg.components(separatedBy: "<rect").count - 1 == 3)
        // The longest bar is the full width left for bars; the others in proportion.
        #expect(svg.contains(#"width="320""#))
        #expect(svg.contains(#"width="228""#))
    }

    /// Anyone with the app's credentials can send analytics: a sentence, a look-alike family or a
    /// bidirectional override never reaches an administrator's screen as a label.
    @Test func clientTextThatIsNotAnIdentifierIsCountedUnderOther() {
        let chart = TapChart([
            AnalyticsCount(kind: "Your account is locked: call +1 555 0100", family: "systemSmall", configuration: nil, count: 4),
            AnalyticsCount(kind: "orders\u{202E}", family: "systemSmall", configuration: nil, count: 1),
            AnalyticsCount(kind: "orders", family: "systemSmall (verified)", configuration: nil, count: 2),
            AnalyticsCount(kind: String(repeating: "a", count: 41), family: "systemLarge", configuration: nil, count: 1),
        ])
        #expect(chart.bars == [
            TapChart.Bar(label: "other kind · systemSmall", count: 5), TapChart.Bar(label: "orders · other family", count: 2),
            TapChart.Bar(label: "other kind · systemLarge", count: 1),
        ])
        #expect(WidgetPreviews.isPlausibleTitle("Open orders"))
        #expect(!WidgetPreviews.isPlausibleTitle("Orders\u{202E}sinduced"))
        #expect(!WidgetPreviews.isPlausibleTitle(String(repeating: "x", count: 41)))
    }

    @Test func noTapsSaySo() {
        #expect(TapChart([]).svg().contains("No widget taps in the last seven days."))
    }
}
