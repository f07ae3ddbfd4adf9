#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SharedContainer {
    /// Whether the server takes the widgets' push token: the host says so, the widgets read it.
    public var widgetPushStatus: WidgetPushStatusRecord { WidgetPushStatusRecord(container: self) }
}

/// The host's word that the server accepted a push registration carrying the widgets' push
/// token, so that WidgetKit push updates can reach them.
///
/// A widget that reads one stops polling: it asks for a sparse safety-net reload
/// (`DataWidgetSchedule.pushSafetyNet`) and relies on pushes for the rest, until they stop
/// arriving or the record is gone.
public struct WidgetPushStatus: Codable, Sendable, Equatable {
    /// When the server accepted the registration.
    public var registeredAt: Date

    /// A registration accepted at `registeredAt`.
    public init(registeredAt: Date) {
        self.registeredAt = registeredAt
    }
}

/// The ``WidgetPushStatus`` in the container, sealed under the ``SharedSealingKey`` like the
/// widgets' push token: any process with the App Group can write a file there, and a forged
/// status would make the widgets stop polling for pushes that never come.
///
/// ```swift
/// // In the host, once the server accepted a registration with the widgets' token:
/// try container.widgetPushStatus.write(WidgetPushStatus(registeredAt: now), sealingKey: sealingKey)
/// // When the registration is withdrawn, or at sign-out:
/// try container.widgetPushStatus.remove()
/// // In the widget:
/// let pushed = (try? container.widgetPushStatus.read(sealingKey: sealingKey)) != nil
/// ```
public struct WidgetPushStatusRecord: Sendable {
    let container: SharedContainer

    /// Where the record lives in the container.
    static let path = "widget-push-status"
    /// The record's kind in its sealed header.
    static let kind = "widget-push-status"

    /// Seals `status` and writes it, replacing the one before.
    ///
    /// - Throws: ``SharedContainerError/unencodable(_:)`` when it cannot be sealed;
    ///   ``SharedContainerError/io(_:)`` when the container cannot be written.
    public func write(_ status: WidgetPushStatus, sealingKey: SharedSealingKey) throws(SharedContainerError) {
        try container.writeSealed(value: status, kind: Self.kind, to: Self.path, symmetricKey: sealingKey.symmetricKey)
    }

    /// The status the host wrote last, or `nil` when there is none.
    ///
    /// - Throws: ``SharedContainerError/undecryptable(path:)`` for a record sealed under another
    ///   key or changed; ``SharedContainerError/foreignRecord(path:kind:)`` for another kind of
    ///   record at its path; ``SharedContainerError/corrupt(path:reason:)`` for one that opens
    ///   but holds no status; ``SharedContainerError/io(_:)`` when it cannot be read now (before
    ///   the first unlock). A widget treats every one of these as no status.
    public func read(sealingKey: SharedSealingKey) throws(SharedContainerError) -> WidgetPushStatus? {
        guard let plaintext = try container.readSealed(kind: Self.kind, from: Self.path, symmetricKey: sealingKey.symmetricKey) else {
            return nil
        }
        return try container.decodeSealed(WidgetPushStatus.self, from: plaintext, kind: Self.kind, path: Self.path)
    }

    /// Removes the status (the registration was withdrawn, or the user signed out): the widgets
    /// go back to polling. A missing record is not an error.
    public func remove() throws(SharedContainerError) {
        try container.remove(Self.path)
    }
}
