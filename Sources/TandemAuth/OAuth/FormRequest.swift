#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

extension HTTPRequest {
    /// A POST request carrying `parameters` as a form body (`FormEncoding` of TandemProtocol).
    static func form(to url: URL, _ parameters: [(String, String?)]) -> HTTPRequest {
        HTTPRequest(
            method: .post, url: url,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: FormEncoding.encode(parameters))
    }
}
