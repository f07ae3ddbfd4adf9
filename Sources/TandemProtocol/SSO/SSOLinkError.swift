/// Why an SSO onboarding link could not be read.
public enum SSOLinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The link is not `<scheme>://sso?…`.
    case notAnSSOLink
    /// The `config=` parameter is missing, empty or repeated.
    case missingPayload
    /// The payload is longer than any QR code holds.
    case tooLong
    /// The payload is not base64url.
    case notBase64URL
    /// The payload is not the JSON of an SSO link, for the reason given.
    case malformed(String)

    public var description: String {
        switch self {
        case .notAnSSOLink: "not an SSO onboarding link"
        case .missingPayload: "the link carries no single config parameter"
        case .tooLong: "the link's payload is too long"
        case .notBase64URL: "the link's payload is not base64url"
        case .malformed(let reason): "the link's payload is malformed: \(reason)"
        }
    }
}
