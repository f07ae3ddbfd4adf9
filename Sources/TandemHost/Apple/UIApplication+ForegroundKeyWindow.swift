#if canImport(UIKit) && os(iOS)
import UIKit

@available(iOSApplicationExtension, unavailable)
extension UIApplication {
    /// The key window of a scene the user is looking at, where the flows' presenters show
    /// their sheets; `nil` while the app is in the background.
    var foregroundKeyWindow: UIWindow? {
        let windows = connectedScenes
            .compactMap { $0 as? UIWindowScene }
            .filter { $0.activationState == .foregroundActive }
            .compactMap(\.keyWindow)
        return windows.first(where: \.isKeyWindow) ?? windows.first
    }
}
#endif
