/// Fits text into a number of characters, ending it with "…" when it is cut.
enum TextFit {
    /// `text` if it has at most `limit` characters, else its first `limit - 1` and "…".
    /// Newlines and tabs become spaces, since every renderer draws one line per text.
    static func truncate(_ text: String, to limit: Int) -> String {
        let flat = oneLine(text)
        guard limit > 0 else { return "" }
        guard flat.count > limit else { return flat }
        return flat.prefix(limit - 1) + "…"
    }

    /// `text` broken at spaces into lines of at most `width` characters, at most `lines` of them;
    /// a word longer than a line is cut, and the last line ends in "…" when text is left over.
    /// Empty text is one empty line.
    static func wrap(_ text: String, width: Int, lines: Int) -> [String] {
        guard width > 0, lines > 0 else { return [] }
        let words = oneLine(text).split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var result: [String] = []
        var current = ""
        var index = 0
        while index < words.count, result.count < lines {
            let word = words[index]
            let candidate = current.isEmpty ? word : current + " " + word
            if candidate.count <= width {
                current = candidate
                index += 1
            } else if current.isEmpty {
                result.append(truncate(word, to: width))
                index += 1
            } else {
                result.append(current)
                current = ""
            }
        }
        if !current.isEmpty, result.count < lines { result.append(current) }
        if index < words.count, let last = result.popLast() {
            result.append(truncate(last + " " + words[index...].joined(separator: " "), to: width))
        }
        return result.isEmpty ? [""] : result
    }

    /// `text` with newlines and tabs as spaces.
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }

    /// How many characters of a font of `size` points fit in `width` points, estimated from an
    /// average glyph width of `factor` × size (no font metrics are available on every platform).
    static func characters(in width: Double, fontSize size: Double, factor: Double = 0.56) -> Int {
        max(0, Int(width / (size * factor)))
    }
}
