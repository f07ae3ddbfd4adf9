extension Unicode.Scalar {
    /// Whether this character can forge or disguise text where it is written out: a control
    /// character (a line break starts a made-up log line), a line or paragraph separator, or a
    /// bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069), which makes
    /// a name read differently from what it is.
    ///
    /// The server's log lines escape these; the generator refuses them in display names.
    public var hidesText: Bool {
        switch properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
        }
    }
}
