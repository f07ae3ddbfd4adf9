/// What the server's outbound client may call and how long and how much it waits for.
///
/// The defaults suit a backend on the internet or on-premises: HTTPS only, private networks
/// allowed, loopback, link-local and metadata addresses refused, 8 MiB bodies, 5 s to connect,
/// 15 s per call. Coded with durations in seconds; a missing key takes its default.
///
/// ```swift
/// var policy = OutboundPolicy()
/// policy.refusesPrivateNetworks = true
/// policy.allowedAddresses = [CIDRBlock("10.20.0.0/16")!] // the one on-prem gateway
/// policy.additionalTrustRootsPEM = [companyRootCA]
/// let client = try BackendHTTPClient(policy: policy, logger: logger)
/// ```
public struct OutboundPolicy: Sendable, Hashable, Codable {
    /// Whether plain `http` to a loopback host and loopback addresses are allowed, for
    /// development against a backend on the same machine. Default `false`.
    public var allowsLoopback: Bool
    /// Whether `10/8`, `172.16/12`, `192.168/16`, `100.64/10` and `fc00::/7` are refused too.
    /// Default `false`: on-premises backends live there.
    public var refusesPrivateNetworks: Bool
    /// Blocks that are allowed even when a rule refuses them, for a destination that needs one.
    public var allowedAddresses: [CIDRBlock]
    /// How many same-origin redirects one call follows. Default 3.
    public var maximumRedirects: Int
    /// The largest response body accepted, in bytes. Default 8 MiB.
    public var maximumResponseBytes: Int
    /// How long establishing a connection (TCP and TLS) may take. Default 5 s.
    public var connectTimeout: Duration
    /// How long one call may take in all: resolving, connecting, redirects and reading the whole
    /// body. Default 15 s.
    public var requestTimeout: Duration
    /// PEM certificates trusted as roots besides the system's, for an on-premises CA.
    public var additionalTrustRootsPEM: [String]
    /// When a destination's circuit opens and for how long.
    public var circuitBreaker: CircuitBreakerSettings

    /// Creates a policy; every parameter has the default described on its property.
    public init(
        allowsLoopback: Bool = false,
        refusesPrivateNetworks: Bool = false,
        allowedAddresses: [CIDRBlock] = [],
        maximumRedirects: Int = 3,
        maximumResponseBytes: Int = 8 * 1024 * 1024,
        connectTimeout: Duration = .seconds(5),
        requestTimeout: Duration = .seconds(15),
        additionalTrustRootsPEM: [String] = [],
        circuitBreaker: CircuitBreakerSettings = CircuitBreakerSettings()
    ) {
        self.allowsLoopback = allowsLoopback
        self.refusesPrivateNetworks = refusesPrivateNetworks
        self.allowedAddresses = allowedAddresses
        self.maximumRedirects = maximumRedirects
        self.maximumResponseBytes = maximumResponseBytes
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.additionalTrustRootsPEM = additionalTrustRootsPEM
        self.circuitBreaker = circuitBreaker
    }

    /// The first reason this policy cannot be used, or `nil` when it can.
    public var problem: String? {
        if maximumRedirects < 0 { return "maximumRedirects is negative" }
        if maximumResponseBytes < 0 { return "maximumResponseBytes is negative" }
        if connectTimeout <= .zero { return "connectTimeout is not positive" }
        if requestTimeout <= .zero { return "requestTimeout is not positive" }
        return circuitBreaker.problem
    }

    private enum CodingKeys: String, CodingKey {
        case allowsLoopback, refusesPrivateNetworks, allowedAddresses, maximumRedirects, maximumResponseBytes
        case connectTimeoutSeconds, requestTimeoutSeconds, additionalTrustRootsPEM, circuitBreaker
    }

    /// Decodes a policy; a missing key takes its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = OutboundPolicy()
        allowsLoopback = try container.decodeIfPresent(Bool.self, forKey: .allowsLoopback) ?? defaults.allowsLoopback
        refusesPrivateNetworks =
            try container.decodeIfPresent(Bool.self, forKey: .refusesPrivateNetworks) ?? defaults.refusesPrivateNetworks
        allowedAddresses = try container.decodeIfPresent([CIDRBlock].self, forKey: .allowedAddresses) ?? []
        maximumRedirects =
            try container.decodeIfPresent(Int.self, forKey: .maximumRedirects) ?? defaults.maximumRedirects
        maximumResponseBytes =
            try container.decodeIfPresent(Int.self, forKey: .maximumResponseBytes) ?? defaults.maximumResponseBytes
        connectTimeout =
            try container.decodeSecondsIfPresent(forKey: .connectTimeoutSeconds)
            ?? defaults.connectTimeout
        requestTimeout =
            try container.decodeSecondsIfPresent(forKey: .requestTimeoutSeconds)
            ?? defaults.requestTimeout
        additionalTrustRootsPEM = try container.decodeIfPresent([String].self, forKey: .additionalTrustRootsPEM) ?? []
        circuitBreaker =
            try container.decodeIfPresent(CircuitBreakerSettings.self, forKey: .circuitBreaker)
            ?? defaults.circuitBreaker
    }

    /// Encodes the policy with durations in seconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(allowsLoopback, forKey: .allowsLoopback)
        try container.encode(refusesPrivateNetworks, forKey: .refusesPrivateNetworks)
        try container.encode(allowedAddresses, forKey: .allowedAddresses)
        try container.encode(maximumRedirects, forKey: .maximumRedirects)
        try container.encode(maximumResponseBytes, forKey: .maximumResponseBytes)
        try container.encode(connectTimeout.seconds, forKey: .connectTimeoutSeconds)
        try container.encode(requestTimeout.seconds, forKey: .requestTimeoutSeconds)
        try container.encode(additionalTrustRootsPEM, forKey: .additionalTrustRootsPEM)
        try container.encode(circuitBreaker, forKey: .circuitBreaker)
    }
}
