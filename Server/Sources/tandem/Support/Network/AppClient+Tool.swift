import TandemAuth
import TandemServer
import TandemTool
import TandemURLSession

extension AppClient {
    /// The clients a `tandem` host or widget process uses: this build's version in the app
    /// headers, requests over URLSession, and request log lines on standard error.
    ///
    /// - Parameter role: `host`, `widget` or `bench`, named in the app id header.
    static func tool(_ configuration: ClientConfiguration, role: String) -> AppClient {
        AppClient(
            configuration: configuration, role: role, appVersion: TandemServerInfo.version, transport: URLSessionTransport(),
            logger: ToolLogger.make(label: "tandem.\(role).http"))
    }
}
