#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import TandemPlatform
import TandemSharedContainer

/// The extensions' ``TokenStore`` in direct mode: the scoped extension grant, sealed (AES-GCM
/// under a key derived from the auxiliary share) in the shared container's `grant` record.
///
/// The host writes it after the token exchange; every extension reads it and, through a
/// ``RefreshCoordinator``, refreshes it single-flight. The user's own tokens never go here.
///
/// ```swift
/// guard let share = try AuxiliaryShare.load(from: sharedSecrets) else { return }
/// let store = SharedGrantStore(container: container, share: share)
/// try store.save(try await oauth.exchangeForExtensionGrant(accessToken: userTokens.accessToken))
/// ```
public struct SharedGrantStore: TokenStore {
    /// The record's kind and path in the container.
    public static let kind = "grant"
    /// The record's path, relative to the container.
    public static let path = "grant"

    /// The shared container.
    public let container: SharedContainer
    private let key: ContainerKey
    private let logger: Logger
    /// The last grant this store opened, and the sealed bytes it came from: while the file still
    /// holds those bytes, a load reads it but neither decrypts nor decodes it.
    private let lastRead = LastRead()

    /// Shared by copies of the store, so that all of them benefit.
    private final class LastRead: Sendable {
        let value = Locked<(sealed: Data, tokens: TokenSet)?>(nil)
    }

    /// A store in `container`, sealed with the key derived from `share`.
    ///
    /// - Parameters:
    ///   - container: The App Group container.
    ///   - share: The extensions' auxiliary share.
    ///   - logger: Receives a line when a grant sealed under an older share is ignored.
    public init(container: SharedContainer, share: AuxiliaryShare, logger: Logger = Logger(label: "tandem.auth.grant")) {
        self.container = container
        self.key = ContainerKey(share: share, purpose: .grant)
        self.logger = logger
    }

    /// The grant, or `nil` when there is none — or when it was sealed under another share
    /// (the paired key was rotated): such a grant can never be read again, and the host
    /// writes a new one.
    ///
    /// - Throws: ``AuthError/storage(_:)`` for a damaged or foreign record, or an I/O failure.
    public func load() throws(AuthError) -> TokenSet? {
        let cached = lastRead.value.withLock { $0 }
        let read: SealedRead
        do {
            read = try container.sealed.read(kind: Self.kind, from: Self.path, key: key, ifChangedFrom: cached?.sealed)
        } catch .undecryptable {
            logger.notice("the extension grant does not open with this share; treated as absent")
            forget()
            return nil
        } catch {
            throw .storage("cannot read the extension grant: \(error)")
        }
        switch read {
        case .missing:
            forget()
            return nil
        case .unchanged:
            // `cached` is set: `.unchanged` answers only bytes we gave.
            return cached?.tokens
        case .opened(let plaintext, let sealed):
            let tokens: TokenSet
            do {
                tokens = try JSONDecoder().decode(TokenSet.self, from: plaintext)
            } catch {
                throw .storage("the extension grant is not a token set")
            }
            lastRead.value.withLock { $0 = (sealed, tokens) }
            return tokens
        }
    }

    /// Seals and writes `tokens` atomically.
    public func save(_ tokens: TokenSet) throws(AuthError) {
        do {
            let sealed = try container.sealed.write(value: tokens, kind: Self.kind, to: Self.path, key: key)
            // What this process wrote, it need not open again.
            lastRead.value.withLock { $0 = (sealed, tokens) }
        } catch .unencodable {
            throw .storage("cannot encode the extension grant")
        } catch {
            throw .storage("cannot write the extension grant: \(error)")
        }
    }

    /// Removes the grant.
    public func clear() throws(AuthError) {
        forget()
        do {
            try container.sealed.remove(at: Self.path)
        } catch {
            throw .storage("cannot remove the extension grant: \(error)")
        }
    }

    private func forget() {
        lastRead.value.withLock { $0 = nil }
    }
}
