import Crypto
import CryptoExtras
import Foundation

/// How expensive it is to turn a passcode into a key: the scrypt parameters.
///
/// The default, ``calibrated(minimumDuration:)``, measures this device when the vault is
/// created (or the passcode changed) and picks the smallest work factor that takes at least
/// the given time, so a guessing attacker pays it on every guess. The chosen parameters are
/// stored with the salt; opening the vault on the same device later costs about the same.
///
/// ```swift
/// try vault.create(passcode: passcode, policy: .default, cost: .calibrated())
/// ```
public enum KeyDerivationCost: Sendable, Equatable {
    /// Measure this device and use the cheapest scrypt work factor taking at least this long.
    case calibrated(minimumDuration: Duration = .milliseconds(100))
    /// Fixed scrypt parameters: `2^log2N` rounds, block size `r`, parallelism `p`.
    /// Meant for tests and for migrating parameters chosen elsewhere.
    case fixed(log2N: Int, r: Int, p: Int)

    /// The scrypt parameters this cost stands for, measuring the device when calibrated.
    func resolve() throws(VaultError) -> ScryptParameters {
        switch self {
        case .fixed(let log2N, let r, let p):
            let parameters = ScryptParameters(log2N: log2N, r: r, p: p)
            guard parameters.isValid else {
                throw .corrupt("invalid scrypt parameters N=2^\(log2N) r=\(r) p=\(p)")
            }
            return parameters
        case .calibrated(let minimumDuration):
            return try ScryptParameters.calibrated(minimumDuration: minimumDuration)
        }
    }
}

/// scrypt parameters as stored beside a passcode key slot's salt.
struct ScryptParameters: Codable, Sendable, Equatable {
    /// log2 of scrypt's `N` (CPU/memory cost).
    var log2N: Int
    /// scrypt's block size `r`.
    var r: Int
    /// scrypt's parallelism `p`.
    var p: Int

    /// Memory is `128 · N · r` bytes; above 2^17 · 8 (128 MiB) the work grows through `p`
    /// instead, keeping the peak memory of an app under what iOS allows.
    static let maximumLog2N = 17

    /// Within the bounds the vault accepts: at least 2^10 rounds, at most 128 MiB of memory
    /// (`128 · N · r`), and a parallelism factor of at most 64.
    var isValid: Bool {
        (10...ScryptParameters.maximumLog2N).contains(log2N) && (1...32).contains(r) && (1...64).contains(p)
            && 128 * (1 << log2N) * r <= 128 << 20
    }

    /// Derives `byteCount` bytes from `passcode` and `salt`.
    func derive(passcode: String, salt: Data, byteCount: Int = 32) throws(VaultError) -> SymmetricKey {
        guard isValid else { throw .corrupt("invalid scrypt parameters") }
        do {
            // NFC: the same passcode typed with composed or decomposed accents is the same key.
            var bytes = Array(passcode.precomposedStringWithCanonicalMapping.utf8)
            defer { for index in bytes.indices { bytes[index] = 0 } }
            return try KDF.Scrypt.deriveKey(
                from: bytes, salt: salt, outputByteCount: byteCount,
                rounds: 1 << log2N, blockSize: r, parallelism: p)
        } catch {
            throw .storage("scrypt failed: \(error)")
        }
    }

    /// Doubles the work from `N = 2^14, r = 8` until one derivation takes `minimumDuration`.
    static func calibrated(minimumDuration: Duration) throws(VaultError) -> ScryptParameters {
        var candidate = ScryptParameters(log2N: 14, r: 8, p: 1)
        let clock = ContinuousClock()
        let salt = Data(repeating: 0x5A, count: 16)
        while true {
            let start = clock.now
            _ = try candidate.derive(passcode: "calibration", salt: salt)
            let elapsed = clock.now - start
            if elapsed >= minimumDuration { return candidate }
            // Jump straight to the factor that should reach the target, then confirm it.
            let ratio = minimumDuration / max(elapsed, .microseconds(1))
            let doublings = max(1, Int(log2(ratio).rounded(.up)))
            for _ in 0..<doublings {
                if candidate.log2N < maximumLog2N { candidate.log2N += 1 } else { candidate.p += 1 }
            }
            if candidate.p >= 64 {
                candidate.p = 64
                return candidate
            }
        }
    }
}
