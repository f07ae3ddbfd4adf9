import TandemAuth
import TandemTool

/// The `WidgetNetwork` of `tandem`: widget commands fetch over URLSession, as the app's
/// widget would in direct mode.
enum ToolNetwork: WidgetNetwork {
    static func client(_ configuration: ClientConfiguration, role: String) throws -> AppClient {
        .tool(configuration, role: role)
    }
}
