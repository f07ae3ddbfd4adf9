#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

/// Leftovers of interrupted writes: a process killed between writing a temporary file and
/// renaming (or linking) it into place leaves that file behind. Readers never see it — listings
/// pass over hidden files — but nothing else would ever remove it.
extension SharedContainer {
    /// How old a temporary file must be to count as a leftover: far longer than any write takes,
    /// so that a write still under way in another process is never disturbed.
    static let leftoverAge: TimeInterval = 60

    /// Removes the temporary files of writes interrupted more than ``leftoverAge`` ago: hidden
    /// `*.tmp` files (a record being replaced, or after a swap, the version it replaced) and
    /// `*.aside` files (a request being completed) in every folder, and whatever is in
    /// `leases/.staging`. The lease removal locks (hidden, but neither) stay. Best effort: a file
    /// that cannot be looked at or removed is left for next time.
    ///
    /// - Parameter now: The current date.
    func removeLeftovers(now: Date) {
        for folder in [""] + Self.folders {
            let folderPath = url(folder).path
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folderPath) else { continue }
            for name in names where Self.isTemporary(name, in: folder) {
                let path = folderPath + "/" + name
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                    attributes[.type] as? FileAttributeType == .typeRegular,
                    let modified = attributes[.modificationDate] as? Date,
                    now.timeIntervalSince(modified) > Self.leftoverAge, (try? FileSystem.remove(atPath: path)) != nil
                else { continue }
                logger.notice("removed a temporary file left by an interrupted write", metadata: ["path": "\(folder)/\(name)"])
            }
        }
    }

    /// Whether `name` in `folder` is a temporary file of a write (see ``removeLeftovers(now:)``).
    static func isTemporary(_ name: String, in folder: String) -> Bool {
        if folder == "leases/.staging" { return true }
        return name.hasPrefix(".") && (name.hasSuffix(".tmp") || name.hasSuffix(".aside"))
    }
}
