@testable import TandemServer

extension SystemSecret {
    /// The secret the tests' servers (in process and `tandem serve`) seal their keys under.
    public static let testText = "tandem-test-system-secret-not-for-production"

    /// ``testText`` as a secret.
    public static let forTests = SystemSecret(current: testText)
}
