import Foundation
import TandemPlatform

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A device as the stand-in sees it: a folder named after its device token in the devices
/// directory, with the pushes it received in `inbox/` and, once the app is gone, a file
/// `unregistered` (the stand-in then answers 410 `Unregistered`).
///
/// ```text
/// <devicesDirectory>/<token>/inbox/<apns-id>.json   one accepted push (see APNsStandInDelivery)
/// <devicesDirectory>/<token>/unregistered           milliseconds since 1970 when the token stopped being valid
/// ```
///
/// ``register(in:)`` plays the iPhone asking APNs for a token: it makes a random 32-byte token
/// and its folder, and the "app" hands the token to its server.
public struct APNsStandInDevice: Sendable, Hashable {
    /// The device token: 64 lower-case hex digits.
    public let token: String
    /// The device's folder, `<devicesDirectory>/<token>`.
    public let directory: URL

    /// The folder accepted pushes are written to.
    public var inbox: URL { directory.appending(path: "inbox", directoryHint: .isDirectory) }

    /// The file whose presence makes the stand-in answer 410 `Unregistered`.
    public var unregisteredMarker: URL { directory.appending(path: "unregistered", directoryHint: .notDirectory) }

    /// The device whose folder for `token` is (or would be) in `devicesDirectory`.
    ///
    /// - Parameters:
    ///   - token: The device token (hex; kept lower-case).
    ///   - devicesDirectory: The folder of device folders.
    public init(token: String, in devicesDirectory: URL) {
        self.token = token.lowercased()
        self.directory = devicesDirectory.appending(path: self.token, directoryHint: .isDirectory)
    }

    /// Makes a new device: a random 32-byte token and its folder with an empty inbox.
    ///
    /// - Parameter devicesDirectory: The folder of device folders; created when missing.
    /// - Returns: The device, whose ``token`` the app sends to its server.
    /// - Throws: ``APNsStandInError/deviceDirectoryUnwritable(path:reason:)`` when the folder
    ///   cannot be made.
    public static func register(in devicesDirectory: URL) throws(APNsStandInError) -> APNsStandInDevice {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let device = APNsStandInDevice(token: Hex.encode(bytes), in: devicesDirectory)
        do {
            try FileManager.default.createDirectory(at: device.inbox, withIntermediateDirectories: true)
        } catch {
            throw .deviceDirectoryUnwritable(path: device.directory.path, reason: "\(error)")
        }
        return device
    }

    /// Whether the device's folder exists.
    public var exists: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Marks the token as no longer valid (the app was deleted): later pushes get 410 `Unregistered`
    /// with `date` as the `timestamp`.
    ///
    /// - Parameter date: When the token stopped being valid.
    /// - Throws: ``APNsStandInError/unknownDevice(token:)`` when the device has no folder,
    ///   ``APNsStandInError/deviceDirectoryUnwritable(path:reason:)`` when the file cannot be written.
    public func markUnregistered(at date: Date) throws(APNsStandInError) {
        guard exists else { throw .unknownDevice(token: token) }
        let text = "\(APNsStandInTime.milliseconds(date))\n"
        do {
            try Data(text.utf8).write(to: unregisteredMarker, options: .atomic)
        } catch {
            throw .deviceDirectoryUnwritable(path: unregisteredMarker.path, reason: "\(error)")
        }
    }

    /// When the token stopped being valid, or `nil` while it is valid: the `unregistered` file's
    /// content (milliseconds since 1970) or, when that is not a number, the file's modification time.
    public func unregisteredSince() -> Date? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: unregisteredMarker.path) else {
            return nil
        }
        if let data = FileManager.default.contents(atPath: unregisteredMarker.path),
            let milliseconds = Int64(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        {
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        return attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
    }

    /// The pushes in the inbox, oldest first (by `received_at`, then id).
    ///
    /// - Throws: ``APNsStandInError/unknownDevice(token:)`` when the device has no folder.
    public func receivedNotifications() throws(APNsStandInError) -> [APNsStandInDelivery] {
        guard exists else { throw .unknownDevice(token: token) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: inbox.path)) ?? []
        let decoder = JSONDecoder()
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
            .compactMap { name in
                FileManager.default.contents(atPath: inbox.appending(path: name).path)
                    .flatMap { try? decoder.decode(APNsStandInDelivery.self, from: $0) }
            }
            .sorted { ($0.receivedAt, $0.apnsID) < ($1.receivedAt, $1.apnsID) }
    }

    /// Writes `delivery` to the inbox as `<apns-id>.json`: to a hidden temporary file first, then
    /// renamed, so a reader never sees half a notification.
    func deliver(_ delivery: APNsStandInDelivery) throws(APNsStandInError) {
        let final = inbox.appending(path: "\(delivery.apnsID).json", directoryHint: .notDirectory)
        let temporary = inbox.appending(path: ".\(delivery.apnsID).\(UUID().uuidString).tmp", directoryHint: .notDirectory)
        do {
            try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(delivery).write(to: temporary)
        } catch {
            throw .deviceDirectoryUnwritable(path: inbox.path, reason: "\(error)")
        }
        guard rename(temporary.path, final.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw .deviceDirectoryUnwritable(path: final.path, reason: reason)
        }
    }
}
