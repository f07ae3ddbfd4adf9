import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files only the server's own account may read: the SQLite database (with its `-wal` and `-shm`
/// files) and the generated system secret beside it.
///
/// Directories this creates are `0700`; files are created `0600` before anyone writes to them.
/// SQLite gives its `-wal` and `-shm` files the main file's mode, so a private main file makes
/// the whole database private. An existing file that group or others can reach is narrowed to
/// `0600` (the server logs that it did): refusing to start would only push operators to widen
/// it again by hand. Directories that already exist are left as they are (a database in `/tmp`
/// must not change `/tmp`).
enum PrivateFiles {
    /// The mode of every file this creates or narrows.
    static let fileMode: mode_t = 0o600
    /// The mode of every directory this creates.
    static let directoryMode: mode_t = 0o700

    /// Creates the missing directories of `directory`, each `0700`.
    ///
    /// - Throws: ``StorageError/unavailable(_:)`` when one cannot be created.
    static func createDirectory(_ directory: String) throws(StorageError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue { return }
        let parent = (directory as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != directory { try createDirectory(parent) }
        guard mkdir(directory, directoryMode) == 0 || errno == EEXIST else {
            throw .unavailable("cannot create the directory \(directory): \(String(cString: strerror(errno)))")
        }
    }

    /// Makes sure the database at `path` and its directory are private before SQLite opens it:
    /// creates a missing file empty with mode `0600`, narrows an existing one (and its `-wal` and
    /// `-shm` files) to `0600`.
    ///
    /// - Returns: The files whose mode was narrowed (empty when all were private already).
    /// - Throws: ``StorageError/unavailable(_:)`` when a file cannot be created or its mode changed.
    @discardableResult
    static func prepareDatabase(at path: String) throws(StorageError) -> [String] {
        try createDirectory((path as NSString).deletingLastPathComponent)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        if descriptor >= 0 {
            close(descriptor)
            return []
        }
        guard errno == EEXIST else {
            throw .unavailable("cannot create the database file \(path): \(String(cString: strerror(errno)))")
        }
        var narrowed: [String] = []
        for file in [path, path + "-wal", path + "-shm"] where try narrow(file) {
            narrowed.append(file)
        }
        return narrowed
    }

    /// Creates `path` with mode `0600` and writes `contents`, unless it exists.
    ///
    /// - Returns: `false` when the file existed or could not be written (a half-written file is removed).
    static func createExclusively(_ path: String, contents: Data) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { return false }
        let written = contents.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == contents.count, synced else {
            unlink(path)
            return false
        }
        return true
    }

    /// Sets `path`'s mode to `0600` if group or others have any access; a missing file is skipped.
    ///
    /// - Returns: Whether the mode was changed.
    static func narrow(_ path: String) throws(StorageError) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        guard status.st_mode & 0o077 != 0 else { return false }
        guard chmod(path, fileMode) == 0 else {
            throw .unavailable("\(path) is readable by other accounts (mode \(mode(of: status))) and its mode cannot be changed to 0600: \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// The permission bits of `path` as an octal string such as `0644`, or `nil` if it is missing.
    static func mode(ofFile path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return mode(of: status)
    }

    private static func mode(of status: stat) -> String {
        "0" + String(status.st_mode & 0o777, radix: 8)
    }
}
