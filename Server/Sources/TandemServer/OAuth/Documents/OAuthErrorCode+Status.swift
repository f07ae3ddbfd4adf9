import HTTPTypes
import TandemProtocol

extension OAuthErrorCode {
    /// The HTTP status RFC 6749 §5.2 prescribes for the code.
    var status: HTTPResponse.Status {
        switch self {
        case .invalidClient: .unauthorized
        case .serverError: .internalServerError
        case .temporarilyUnavailable: .serviceUnavailable
        case .slowDown: .tooManyRequests
        default: .badRequest
        }
    }
}
