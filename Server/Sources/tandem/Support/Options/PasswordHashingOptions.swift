import ArgumentParser
import Foundation
import TandemServer

/// The scrypt cost of the password hashes a command writes: OWASP's minimum by default.
struct PasswordHashingOptions: ParsableArguments {
    @Flag(name: .long, help: "Hash passwords with cheap scrypt parameters (N=2^10, r=8, p=1): for demos and tests only; a server that keeps it verifies and writes weak hashes.")
    var fastPasswordHashing = false

    /// The hasher these options choose: ``fast`` with the flag, OWASP's N=2^17 without.
    var hasher: PasswordHasher {
        fastPasswordHashing ? Self.fast : PasswordHasher()
    }

    /// The cheap hasher of `--fast-password-hashing`.
    static let fast = PasswordHasher(logN: 10)

    /// The warning a command gives when the flag is on.
    static let warning = "warning: --fast-password-hashing: passwords are hashed at scrypt N=2^10, for demos and tests only"

    /// Writes ``warning`` to standard error when the flag is on.
    func warnIfFast() {
        if fastPasswordHashing { FileHandle.standardError.write(Data("\(Self.warning)\n".utf8)) }
    }
}
