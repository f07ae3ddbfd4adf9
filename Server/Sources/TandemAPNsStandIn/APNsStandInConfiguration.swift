import Foundation
import TandemPlatform

/// Where the APNs stand-in listens, whom it accepts provider tokens from, which apps it delivers
/// to, and where the devices' folders are.
///
/// ```swift
/// let configuration = APNsStandInConfiguration(
///     providerKeys: [APNsStandInProviderKey(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", publicKey: key.publicKey)],
///     bundleIDs: ["com.example.tandem"],
///     devicesDirectory: URL(filePath: "/tmp/devices"))
/// let apns = try await APNsStandIn.start(configuration, logger: logger)
/// ```
public struct APNsStandInConfiguration: Sendable {
    /// The address to listen on.
    public var host: String
    /// The port to listen on; `0` lets the system pick one (read it from ``APNsStandIn/port``).
    public var port: Int
    /// The keys provider tokens may be signed with.
    public var providerKeys: [APNsStandInProviderKey]
    /// The apps' bundle ids, the `apns-topic` values accepted (with `.push-type.widgets` appended
    /// for WidgetKit pushes).
    public var bundleIDs: Set<String>
    /// The folder holding one folder per device token (see ``APNsStandInDevice``).
    public var devicesDirectory: URL
    /// The clock provider tokens' ages, the token update window, certificate validity and delivery
    /// times are read from.
    public var clock: any WallClock

    /// A configuration.
    ///
    /// - Parameters:
    ///   - host: The address to listen on (by default the loopback address).
    ///   - port: The port to listen on; `0` picks a free one.
    ///   - providerKeys: The keys provider tokens may be signed with.
    ///   - bundleIDs: The apps' bundle ids, the topics accepted.
    ///   - devicesDirectory: The folder of device folders; created when missing.
    ///   - clock: The stand-in's clock; a test passes a `ManualClock` to age tokens.
    public init(
        host: String = "127.0.0.1", port: Int = 0, providerKeys: [APNsStandInProviderKey], bundleIDs: Set<String>,
        devicesDirectory: URL, clock: any WallClock = SystemClock()
    ) {
        self.host = host
        self.port = port
        self.providerKeys = providerKeys
        self.bundleIDs = bundleIDs
        self.devicesDirectory = devicesDirectory
        self.clock = clock
    }
}
