import Foundation
import TandemPlatform
import TandemSharedContainer
import TandemTestSupport
import TandemVault
import TandemWidgetModel
import TandemWidgetSimulator
import Testing

@testable import TandemWidgets

/// A keychain that answers "device locked" (errSecInteractionNotAllowed, as
/// `SecretStorageError.deviceLocked`) makes the widget say "unavailable" and try again, never
/// "signed out": the session is fine, the phone is only locked.
@Suite("A locked device's keychain")
struct DeviceLockedCredentialsTests {
    /// Secret storage whose every read fails as a locked phone's keychain does.
    struct LockedKeychain: SecretStorage {
        func data(forKey key: String) throws(SecretStorageError) -> Data? { throw .deviceLocked }
        func set(_ data: Data, forKey key: String) throws(SecretStorageError) { throw .deviceLocked }
        func removeData(forKey key: String) throws(SecretStorageError) { throw .deviceLocked }
    }

    @Test func theWidgetShowsUnavailableAndRetries() async throws {
        let home = try WidgetHome()
        let clock = VirtualClock(TestDates.at(10, 0))
        try home.signIn(at: clock.now)
        let provider = DataWidgetProvider(
            kind: WidgetHome.kind, scheme: WidgetHome.scheme, container: home.container,
            credentials: SharedSecretCredentials(storage: LockedKeychain(), vaultName: "vault"), mode: .brokered,
            clock: clock, logger: home.log.logger)
        let timeline = await provider.timeline(for: WidgetHome.orders, in: WidgetContext(family: .systemMedium))
        let entry = try #require(timeline.entries.first)
        #expect(entry.content.state == .unavailable)
        guard case .after(let retry) = timeline.policy else {
            Issue.record("a locked device must be retried, got \(timeline.policy)")
            return
        }
        #expect(retry > clock.now)
        #expect(SecretStorageError.deviceLocked.description.contains("locked"))
    }
}
