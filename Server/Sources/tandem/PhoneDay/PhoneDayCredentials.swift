import TandemWidgetSimulator
import TandemWidgets

/// The widget's secrets as iOS gives them on the simulated phone: unreadable until the first
/// unlock (keychain items `AfterFirstUnlock`), then the shared storage's.
struct PhoneDayCredentials: WidgetCredentialSource {
    let base: SharedSecretCredentials
    let lock: DeviceLock

    func credentials() throws(WidgetCredentialError) -> WidgetCredentials? {
        guard lock.isProtectedDataAvailable else { throw .unreadable(reason: "the phone has not been unlocked since it started") }
        return try base.credentials()
    }
}
