import Crypto
import CryptoExtras
import Foundation
import TandemProtocol

/// Hashes passwords with scrypt (memory-hard) under a per-password random salt.
///
/// The hash string carries its parameters, so the cost can rise later without breaking old
/// hashes: `$scrypt$ln=17,r=8,p=1$<salt base64url>$<hash base64url>`. ``isWeaker(_:)`` tells
/// whether a stored hash should be replaced with one at the current cost.
///
/// ```swift
/// let hasher = PasswordHasher()
/// let stored = try hasher.hash("correct horse battery staple")
/// try hasher.verify("correct horse battery staple", against: stored)   // true
/// ```
public struct PasswordHasher: Sendable {
    /// log2 of scrypt's CPU/memory cost N (17 → N = 131072, 128 MiB with r = 8).
    public var logN: Int
    /// scrypt's block size r.
    public var blockSize: Int
    /// scrypt's parallelism p.
    public var parallelism: Int

    /// A hasher with the given cost; the defaults are OWASP's minimum for scrypt
    /// (N = 2^17, r = 8, p = 1).
    public init(logN: Int = 17, blockSize: Int = 8, parallelism: Int = 1) {
        self.logN = logN
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// Hashes a password under a fresh random salt.
    ///
    /// - Throws: ``PasswordError/derivationFailed(_:)`` if scrypt refuses the parameters.
    public func hash(_ password: String) throws(PasswordError) -> String {
        let salt = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        let derived = try derive(password, salt: salt, logN: logN, blockSize: blockSize, parallelism: parallelism)
        return "$scrypt$ln=\(logN),r=\(blockSize),p=\(parallelism)$\(Base64URL.encode(salt))$\(Base64URL.encode(derived))"
    }

    /// Whether `password` matches `stored`, compared in constant time.
    ///
    /// - Throws: ``PasswordError/malformedHash`` when `stored` is not a hash this type wrote.
    public func verify(_ password: String, against stored: String) throws(PasswordError) -> Bool {
        let parsed = try Self.parse(stored)
        let derived = try derive(
            password, salt: parsed.salt, logN: parsed.logN, blockSize: parsed.blockSize, parallelism: parsed.parallelism)
        return ConstantTime.equals(derived, parsed.hash)
    }

    /// Whether `stored` was made at a lower cost than this hasher's (or cannot be read), so it
    /// should be replaced once the password is known to be right.
    public func isWeaker(_ stored: String) -> Bool {
        guard let parsed = try? Self.parse(stored) else { return true }
        return parsed.logN < logN || parsed.blockSize < blockSize || parsed.parallelism < parallelism
    }

    /// A stored hash's parts.
    private struct Parsed {
        var logN: Int
        var blockSize: Int
        var parallelism: Int
        var salt: Data
        var hash: Data
    }

    private static func parse(_ stored: String) throws(PasswordError) -> Parsed {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "scrypt" else { throw .malformedHash }
        var parameters: [String: Int] = [:]
        for pair in parts[2].split(separator: ",") {
            let keyValue = pair.split(separator: "=")
            guard keyValue.count == 2, let value = Int(keyValue[1]) else { throw .malformedHash }
            parameters[String(keyValue[0])] = value
        }
        guard let logN = parameters["ln"], let blockSize = parameters["r"], let parallelism = parameters["p"],
              (1...24).contains(logN),
              let salt = Base64URL.decode(String(parts[3])),
              let expected = Base64URL.decode(String(parts[4])), !expected.isEmpty
        else { throw .malformedHash }
        return Parsed(logN: logN, blockSize: blockSize, parallelism: parallelism, salt: salt, hash: expected)
    }

    private func derive(_ password: String, salt: Data, logN: Int, blockSize: Int, parallelism: Int) throws(PasswordError) -> Data {
        do {
            let key = try KDF.Scrypt.deriveKey(
                from: Data(password.utf8), salt: salt, outputByteCount: 32,
                rounds: 1 << logN, blockSize: blockSize, parallelism: parallelism)
            return key.withUnsafeBytes { Data($0) }
        } catch {
            throw .derivationFailed(String(describing: error))
        }
    }
}
