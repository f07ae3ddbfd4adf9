import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Strong entity tags over exact response bodies, and the conditional `GET` they allow
/// (RFC 9110 §8.8.3, §13.1.2): a client that sends the tag back in `If-None-Match` gets
/// `304 Not Modified` with no body.
enum EntityTag {
    /// The tag of `body`: the first 128 bits of its SHA-256 in hex, quoted.
    static func of(_ body: some DataProtocol) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var tag: [UInt8] = [UInt8(ascii: "\"")]
        for byte in SHA256.hash(data: body).prefix(16) {
            tag.append(digits[Int(byte >> 4)])
            tag.append(digits[Int(byte & 0x0F)])
        }
        tag.append(UInt8(ascii: "\""))
        return String(decoding: tag, as: UTF8.self)
    }

    /// Whether an `If-None-Match` value matches `tag`: `*`, or one of its comma-separated
    /// tags equal to `tag` by the weak comparison that header calls for (a `W/` prefix ignored).
    static func ifNoneMatch(_ header: String, matches tag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var value = candidate.trimmingCharacters(in: .whitespaces)
            if value == "*" { return true }
            if value.hasPrefix("W/") { value.removeFirst(2) }
            return value == tag
        }
    }

    /// A `200` JSON response of `body` with its `ETag` and `cacheControl`, or `304` with the same
    /// headers and no body when the request's `If-None-Match` already names that tag.
    ///
    /// - Parameter tag: The body's tag, when already known (``of(_:)`` otherwise).
    static func conditionalJSON(_ body: ByteBuffer, tag: String? = nil, for request: Request, cacheControl: String) -> Response {
        let tag = tag ?? of(body.readableBytesView)
        var headers: HTTPFields = [.eTag: tag, .cacheControl: cacheControl]
        if let ifNoneMatch = request.headers[.ifNoneMatch], Self.ifNoneMatch(ifNoneMatch, matches: tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json;charset=UTF-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// ``conditionalJSON(_:for:cacheControl:)`` for `value` encoded as JSON with sorted keys.
    static func conditionalJSON(encoding value: some Encodable, for request: Request, cacheControl: String) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            return HTTPError(.temporarilyUnavailable, "the response could not be encoded", status: .internalServerError).response
        }
        return conditionalJSON(ByteBuffer(bytes: data), for: request, cacheControl: cacheControl)
    }
}
