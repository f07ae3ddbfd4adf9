#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

/// The phone's side of APNs, played on Linux for the local stand-in (`tandem apns-standin`).
///
/// On an iPhone the system gets a token from APNs for the app (and, on iOS 26, one for its
/// widgets) and delivers pushes to them. Here a device is a folder `<devices>/<token in hex>/`
/// in the stand-in's devices folder (the stand-in refuses tokens without one, as APNs refuses
/// tokens it never issued), and the stand-in drops each accepted notification as a file in its
/// `inbox/`.
public struct SimulatedAPNsDevice: Sendable {
    /// The token, 32 bytes as APNs issues them.
    public let token: Data
    /// The stand-in's devices folder.
    public let devices: URL

    /// The device's folder.
    public var folder: URL { devices.appendingPathComponent(Hex.encode(token), isDirectory: true) }

    /// Where its pushes arrive.
    public var inbox: FolderInbox { FolderInbox(directory: folder.appendingPathComponent("inbox", isDirectory: true)) }

    /// The device `known` names if its folder is still there, else a new token and folder (the
    /// system's registration for remote notifications, which may hand over a new token).
    ///
    /// - Throws: `CommandFailure` when the folder cannot be made.
    public static func register(in devices: URL, reusing known: Data?) throws -> SimulatedAPNsDevice {
        if let known, known.count == 32 {
            let device = SimulatedAPNsDevice(token: known, devices: devices)
            if FileManager.default.fileExists(atPath: device.folder.path) { return device }
        }
        var generator = SystemRandomNumberGenerator()
        let device = SimulatedAPNsDevice(token: Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }), devices: devices)
        do {
            try FileManager.default.createDirectory(
                at: device.folder.appendingPathComponent("inbox", isDirectory: true), withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot register with the APNs stand-in in \(devices.path): \(error)")
        }
        return device
    }
}
