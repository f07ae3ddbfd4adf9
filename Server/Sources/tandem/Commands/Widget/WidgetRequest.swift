import ArgumentParser
import TandemSharedContainer
import TandemTool
import TandemWidgetModel
import TandemWidgets

/// `tandem widget request`: asks the host for a page of data. The request, which carries the
/// widget's share of the paired key sealed under the shared sealing key, waits in the shared container
/// until the host's background task fulfils it; asking again for the same page replaces it.
struct WidgetRequest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "request", abstract: "Ask the host for a page of data (brokered mode).")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var page: EntitySetOptions

    func run() async throws {
        let home = try home.home()
        let (share, sealingKey) = try home.extensionCredentials()
        let request = try home.container.requests.submit(kind: EntitySetKey.kind, key: page.key, share: share, sealingKey: sealingKey)
        JSONLine.print(["request": request.id, "kind": request.kind])
    }
}
