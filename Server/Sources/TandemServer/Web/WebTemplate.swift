/// The templates under `Web/Templates`, by name. `page` is the layout the others extend.
enum WebTemplate: String, CaseIterable, Sendable {
    case page
    case signIn = "sign-in"
    case continueAs = "continue"
    case message

    /// The template's text, as compiled into the binary.
    var source: [UInt8] {
        switch self {
        case .page: PackageResources.page_mustache
        case .signIn: PackageResources.sign_in_mustache
        case .continueAs: PackageResources.continue_mustache
        case .message: PackageResources.message_mustache
        }
    }
}
