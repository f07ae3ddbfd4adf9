import ArgumentParser
import TandemVault

/// How a new passcode is turned into a key: calibrated to this machine by default.
struct KeyDerivationOptions: ParsableArguments {
    @Flag(name: .long, help: "Use cheap scrypt parameters (N=2^10, r=8, p=1): for demos and tests only.")
    var fastKdf = false

    /// The cost these options choose.
    var cost: KeyDerivationCost {
        fastKdf ? Self.fast : .calibrated()
    }

    /// The cheap parameters of `--fast-kdf`.
    static let fast = KeyDerivationCost.fixed(log2N: 10, r: 8, p: 1)
}
