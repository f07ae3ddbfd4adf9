import Foundation
import TandemVault

/// The registry of installed widget instances.
extension SharedContainer {
    /// Records (or updates) a widget instance's configuration.
    ///
    /// - Parameter configuration: The instance; one with the same ``WidgetConfiguration/id`` is replaced.
    /// - Throws: ``BridgeError/invalidName(_:)`` for an id that cannot be a file name, ``BridgeError/io(_:)``.
    public func registerWidget(_ configuration: WidgetConfiguration) throws(BridgeError) {
        try Self.validate(configuration.id)
        try write(configuration, kind: WidgetConfiguration.recordKind, to: WidgetConfiguration.path(id: configuration.id))
    }

    /// Every registered widget instance, by id. Damaged, foreign or newer-format files are
    /// skipped with a log line.
    ///
    /// - Throws: ``BridgeError/io(_:)`` only when the folder itself cannot be listed.
    public func widgetConfigurations() throws(BridgeError) -> [WidgetConfiguration] {
        let paths = try recordPaths(in: "configurations", suffix: "configuration")
        return readEach(paths) { path throws(BridgeError) in
            try read(WidgetConfiguration.self, kind: WidgetConfiguration.recordKind, from: path)
        }
    }

    /// Forgets the widget instance `id` (it was removed from the home screen); a missing one is fine.
    ///
    /// - Throws: ``BridgeError/invalidName(_:)``, ``BridgeError/io(_:)``.
    public func removeWidget(id: String) throws(BridgeError) {
        try Self.validate(id)
        try remove(WidgetConfiguration.path(id: id))
        AtomicFile.syncDirectory(url("configurations"))
    }
}
