import Foundation
import Logging
import TandemTool
import TandemWidgetSimulator

/// A phone day against the real server: starts the server in this process on the day's clock,
/// onboards one app per mode an hour before the day, plays the day and stops the server. Every
/// file lives in a temporary directory removed at the end.
enum PhoneDaySimulation {
    /// Plays `settings` for `modes`.
    static func run(settings: PhoneDaySettings, modes: [PhoneDayWidgetMode]) async throws -> PhoneDayReport {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-phone-day-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = VirtualClock(settings.start.addingTimeInterval(-3_600))
        let lock = DeviceLock()
        let day = try PhoneDay(settings: settings, clock: clock, deviceLock: lock)
        let logger = ToolLogger.make(label: "tandem.server")
        let server = try await PhoneDayServer.start(in: directory.appendingPathComponent("server", isDirectory: true), clock: clock, logger: logger)
        do {
            var apps: [PhoneDayMode] = []
            for mode in modes {
                let app = try await PhoneDayHostApp.onboard(
                    mode: mode, root: directory.appendingPathComponent(mode.rawValue, isDirectory: true), server: server.url, clock: clock, lock: lock)
                apps.append(PhoneDayMode(name: mode.rawValue, app: app))
            }
            let report = await day.run(modes: apps) { version in
                do {
                    try await server.publish(version: version)
                } catch {
                    logger.error("the server's data did not change", metadata: ["version": "\(version)", "error": "\(error)"])
                }
            }
            await server.stop()
            return report
        } catch {
            await server.stop()
            throw error
        }
    }
}
