import TandemVault

extension PasscodePolicyDocument {
    /// The vault policy a configuration carries, or ``AuthError/invalidConfiguration(_:)``
    /// naming what is unknown.
    func configuredPolicy() throws(AuthError) -> PasscodePolicy {
        do {
            return try policy
        } catch .coding(let reason) {
            throw .invalidConfiguration(reason)
        } catch {
            throw .invalidConfiguration("passcode_policy: \(error)")
        }
    }
}
