import Foundation

/// The pieces of SVG the phone day's pictures write by hand (``PhoneDayChart``,
/// ``PhoneDayHeatMap``): a text element with its content escaped, and coordinates to a tenth.
enum SVGText {
    /// A `<text>` element at (`x`, `y`).
    static func text(
        _ x: Double, _ y: Double, _ content: String, size: Int = 11, weight: String = "400", anchor: String = "start", fill: String = "#222"
    ) -> String {
        "<text x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" text-anchor=\"\(anchor)\" fill=\"\(fill)\">\(escape(content))</text>"
    }

    /// `text` safe inside an element or an attribute.
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// A coordinate, to a tenth of a pixel.
    static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
