/// How an app in API-key mode authenticates: its API key, compiled in obfuscated, sent as
/// `X-API-Key` by ``APIKeyMiddleware``.
///
/// The key is stored masked and unmasked only for the moment a request is sent. See
/// ``Obfuscator`` for what that protects against, and what it does not.
///
/// ```swift
/// let auth = APIKeyAuthentication(obfuscatedKey: Secrets.apiKey, mask: Secrets.apiKeyMask)
/// let client = HTTPClient(middlewares: [APIKeyMiddleware(authentication: auth)])
/// ```
public struct APIKeyAuthentication: Sendable, CustomStringConvertible {
    private let obfuscatedKey: [UInt8]
    private let obfuscator: Obfuscator

    /// Authentication with a key compiled in as `obfuscatedKey`, masked with `mask`.
    ///
    /// - Parameters:
    ///   - obfuscatedKey: The key's UTF-8 bytes as ``Obfuscator/obfuscate(_:)`` left them.
    ///   - mask: The per-build mask they were masked with.
    public init(obfuscatedKey: [UInt8], mask: [UInt8]) {
        self.obfuscatedKey = obfuscatedKey
        self.obfuscator = Obfuscator(mask: mask)
    }

    /// Authentication with a key known only at run time (read from configuration, typed in a
    /// CLI); it is masked at once with a fresh random mask.
    ///
    /// - Parameter apiKey: The key, such as `tdk_…`.
    public init(apiKey: String) {
        let (mask, obfuscated) = Obfuscator.generate(for: Array(apiKey.utf8))
        self.init(obfuscatedKey: obfuscated, mask: mask)
    }

    /// The key in plain text, for the request being sent now; do not keep it.
    public func apiKey() -> String {
        String(decoding: obfuscator.deobfuscate(obfuscatedKey), as: UTF8.self)
    }

    /// Never the key.
    public var description: String { "APIKeyAuthentication(<redacted>)" }
}
