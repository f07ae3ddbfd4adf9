#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

extension SharedContainer {
    /// The widget instances installed and how each is configured.
    public var widgets: WidgetRegistry { WidgetRegistry(container: self) }
}

/// The registry of installed widget instances.
///
/// ```swift
/// try container.widgets.register(configuration)
/// let installed = try container.widgets.configurations()
/// ```
public struct WidgetRegistry: Sendable {
    let container: SharedContainer

    /// Records (or updates) a widget instance's configuration.
    ///
    /// - Parameter configuration: The instance; one with the same ``RegisteredWidget/id`` is replaced.
    /// - Throws: ``SharedContainerError/invalidName(_:)`` for an id that cannot be a file name, ``SharedContainerError/io(_:)``.
    public func register(_ configuration: RegisteredWidget) throws(SharedContainerError) {
        try SharedContainer.validate(configuration.id)
        try container.write(configuration, kind: RegisteredWidget.recordKind, to: RegisteredWidget.path(id: configuration.id))
    }

    /// Every registered widget instance, by id. Damaged, foreign or newer-format files are
    /// skipped with a log line.
    ///
    /// - Throws: ``SharedContainerError/io(_:)`` only when the folder itself cannot be listed.
    public func configurations() throws(SharedContainerError) -> [RegisteredWidget] {
        let paths = try container.recordPaths(in: "configurations", suffix: "configuration")
        return container.readEach(paths) { path throws(SharedContainerError) in
            try container.read(RegisteredWidget.self, kind: RegisteredWidget.recordKind, from: path)
        }
    }

    /// Forgets the widget instance `id` (it was removed from the home screen); a missing one is fine.
    ///
    /// - Throws: ``SharedContainerError/invalidName(_:)``, ``SharedContainerError/io(_:)``.
    public func remove(id: String) throws(SharedContainerError) {
        try SharedContainer.validate(id)
        try container.remove(RegisteredWidget.path(id: id))
        AtomicFile.syncDirectory(container.url("configurations"))
    }
}
