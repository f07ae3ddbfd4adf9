#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemProtocol

/// The widgets' push token, kept in the secret storage shared with the host (the shared keychain
/// group) when WidgetKit hands it over before the host armed the widgets: without the
/// ``SharedSealingKey`` the extension cannot seal it into the container
/// (``WidgetPushTokenRecord``), and WidgetKit calls the push handler again only when the token
/// changes, so a token set aside nowhere would never be registered.
///
/// The keychain is the extensions' secret storage, not a file in the container: nothing else with
/// the App Group reads it. The host's registration (TandemHost's `PushRegistrationStep`) takes it
/// when the container holds no sealed token, and moves it there once the widgets are armed.
///
/// ```swift
/// // In the widget extension's push handler, before the host armed the widgets:
/// try PendingWidgetPushToken.save(pushInfo.token, in: sharedSecrets)
/// // In the host, which has the sealing key by then:
/// if let token = try PendingWidgetPushToken.load(from: sharedSecrets) { … }
/// ```
public enum PendingWidgetPushToken {
    /// The secret storage key it is kept under.
    static let key = "tandem.widgets.push-token.pending"

    /// Keeps `token`, replacing the one before.
    ///
    /// - Throws: ``SharedContainerError/unencodable(_:)`` for a token of an impossible length;
    ///   ``SharedContainerError/io(_:)`` when the storage refuses it.
    public static func save(_ token: Data, in storage: any SecretStorage) throws(SharedContainerError) {
        guard PushTokenRules.isAcceptable(token) else { throw WidgetPushTokenRecord.refusal(of: token) }
        do {
            try storage.set(token, forKey: key)
        } catch {
            throw .io("the pending widget push token could not be kept: \(error)")
        }
    }

    /// The token kept, or `nil` when there is none or what is kept is not a push token (it is
    /// then removed: the storage is shared with the extensions).
    public static func load(from storage: any SecretStorage) throws(SharedContainerError) -> Data? {
        let stored: Data?
        do {
            stored = try storage.data(forKey: key)
        } catch {
            throw .io("the pending widget push token could not be read: \(error)")
        }
        guard let stored else { return nil }
        guard PushTokenRules.isAcceptable(stored) else {
            try? storage.removeData(forKey: key)
            return nil
        }
        return stored
    }

    /// Forgets the token (it was moved into the container, or the user signed out).
    public static func remove(from storage: any SecretStorage) {
        try? storage.removeData(forKey: key)
    }
}
