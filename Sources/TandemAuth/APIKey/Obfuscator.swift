/// Keeps a secret such as an API key out of the plain bytes of the app binary.
///
/// **This is obfuscation, not encryption.** The mask ships in the same binary as the masked
/// bytes, so anyone who disassembles the app can recover the key. What it does achieve: the key
/// does not show up in `strings`, in a grep of the binary, or in a casual look at the bundle. An
/// API key in a shipped app must be treated as public in the end; the server limits what it can
/// do (read data, send events) and it can be rotated.
///
/// The mask is random per build: the build step generates it with ``generate(for:)`` and writes
/// both arrays into the source.
///
/// ```swift
/// // Build time:
/// let (mask, masked) = Obfuscator.generate(for: Array("tdk_live_123".utf8))
/// // Run time, with both arrays compiled in:
/// let key = String(decoding: Obfuscator(mask: mask).deobfuscate(masked), as: UTF8.self)
/// ```
public struct Obfuscator: Sendable, Equatable {
    /// The per-build random mask; no byte is zero, so no byte of a secret is left as it was.
    public let mask: [UInt8]

    /// An obfuscator with `mask`.
    ///
    /// - Parameter mask: Random bytes from ``randomMask(length:)``; an empty mask is replaced
    ///   by a single `0xA5` so that nothing is left unmasked.
    public init(mask: [UInt8]) {
        self.mask = mask.isEmpty ? [0xA5] : mask
    }

    /// A random mask of `length` bytes, none of them zero.
    public static func randomMask(length: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<max(length, 1)).map { _ in UInt8.random(in: 1...UInt8.max, using: &generator) }
    }

    /// A fresh random mask as long as `secret`, and `secret` masked with it.
    ///
    /// - Parameter secret: The bytes to hide, such as an API key's UTF-8.
    /// - Returns: The mask and the masked bytes, both to be compiled into the app.
    public static func generate(for secret: [UInt8]) -> (mask: [UInt8], obfuscated: [UInt8]) {
        let obfuscator = Obfuscator(mask: randomMask(length: secret.count))
        return (obfuscator.mask, obfuscator.obfuscate(secret))
    }

    /// `bytes` masked: each byte XORed with the mask byte at its position (the mask repeats
    /// when shorter). With no zero mask byte, no byte keeps its plain value.
    public func obfuscate(_ bytes: [UInt8]) -> [UInt8] {
        bytes.enumerated().map { index, byte in byte ^ mask[index % mask.count] }
    }

    /// The original bytes of `obfuscated` (masking twice gives the input back).
    public func deobfuscate(_ obfuscated: [UInt8]) -> [UInt8] {
        obfuscate(obfuscated)
    }

    /// Swift declarations of a fresh mask and `secret` masked with it, for a build step to write
    /// into a generated source file (never commit the key itself).
    ///
    /// ```swift
    /// print(Obfuscator.source(for: "tdk_live_123", name: "apiKey"))
    /// // let apiKeyMask: [UInt8] = [0x5c, …]
    /// // let apiKeyObfuscated: [UInt8] = [0x28, …]
    /// ```
    ///
    /// - Parameters:
    ///   - secret: The key in plain text.
    ///   - name: The prefix of the two constants.
    public static func source(for secret: String, name: String) -> String {
        let (mask, obfuscated) = generate(for: Array(secret.utf8))
        func literal(_ bytes: [UInt8]) -> String {
            "[" + bytes.map { "0x" + String($0, radix: 16) }.joined(separator: ", ") + "]"
        }
        return "let \(name)Mask: [UInt8] = \(literal(mask))\nlet \(name)Obfuscated: [UInt8] = \(literal(obfuscated))\n"
    }
}
