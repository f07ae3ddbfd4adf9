#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// The loggers the command-line tool gives the SDK: they write to standard error, never to
/// standard output (which carries the commands' results), at the level `TANDEM_LOG_LEVEL`
/// names (`trace` … `critical`, default `warning`).
public enum ToolLogger {
    /// A logger for `label` that writes to standard error.
    public static func make(label: String) -> Logger {
        var logger = Logger(label: label) { EscapingLogHandler(StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = level
        return logger
    }

    /// The level `TANDEM_LOG_LEVEL` names, `warning` by default; read once, as every logger
    /// the process makes asks for it.
    public static let level: Logger.Level =
        ProcessInfo.processInfo.environment["TANDEM_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
}
