/// Fits text into a number of characters, ending it with "…" when it is cut.
enum TextFit {
    /// `text` if it has at most `limit` characters, else its first `limit - 1` and "…".
    /// Newlines and tabs become spaces, since every renderer draws one line per text.
    static func truncate(_ text: String, to limit: Int) -> String {
        let flat = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        guard limit > 0 else { return "" }
        guard flat.count > limit else { return flat }
        return flat.prefix(limit - 1) + "…"
    }

    /// How many characters of a font of `size` points fit in `width` points, estimated from an
    /// average glyph width of `factor` × size (no font metrics are available on every platform).
    static func characters(in width: Double, fontSize size: Double, factor: Double = 0.56) -> Int {
        max(0, Int(width / (size * factor)))
    }
}
