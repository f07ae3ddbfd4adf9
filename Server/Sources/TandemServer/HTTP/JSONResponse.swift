import Foundation
import HTTPTypes
import Hummingbird
import TandemProtocol

/// Builds JSON responses; token endpoint responses also carry `Cache-Control: no-store` and
/// `Pragma: no-cache` (RFC 6749 §5.1).
enum JSONResponse {
    /// A response with `value` encoded as JSON.
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, noStore: Bool = false) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var headers: HTTPFields = [.contentType: "application/json;charset=UTF-8"]
        if noStore {
            headers[.cacheControl] = "no-store"
            headers[HTTPField.Name("Pragma")!] = "no-cache"
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A response whose body is `json`, already encoded.
    static func raw(_ json: String, status: HTTPResponse.Status = .ok, noStore: Bool = false) -> Response {
        var headers: HTTPFields = [.contentType: "application/json;charset=UTF-8"]
        if noStore {
            headers[.cacheControl] = "no-store"
            headers[HTTPField.Name("Pragma")!] = "no-cache"
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: json)))
    }
}
