/// Why a ``PhoneDaySettings`` value was refused.
public enum PhoneDayError: Error, Hashable, Sendable {
    /// A setting is out of its range; the message names it and the range.
    case invalidSetting(String)
}
