#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Exchanges two names atomically: each path then names the other's file. Linux's
/// `renameat2(RENAME_EXCHANGE)`; Apple's `renamex_np(RENAME_SWAP)` would be its twin here.
///
/// ```swift
/// if FileExchange.isAvailable {
///     try FileExchange.exchange(temporary.path, with: record.path)
/// }
/// ```
package enum FileExchange {
    /// Whether this platform and C library can exchange names (Linux with glibc 2.28 or later).
    package static var isAvailable: Bool {
        #if os(Linux)
        renameat2 != nil
        #else
        false
        #endif
    }

    /// Exchanges the entries `first` and `second`, which must both exist.
    ///
    /// - Throws: ``SystemError``; ``SystemError/notSupported`` where ``isAvailable`` is `false`.
    package static func exchange(_ first: String, with second: String) throws(SystemError) {
        #if os(Linux)
        guard let renameat2 else { throw .notSupported }
        guard renameat2(AT_FDCWD, first, AT_FDCWD, second, renameExchange) == 0 else { throw .last }
        #else
        throw .notSupported
        #endif
    }

    #if os(Linux)
    /// `RENAME_EXCHANGE`, from `<linux/fs.h>`.
    private static let renameExchange: UInt32 = 2

    /// `renameat2(olddirfd, oldpath, newdirfd, newpath, flags)`.
    private typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `renameat2`, which the Glibc module does not export: looked up once; `nil` on an
    /// older C library.
    private static let renameat2: Renameat2? = {
        guard let symbol = dlsym(nil, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Renameat2.self)
    }()
    #endif
}
