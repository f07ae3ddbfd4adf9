import AsyncHTTPClient

/// Reads a response body into memory without ever holding more than the size cap.
enum BoundedBodyReader {
    /// Refuses at once a response whose `Content-Length` is over `limit`, for requests and
    /// statuses that carry a body.
    static func checkDeclaredLength(
        of response: HTTPClientResponse, method: BackendHTTPMethod, limit: Int
    ) throws(OutboundCallError) {
        guard method != .head, response.status.code != 204, response.status.code != 304 else { return }
        for value in response.headers["content-length"] {
            let digits = value.filter { !$0.isWhitespace }
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { continue }
            if Int(digits).map({ $0 > limit }) ?? true { throw .responseTooLarge(limit: limit) }
        }
    }

    /// Reads the body, refusing it once it passes `limit` bytes, whatever its headers said.
    static func collect(
        _ body: HTTPClientResponse.Body, limit: Int, origin: BackendOrigin
    ) async throws(OutboundCallError) -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            for try await chunk in body {
                guard chunk.readableBytes <= limit - bytes.count else {
                    throw OutboundCallError.responseTooLarge(limit: limit)
                }
                bytes.append(contentsOf: chunk.readableBytesView)
            }
        } catch {
            throw TransportFailure.classify(error, origin: origin)
        }
        return bytes
    }
}
