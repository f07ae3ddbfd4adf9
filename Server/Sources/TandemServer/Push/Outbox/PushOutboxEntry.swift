import Crypto
import Foundation
import TandemPlatform
import TandemProtocol

/// A push the server owes one device token: the entity set that changed and where the push
/// goes, read from the outbox together with the device's current registration.
struct PushOutboxEntry: Sendable, Hashable {
    /// The app.
    var clientID: String
    /// The signed-in user.
    var userID: String
    /// The device.
    var deviceID: String
    /// Which of the device's tokens the push goes to.
    var kind: PushRegistration.Kind
    /// The destination whose entity set changed.
    var destination: String
    /// The entity set.
    var entitySet: String
    /// The latest change the push stands for (a later change moves it).
    var changeID: String
    /// When the push was first owed.
    var enqueuedAt: Timestamp
    /// When it may be sent.
    var dueAt: Timestamp
    /// How many sends were tried.
    var attempts: Int
    /// The device token, lowercase hex.
    var token: String
    /// The token's APNs environment.
    var environment: PushEnvironment
    /// When this device was last pushed for this set, if ever.
    var lastSentAt: Timestamp?
    /// When the set last changed for this push.
    var changedAt: Timestamp
    /// What the device's widgets would show after the change (``PushViewDigest``); `nil` for a
    /// push owed before subscriptions existed.
    var viewDigest: String?
    /// What the last push to this device for this set showed.
    var lastViewDigest: String?
    /// The device's time zone (IANA), where its budget's day begins; `nil` for UTC.
    var timeZone: String?
    /// The device's pushes of this kind so far, for its budget.
    var pacing: PushPacingState?

    /// The device token this push goes to, whatever the set.
    var device: PushOwed.Device {
        PushOwed.Device(clientID: clientID, userID: userID, deviceID: deviceID, kind: kind.rawValue)
    }

    /// The notification's `apns-id`: a UUID derived from the device, the set and the change, so
    /// that a send repeated after a crash carries the same id as the first.
    var apnsID: String {
        var hasher = SHA256()
        for part in [clientID, userID, deviceID, kind.rawValue, destination, entitySet, changeID] {
            hasher.update(data: Data("\(part.utf8.count):\(part)".utf8))
        }
        var bytes = Array(hasher.finalize().prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50  // version 5 layout: name-based
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        return uuid.uuidString.lowercased()
    }

    /// The `apns-collapse-id`: one per entity set, so a device shows at most one pending
    /// notification per set.
    var collapseID: String {
        let digest = SHA256.hash(data: Data("\(destination)/\(entitySet)".utf8))
        return "set-" + Hex.encode(digest.prefix(16))
    }
}
