#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A definite "no" in place of the data a widget asked for, which the widget shows as such
/// instead of rows: the customer's backend does not let the user see the set
/// (`backend_forbidden`), or does not accept the user's identity (`backend_unauthorized`), or
/// the app cannot answer this kind of data at all (`unsupported_kind`).
///
/// ```swift
/// if let refusal = DataRefusal(payload: snapshot.payload) { … show refusal.message … }
/// ```
public enum DataRefusal: String, Sendable, Hashable, CaseIterable {
    /// The backend does not let this user see the set (the server's `403 backend_forbidden`).
    case notAllowed = "backend_forbidden"
    /// The backend does not accept the user's identity (the server's `403 backend_unauthorized`).
    case signInAgain = "backend_unauthorized"
    /// The app has no source for this kind of data (the host's `unsupported_kind`).
    case unsupportedKind = "unsupported_kind"

    /// The refusal a payload (a server's error body, or the host's answer) says, or nil when it
    /// is not one of these.
    public init?(payload: Data) {
        guard payload.first == UInt8(ascii: "{"),
              let body = try? JSONDecoder().decode(ErrorBody.self, from: payload),
              let refusal = DataRefusal(rawValue: body.error)
        else { return nil }
        self = refusal
    }

    /// What the widget says, in place of rows.
    public var message: String {
        switch self {
        case .notAllowed: "not allowed to see this"
        case .signInAgain: "sign in again to see this"
        case .unsupportedKind: "update the app to see this"
        }
    }

    private struct ErrorBody: Decodable {
        var error: String
    }
}
