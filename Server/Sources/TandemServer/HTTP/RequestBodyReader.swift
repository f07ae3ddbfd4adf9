import Hummingbird
import NIOCore

/// Reads a request body up to a size limit: a declared `Content-Length` over the limit is
/// refused before reading, a streamed body as soon as it passes the limit (`413`).
enum RequestBodyReader {
    /// The whole body.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - limit: The most bytes accepted.
    /// - Throws: ``HTTPError`` 413 when the body is larger, 400 when it cannot be read.
    static func collect(_ request: Request, limit: Int) async throws(HTTPError) -> ByteBuffer {
        let tooLarge = HTTPError(.invalidRequest, "the request body exceeds \(limit) bytes", status: .contentTooLarge)
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge
        }
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch {
            throw HTTPError(.invalidRequest, "the request body could not be read")
        }
    }

    /// The whole body of a request that must be JSON: a `Content-Type` other than
    /// `application/json` is refused (`415`) before anything is read.
    ///
    /// - Throws: ``HTTPError`` 415 for another media type, 413 and 400 as ``collect(_:limit:)``.
    static func collectJSON(_ request: Request, limit: Int) async throws(HTTPError) -> ByteBuffer {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("application/json") else {
            throw HTTPError(.invalidRequest, "the body must be application/json", status: .unsupportedMediaType)
        }
        return try await collect(request, limit: limit)
    }
}
