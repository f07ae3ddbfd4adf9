import Foundation
import Logging
import TandemPlatform

/// The server's push sender, one pass at a time when the caller says: for a program that plays
/// time itself, such as `tandem simulate day` on a virtual clock, where the running server's own
/// sender would send at moments nobody chose. Start that server with
/// ``PushSettings/runsSender`` off, and run a pass at each moment of the simulation.
///
/// A pass is the running server's: it removes the pushes an earlier push covered or whose
/// widgets would show nothing new, postpones those the device's budget cannot take yet
/// (`PushPacer`), claims and sends the rest, and records APNs' answers.
///
/// ```swift
/// let dispatcher = try await ManualPushDispatcher(
///     database: database, secret: secret, settings: configuration.push, logger: logger, clock: clock)
/// let pass = await dispatcher.sendDue()      // at this moment of the simulation
/// await dispatcher.shutdown()
/// ```
public final class ManualPushDispatcher: Sendable {
    /// What one pass did.
    public struct Pass: Sendable, Equatable {
        /// Pushes APNs accepted.
        public var sent: Int
        /// Pushes refused for good (the token gone, the request wrong) or dropped.
        public var refused: Int
        /// Pushes left for a later try (APNs asked to slow down or did not answer).
        public var retried: Int
        /// Pushes held back until the device's budget allows them.
        public var postponed: Int
    }

    private let dispatcher: PushDispatcher
    private let client: APNsClient

    /// A sender over `database`, whose APNs keys are sealed under the key `secret` opens.
    ///
    /// - Parameters:
    ///   - database: The server's database (its outbox, registry and APNs keys).
    ///   - secret: The server's system secret, the one the running server was given.
    ///   - settings: Where APNs is, what to trust, the coalescing window and back-offs.
    ///   - logger: Receives sends that failed.
    ///   - clock: What time a pass runs at.
    /// - Throws: `ServerKeyError` when the secret opens no stored key; ``APNsError/invalidKey(_:)``
    ///   when the additional trust roots are not PEM certificates.
    public init(
        database: ServerDatabase, secret: SystemSecret, settings: PushSettings, logger: Logger, clock: any WallClock
    ) async throws {
        let keys = try await ServerKeys.load(from: database.serverKeys, secret: secret, clock: clock)
        client = try APNsClient(settings: settings)
        dispatcher = PushDispatcher(
            database: database, sealingKey: keys.sealingKey, providerTokens: APNsProviderTokens(reuseWindow: settings.providerTokenReuse),
            settings: settings, doorbell: PushDoorbell(), logger: logger, clock: clock)
    }

    /// One pass over the pushes due now on the clock.
    public func sendDue() async -> Pass {
        let report = await dispatcher.sendDue(using: client)
        return Pass(sent: report.sent, refused: report.refused, retried: report.retried, postponed: report.postponed)
    }

    /// When the next owed push is due (its coalescing, pacing or back-off ends), if any is owed;
    /// `nil` also when the outbox cannot be read.
    public func nextDue() async -> Date? {
        try? await dispatcher.database.pushOutbox.nextDue()?.date
    }

    /// Closes the connections to APNs; call it once done.
    public func shutdown() async {
        await client.shutdown()
    }
}
