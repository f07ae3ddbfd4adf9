import Testing

@testable import TandemServer

/// The cockpit's tap chart: taps added up by kind and family, longest bar first, labels escaped.
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
            TapChart.Bar(label: "<b> · systemLarge", count: 7), TapChart.Bar(label: "orders · systemSmall", count: 5),
            TapChart.Bar(label: "unknown kind · unknown family", count: 1),
        ])
        let svg = chart.svg()
        #expect(svg.contains("&lt;b&gt; · systemLarge"))
        #expect(!svg.contains("<b>"))
        #expect(svg.components(separatedBy: "<rect").count - 1 == 3)
        // The longest bar is the full width left for bars; the others in proportion.
        #expect(svg.contains(#"width="320""#))
        #expect(svg.contains(#"width="228""#))
    }

    @Test func noTapsSaySo() {
        #expect(TapChart([]).svg().contains("No widget taps in the last seven days."))
    }
}
