import Crypto
import Foundation
import TandemProtocol

// `tandem admin set-apns-key`: which APNs auth key the server pushes an app's devices with.
extension ServerAdministration {
    /// Stores `clientID`'s APNs auth key (the `.p8` file Apple issued), sealed under the server's
    /// sealing key, with its key id, team id and the app's bundle id. From then on each change
    /// of business data owes the app's registered devices a push.
    ///
    /// ```swift
    /// try await admin.setAPNsKey(clientID: "tandem-demo", keyID: "ABCDE12345", teamID: "TEAM123456",
    ///                            bundleID: "com.example.sales", keyPEM: p8, secret: secret)
    /// ```
    ///
    /// - Throws: ``AdminError/invalidArgument(_:)`` for a key that is not a P-256 private key or
    ///   identifiers Apple would not issue; ``AdminError/unknownApp(_:)`` for an unknown app.
    public func setAPNsKey(
        clientID: String, keyID: String, teamID: String, bundleID: String, keyPEM: String, secret: SystemSecret
    ) async throws(AdminError) {
        try await setAPNsKey(
            clientID: clientID, keyID: keyID, teamID: teamID, bundleID: bundleID, keyPEM: keyPEM, sealingKey: try await serverKeys(secret).sealingKey)
    }

    /// ``setAPNsKey(clientID:keyID:teamID:bundleID:keyPEM:secret:)`` for a caller that holds the
    /// server's sealing key already (the running server's cockpit).
    func setAPNsKey(
        clientID: String, keyID: String, teamID: String, bundleID: String, keyPEM: String, sealingKey: Data
    ) async throws(AdminError) {
        guard APNsCredentials.isAppleIdentifier(keyID), APNsCredentials.isAppleIdentifier(teamID) else {
            throw .invalidArgument("an APNs key id and a team id are 10 upper-case letters or digits each")
        }
        guard AppIdentifierRules.isValidAppleAppID(teamID + "." + bundleID) else {
            throw .invalidArgument("a bundle id is letters, digits, hyphens and dots, like com.example.sales")
        }
        let privateKey: P256.Signing.PrivateKey
        do {
            privateKey = try APNsCredentials.privateKey(pem: keyPEM)
        } catch {
            throw .invalidArgument(error.description)
        }
        do {
            guard try await database.apps.app(clientID: clientID) != nil else { throw AdminError.unknownApp(clientID) }
            try await database.apnsCredentials.store(
                APNsCredentials(keyID: keyID, teamID: teamID, bundleID: bundleID, privateKey: privateKey),
                clientID: clientID, sealingKey: sealingKey, now: Timestamp(clock.now))
        } catch let error as AdminError {
            throw error
        } catch let error as StorageError {
            throw .storage(error)
        } catch {
            throw .invalidArgument("\(error)")
        }
    }

    /// Removes `clientID`'s APNs key and the pushes it still owed: the app gets no more pushes.
    public func removeAPNsKey(clientID: String) async throws(AdminError) {
        do {
            try await database.apnsCredentials.remove(clientID: clientID)
        } catch {
            throw .storage(error)
        }
    }

    private func serverKeys(_ secret: SystemSecret) async throws(AdminError) -> ServerKeys {
        do {
            return try await ServerKeys.load(from: database.serverKeys, secret: secret, clock: clock)
        } catch {
            throw .serverKeys(error)
        }
    }
}
