import Foundation
import Logging
import TandemTool
import TandemWidgetSimulator

/// A phone day against the real server: starts the server in this process on the day's clock,
/// onboards one app per mode an hour before the day, plays the day and stops the server. Every
/// file lives in a temporary directory removed at the end, in memory where the machine has a
/// RAM disk (``scratchRoot``).
///
/// An app that takes pushes (``PhoneDayWidgetMode/pushed``) registers its devices' tokens with
/// the server; with `pushes` on, the server has an APNs key for the app, so each data change
/// goes through its outbox, and the day runs the server's sender against the APNs stand-in
/// (``PhoneDayAPNs``) at each of its moments. With `pushes` off the server owes no push, and
/// the pushed app lives on its schedules alone.
enum PhoneDaySimulation {
    /// Where days keep their files: `/dev/shm` when it is a writable directory (Linux), else the
    /// temporary directory. A day writes its server's database, two containers and two vaults
    /// durably a few thousand times and keeps none of it, so memory spares the disk's flushes
    /// (a matrix of 60 days runs about a tenth faster) without changing a figure of the day.
    static var scratchRoot: URL {
        let memory = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: memory.path, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: memory.path)
        {
            return memory
        }
        return FileManager.default.temporaryDirectory
    }

    /// Plays `settings` for `modes`, the server sending pushes when `pushes` is on.
    static func run(settings: PhoneDaySettings, modes: [PhoneDayWidgetMode], pushes: Bool = true) async throws -> PhoneDayReport {
        let directory = scratchRoot.appendingPathComponent("tandem-phone-day-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = VirtualClock(settings.start.addingTimeInterval(-3_600))
        let lock = DeviceLock()
        let day = try PhoneDay(settings: settings, clock: clock, deviceLock: lock)
        let logger = ToolLogger.make(label: "tandem.server")
        let server = try await PhoneDayServer.start(
            in: directory.appendingPathComponent("server", isDirectory: true), clock: clock, taps: settings.taps.count, logger: logger)
        let devices = directory.appendingPathComponent("apns-devices", isDirectory: true)
        var apns: PhoneDayAPNs?
        do {
            var apps: [PhoneDayMode] = []
            var pushedApps: [String: PhoneDayHostApp] = [:]
            for mode in modes {
                let app = try await PhoneDayHostApp.onboard(
                    mode: mode, root: directory.appendingPathComponent(mode.rawValue, isDirectory: true), server: server.url,
                    apnsDevices: mode.takesPushes ? devices : nil, clock: clock, lock: lock)
                apps.append(PhoneDayMode(name: mode.rawValue, app: app))
                if mode.takesPushes { pushedApps[mode.rawValue] = app }
            }
            if pushes, !pushedApps.isEmpty {
                apns = try await PhoneDayAPNs.start(devices: devices, server: server, apps: pushedApps, clock: clock, logger: logger)
            }
            let report = await day.run(modes: apps) { [apns] version in
                do {
                    try await server.publish(version: version)
                    apns?.dataChanged()
                } catch {
                    logger.error("the server's data did not change", metadata: ["version": "\(version)", "error": "\(error)"])
                }
            } sendPushes: { [apns] in
                await apns?.sendDue(now: clock.now) ?? []
            } nextPush: { [apns] in
                apns?.nextPassDate()
            }
            await apns?.stop()
            await server.stop()
            return report
        } catch {
            await apns?.stop()
            await server.stop()
            throw error
        }
    }
}
