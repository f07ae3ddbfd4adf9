#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import TandemAuth
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel

/// Where the host keeps the catalog for its widgets: a sealed record in the shared container.
extension DestinationCatalog {
    /// The record's kind and its path in the container.
    public static let recordPath = "destination-catalog"

    /// The key the catalog is sealed under, derived from the auxiliary share. TandemSharedContainer has
    /// no purpose of its own for the catalog; the snapshots' key serves, and the sealing binds
    /// the record's kind and path, so a snapshot never opens as a catalog nor a catalog as one.
    package static func key(_ share: AuxiliaryShare) -> ContainerKey { ContainerKey(share: share, purpose: .snapshots) }

    /// The catalog the host wrote, or `nil` when there is none or none to trust: a file that
    /// does not open with `share` (written by someone else, or before the key was rotated),
    /// a damaged or foreign one. Such a file is left where it is and logged, never read.
    ///
    /// - Throws: `SharedContainerError/io(_:)` when the file exists but cannot be read (the device
    ///   has not been unlocked since it started): keep the catalog you had.
    public static func read(
        from container: SharedContainer, share: AuxiliaryShare, logger: Logger = Logger(label: "tandem.widgets")
    ) throws(SharedContainerError) -> DestinationCatalog? {
        let plaintext: Data
        do {
            guard let opened = try container.sealed.read(kind: recordPath, from: recordPath, key: key(share)) else { return nil }
            plaintext = opened
        } catch {
            if case .io = error { throw error }
            logger.warning("ignoring a destination catalog that cannot be trusted", metadata: ["error": "\(error)"])
            return nil
        }
        do {
            return try JSONDecoder().decode(DestinationCatalog.self, from: plaintext)
        } catch {
            logger.warning("ignoring a destination catalog of another format", metadata: ["error": "\(error)"])
            return nil
        }
    }
}
