#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SharedContainer {
    /// What each widget instance remembers of its own reloads: iOS discards a widget's process
    /// between reloads, so it is kept here, one small file per instance and record.
    package var widgetReloads: WidgetReloadRecords { WidgetReloadRecords(container: self) }
}

/// When a widget instance asked to be reloaded and when it was last reloaded sooner than it
/// asked (by a WidgetKit push or by the host): what tells a widget whether pushes still arrive.
package struct WidgetReloadPacing: Codable, Sendable, Equatable {
    /// The date the instance's last timeline asked to be reloaded at; `nil` when it asked for none.
    package var scheduledReloadAt: Date?
    /// When a reload last came clearly before ``scheduledReloadAt``; `nil` when none did yet.
    package var lastExternalReloadAt: Date?

    /// A record of `scheduledReloadAt` and `lastExternalReloadAt`.
    package init(scheduledReloadAt: Date?, lastExternalReloadAt: Date?) {
        self.scheduledReloadAt = scheduledReloadAt
        self.lastExternalReloadAt = lastExternalReloadAt
    }
}

/// The per-instance reload records of widgets, each named by a hash of the instance (any
/// `Encodable` value that tells instances apart, such as kind, family and configuration):
///
/// - the **pacing** (``WidgetReloadPacing``), sealed under the ``SharedSealingKey`` like the
///   ``WidgetPushStatus`` it is read with: a forged one must not tell a widget that pushes arrive;
/// - the **unavailable count**, how many reloads in a row could not read the widget's secrets
///   or records. It is read and written before the device's first unlock, when neither the
///   keychain nor a file protected until first user authentication can be, so it is a plain
///   record written without data protection. It is not secret; a forged one only changes a
///   wait, and readers clamp it to 0 through ``maximumUnavailableCount``.
///
/// ```swift
/// let reloads = container.widgetReloads
/// let count = (try? reloads.unavailableCount(of: instance)) ?? 0
/// try reloads.setUnavailableCount(count + 1, of: instance)
/// ```
package struct WidgetReloadRecords: Sendable {
    let container: SharedContainer

    static let pacingKind = "widget-pacing"
    static let unavailableKind = "widget-unavailable"
    /// The highest unavailable count read or written; more doublings than this of any wait
    /// exceed every maximum.
    package static let maximumUnavailableCount = 32

    private struct UnavailableReloads: Codable {
        var count: Int
    }

    // MARK: - Pacing

    /// The pacing of `instance`, or `nil` when there is none.
    ///
    /// - Throws: ``SharedContainerError`` for a record that does not open under `sealingKey`, is
    ///   damaged or foreign, or cannot be read now; a widget treats each as no record.
    package func pacing(of instance: some Encodable, sealingKey: SharedSealingKey) throws(SharedContainerError) -> WidgetReloadPacing? {
        let path = try Self.path(Self.pacingKind, of: instance)
        guard let plaintext = try container.readSealed(kind: Self.pacingKind, from: path, symmetricKey: sealingKey.symmetricKey) else {
            return nil
        }
        return try container.decodeSealed(WidgetReloadPacing.self, from: plaintext, kind: Self.pacingKind, path: path)
    }

    /// Seals `pacing` as the record of `instance`, replacing the one before. Not flushed: after a
    /// power loss the widget starts from none, as a new instance does.
    ///
    /// - Throws: ``SharedContainerError/io(_:)`` when the container cannot be written.
    package func setPacing(_ pacing: WidgetReloadPacing, of instance: some Encodable, sealingKey: SharedSealingKey) throws(SharedContainerError) {
        let path = try Self.path(Self.pacingKind, of: instance)
        try container.writeSealed(value: pacing, kind: Self.pacingKind, to: path, symmetricKey: sealingKey.symmetricKey, durability: .cache)
    }

    // MARK: - Unavailable count

    /// How many reloads of `instance` in a row found its data unreadable, clamped to 0 through
    /// ``maximumUnavailableCount``; 0 when there is no record.
    ///
    /// - Throws: ``SharedContainerError`` for a damaged or foreign record, or one that cannot be
    ///   read now; a widget treats each as 0.
    package func unavailableCount(of instance: some Encodable) throws(SharedContainerError) -> Int {
        let path = try Self.path(Self.unavailableKind, of: instance)
        let count = try container.read(UnavailableReloads.self, kind: Self.unavailableKind, from: path)?.count ?? 0
        return min(max(count, 0), Self.maximumUnavailableCount)
    }

    /// Records `count` (clamped) unavailable reloads in a row for `instance`, in a file readable
    /// before the first unlock.
    ///
    /// - Throws: ``SharedContainerError/io(_:)`` when the container cannot be written.
    package func setUnavailableCount(_ count: Int, of instance: some Encodable) throws(SharedContainerError) {
        let path = try Self.path(Self.unavailableKind, of: instance)
        let clamped = UnavailableReloads(count: min(max(count, 0), Self.maximumUnavailableCount))
        try writeWithoutProtection(try SharedRecord.encode(clamped, kind: Self.unavailableKind), kind: Self.unavailableKind, to: path)
    }

    /// Forgets the unavailable count of `instance` (its data was read again); a missing record
    /// is not an error.
    package func removeUnavailableCount(of instance: some Encodable) throws(SharedContainerError) {
        try container.remove(try Self.path(Self.unavailableKind, of: instance))
    }

    // MARK: - Files

    /// The path of the `kind` record of `instance`: `<kind>-<SHA-256 of kind and instance, hex>`.
    static func path(_ kind: String, of instance: some Encodable) throws(SharedContainerError) -> String {
        "\(kind)-\(DataRequest.id(kind: kind, canonicalKey: try DataRequest.canonicalKey(instance)))"
    }

    /// Writes `data` at `path` atomically, in a file that stays readable and replaceable before
    /// the device's first unlock. On Apple platforms a new file in the App Group container is
    /// protected until first user authentication, so the file is created without data protection
    /// (Foundation's atomic write creates its temporary file in that class); elsewhere there is
    /// no data protection and the container's own write serves.
    private func writeWithoutProtection(_ data: Data, kind: String, to path: String) throws(SharedContainerError) {
        #if canImport(Darwin)
        let limit = RecordSizeLimit.bytes(forKind: kind)
        guard data.count <= limit else { throw .tooLarge(kind: kind, size: data.count, limit: limit) }
        do {
            try data.write(to: container.url(path), options: [.atomic, .noFileProtection])
        } catch {
            throw .io("cannot write \(path): \(error)")
        }
        #else
        try container.write(data, kind: kind, to: path, durability: .cache)
        #endif
    }
}
