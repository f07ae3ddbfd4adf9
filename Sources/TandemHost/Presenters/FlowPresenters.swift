/// Everything a flow may show the user, gathered for the ``FlowContext``.
///
/// A presenter a flow never needs may be left out: the background flow needs none, a restore
/// needs the passcode prompt (and the sign-in browser when the session ended), onboarding needs
/// the passcode prompt and the sign-in browser (an API-key app: the API-key prompt). A step that needs one that is missing fails with
/// a ``StepFailure`` naming it.
public struct FlowPresenters: Sendable {
    /// Asks for the passcode.
    public var passcode: (any PasscodePrompt)?
    /// Shows the sign-in page.
    public var signIn: (any SignInBrowser)?
    /// Scans the SSO onboarding QR code.
    public var scanner: (any QRScanner)?
    /// Asks yes-or-no questions.
    public var confirmation: (any ConfirmationPresenter)?
    /// Asks an API-key app's administrator for the key.
    public var apiKey: (any APIKeyPrompt)?
    /// Tells the user what they must know, such as wrong passcodes entered before a Face ID
    /// unlock. Without it, ``VaultStep`` asks for the passcode instead of Face ID whenever it
    /// would have something to tell.
    public var notice: (any NoticePresenter)?

    /// Gathers the presenters.
    public init(
        passcode: (any PasscodePrompt)? = nil, signIn: (any SignInBrowser)? = nil, scanner: (any QRScanner)? = nil,
        confirmation: (any ConfirmationPresenter)? = nil, apiKey: (any APIKeyPrompt)? = nil, notice: (any NoticePresenter)? = nil
    ) {
        self.passcode = passcode
        self.signIn = signIn
        self.scanner = scanner
        self.confirmation = confirmation
        self.apiKey = apiKey
        self.notice = notice
    }

    /// The passcode prompt, or a ``StepFailure`` saying the flow needs one.
    public func requirePasscode() throws(StepFailure) -> any PasscodePrompt {
        guard let passcode else { throw StepFailure("this flow asks for the passcode, and no passcode prompt was given") }
        return passcode
    }

    /// The sign-in browser, or a ``StepFailure`` saying the flow needs one.
    public func requireSignIn() throws(StepFailure) -> any SignInBrowser {
        guard let signIn else { throw StepFailure("this flow signs the user in, and no sign-in browser was given") }
        return signIn
    }

    /// The API-key prompt, or a ``StepFailure`` saying the flow needs one.
    public func requireAPIKey() throws(StepFailure) -> any APIKeyPrompt {
        guard let apiKey else { throw StepFailure("this API-key app needs its key, and no API-key prompt was given") }
        return apiKey
    }
}
