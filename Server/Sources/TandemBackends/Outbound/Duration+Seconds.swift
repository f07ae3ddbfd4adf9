extension Duration {
    /// The duration in seconds, with its fraction.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, rounded down.
    var milliseconds: Int64 {
        let (whole, attoseconds) = components
        return whole * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

extension KeyedDecodingContainer {
    /// Decodes a duration written as a number of seconds, refusing one that is not finite or
    /// lies outside `0...1e9`.
    func decodeSecondsIfPresent(forKey key: Key) throws -> Duration? {
        guard let value = try decodeIfPresent(Double.self, forKey: key) else { return nil }
        guard value.isFinite, value >= 0, value <= 1e9 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "Not a number of seconds between 0 and 1e9.")
        }
        return .seconds(value)
    }
}
