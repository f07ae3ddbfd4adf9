#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What ``SealedRecords/read(kind:from:key:ifChangedFrom:)`` found.
public enum SealedRead: Sendable {
    /// There is no such record.
    case missing
    /// The record holds exactly the sealed bytes the caller gave: nothing was opened.
    case unchanged
    /// The record's opened plaintext, and the sealed bytes it was opened from (to give back as
    /// `ifChangedFrom` next time).
    case opened(Data, sealed: Data)
}
