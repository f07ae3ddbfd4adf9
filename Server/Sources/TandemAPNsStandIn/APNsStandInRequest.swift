import Foundation

/// One HTTP/2 request as the stand-in's rules read it, apart from the network code.
struct APNsStandInRequest: Sendable {
    /// The `:method`.
    var method: String
    /// The `:path`.
    var path: String
    /// The header fields in order, names lower-case (HTTP/2 sends them so).
    var headers: [(name: String, value: String)]
    /// The body.
    var body: Data

    /// The values of the header `name`, in order.
    func values(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name }.map(\.value)
    }

    /// The first value of the header `name`.
    func value(_ name: String) -> String? { values(name).first }

    /// The device token named by the path, lower-case, when the path is `/3/device/<token>`.
    var deviceToken: String? {
        let prefix = "/3/device/"
        guard path.hasPrefix(prefix) else { return nil }
        let token = path.dropFirst(prefix.count)
        return token.isEmpty ? nil : token.lowercased()
    }
}

/// The stand-in's answer to one request: the status, the `apns-id` header and, for a refusal,
/// the JSON body `{"reason": …}` (with `timestamp` for 410).
struct APNsStandInAnswer: Sendable, Equatable {
    var status: Int
    var apnsID: String
    var reason: String?
    var timestamp: Int64?

    private struct ErrorBody: Encodable {
        let reason: String
        let timestamp: Int64?
    }

    /// The response body: empty on success, else APNs' JSON dictionary.
    var body: Data {
        guard let reason else { return Data() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(ErrorBody(reason: reason, timestamp: timestamp))) ?? Data()
    }
}
