import HTTPTypes
import Hummingbird
import NIOCore

/// Reads an `application/x-www-form-urlencoded` request body strictly and within a size limit.
enum FormReader {
    /// Why a form body was refused; nothing has been written when this is returned.
    enum Failure: Error, Sendable, Equatable {
        case wrongContentType
        case tooLarge(limit: Int)
        case unreadable
        case notUTF8
        case repeatedParameter(String)
        case malformed

        /// A sentence for the client.
        var message: String {
            switch self {
            case .wrongContentType: "the body must be application/x-www-form-urlencoded"
            case .tooLarge(let limit): "the request body exceeds \(limit) bytes"
            case .unreadable: "the body could not be read"
            case .notUTF8: "the body is not UTF-8"
            case .repeatedParameter(let name) where Self.isSafeToEcho(name): "parameter \(name) is repeated"
            case .repeatedParameter: "a parameter is repeated"
            case .malformed: "the form body is malformed"
            }
        }

        /// Whether a client-supplied name can go into `error_description`: RFC 6749 §5.2 allows
        /// only printable ASCII there, and echoing anything else would reflect arbitrary input.
        static func isSafeToEcho(_ name: String) -> Bool {
            name.utf8.count <= 40 && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ".")
            }
        }

        /// `413` for an oversized body, `400` otherwise.
        var status: HTTPResponse.Status {
            if case .tooLarge = self { return .contentTooLarge }
            return .badRequest
        }

        /// The failure as an RFC 6749 `invalid_request` error.
        var httpError: HTTPError { HTTPError(.invalidRequest, message, status: status) }
    }

    /// Reads and parses the body of `request`, refusing bodies over `maxBodySize` bytes.
    static func read(_ request: Request, maxBodySize: Int) async -> Result<FormBody, Failure> {
        guard let contentType = request.headers[.contentType],
              contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
        else { return .failure(.wrongContentType) }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodySize {
            return .failure(.tooLarge(limit: maxBodySize))
        }
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: maxBodySize)
        } catch is NIOTooManyBytesError {
            return .failure(.tooLarge(limit: maxBodySize))
        } catch {
            return .failure(.unreadable)
        }
        guard let text = String(validating: buffer.readableBytesView, as: UTF8.self) else { return .failure(.notUTF8) }
        return parse(text)
    }

    /// Parses a query string or form text with the same strictness.
    static func parse(_ text: String) -> Result<FormBody, Failure> {
        do {
            return .success(try FormBody(parsing: text))
        } catch .repeatedParameter(let name) {
            return .failure(.repeatedParameter(name))
        } catch {
            return .failure(.malformed)
        }
    }
}
