#if canImport(Darwin)
import Foundation

/// The App Group's shared directory on an Apple platform: where the host app and its extensions
/// meet (``SharedContainer``).
///
/// Needs the **App Groups** entitlement (`com.apple.security.application-groups`) with the same
/// group identifier in the app and in every extension; without it the system answers `nil` and
/// this throws ``AppGroupContainerError/entitlementMissing(_:)``, never a path nobody shares.
///
/// ```swift
/// let container = try AppGroupContainer.sharedContainer(groupIdentifier: "group.com.example.sales")
/// ```
public enum AppGroupContainer {
    /// The group's directory (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`).
    ///
    /// - Throws: ``AppGroupContainerError/entitlementMissing(_:)``.
    public static func directory(groupIdentifier: String) throws(AppGroupContainerError) -> URL {
        guard let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: groupIdentifier) else {
            throw .entitlementMissing(groupIdentifier)
        }
        return url
    }

    /// The ``SharedContainer`` in the group's directory, under `Tandem/`.
    ///
    /// - Throws: ``AppGroupContainerError``.
    public static func sharedContainer(groupIdentifier: String) throws(AppGroupContainerError) -> SharedContainer {
        let directory = try directory(groupIdentifier: groupIdentifier).appendingPathComponent("Tandem", isDirectory: true)
        do {
            return try SharedContainer(directory: directory)
        } catch {
            throw .unusable("\(error)")
        }
    }
}
#endif
