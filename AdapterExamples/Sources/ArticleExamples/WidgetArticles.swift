// The Swift blocks of TandemWidgets', TandemWidgetModel's, TandemWidgetRendering's and
// TandemWidgetSimulator's DocC articles, each verbatim in a body; the names they take from the
// app around them are parameters.
import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetRendering
import TandemWidgetSimulator
import TandemWidgets

// TandemWidgets.docc/TandemWidgets.md
func tandemWidgets(container: SharedContainer, sharedKeychain: any SecretStorage) async {
    let provider = DataWidgetProvider(kind: "orders", scheme: "acme", container: container,
                                      credentials: SharedSecretCredentials(storage: sharedKeychain))
    let timeline = await provider.timeline(
        for: DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders"),
        in: WidgetContext(family: .systemMedium))
    _ = timeline
}

// TandemWidgets.docc/BuildingABusinessWidget.md
func fulfilPendingRequests() {}

func buildingABusinessWidget(
    client: AppClient, coordinator: RefreshCoordinator, container: SharedContainer, share: AuxiliaryShare,
    sharedKeychain: any SecretStorage, credentials: any WidgetCredentialSource, nineAM: Date, tenPastEleven: Date,
    appSupport: URL, url: URL
) async throws {
    // The host (TandemHost):
    let catalog = try await DestinationCatalog.fetch(with: client, credentials: .tokens(coordinator))
    try catalog.write(to: container, share: share)

    // The widget's configuration UI (TandemWidgets):
    let options = try DestinationCatalog.read(from: container, share: share)?.options ?? []
    // "Sales (demo) · Customers", "Sales (demo) · SalesOrders", …
    let chosen = options[1].configuration(limit: 10)

    try container.widgets.register(chosen.registration(id: "orders-1", kind: "orders", family: .systemMedium))
    let placed = try DataWidgetConfiguration.instances(ofKind: "orders", in: container)
    _ = placed

    do {
        let provider = DataWidgetProvider(
            kind: "orders", scheme: "acme", container: container,
            credentials: SharedSecretCredentials(storage: sharedKeychain),
            mode: .brokered,
            schedule: DataWidgetSchedule())   // fresh 40 min; after a request, wait for the host's reload
        _ = provider
    }

    do {
        let clock = VirtualClock(nineAM)
        let provider = DataWidgetProvider(kind: "orders", scheme: "acme", container: container,
                                          credentials: credentials, clock: clock)
        let simulator = TimelineSimulator(provider: provider, clock: clock)
        let widget = await simulator.install(kind: "orders", family: .systemMedium, configuration: chosen)
        await simulator.advance(to: tenPastEleven)          // shows "updated 2 h ago"
        fulfilPendingRequests()                             // the host's background run
        await simulator.reloadTimelines(ofKind: "orders")   // fresh
        _ = widget
    }

    let analytics = try Analytics(directory: appSupport.appendingPathComponent("analytics"))
    let taps = WidgetTapTracker(router: DeepLinkRouter(scheme: "acme"), analytics: analytics)
    let route = try await taps.open(url)   // records widget.tap with kind, family, configuration, target
    // later, in the foreground or the background run:
    try await analytics.flush(with: client, tokens: coordinator)
    _ = route
}

// TandemWidgetModel.docc/TandemWidgetModel.md
func tandemWidgetModel() throws {
    let content = WidgetContent(
        title: "Orders",
        rows: [WidgetRow(key: "Open", value: "12")],
        state: .stale(age: 7_200),
        footer: WidgetFooter.text(for: .stale(age: 7_200))
    )
    let link = try WidgetLink(scheme: "acme", kind: "orders", family: .systemMedium,
                              configuration: DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders"),
                              target: "SO500001")
    _ = (content, link)
}

// TandemWidgetRendering.docc/TandemWidgetRendering.md
func tandemWidgetRendering(content: WidgetContent, now: Date, outputDirectory: URL) throws {
    let renderer = WidgetRenderer()
    let svg = renderer.svg(content, family: .systemMedium)   // <svg … width="364" height="170" …>
    print(renderer.terminalBox(content, family: .systemSmall))

    let gallery = WidgetGallery(samples: WidgetGallery.standardSamples(now: now))
    try gallery.write(to: outputDirectory)                    // index.html and one .svg per cell
    _ = svg
}

// TandemWidgetSimulator.docc/TandemWidgetSimulator.md
/// A provider of the article's, fresh rows at every reload.
struct OrdersProvider: WidgetProvider {
    let clock: VirtualClock
    func placeholder(in context: WidgetContext) -> WidgetContentEntry { WidgetContentEntry(date: clock.now, content: DataWidgetProvider.sampleContent) }
    func snapshot(for configuration: DataWidgetConfiguration, in context: WidgetContext) async -> WidgetContentEntry { placeholder(in: context) }
    func timeline(for configuration: DataWidgetConfiguration, in context: WidgetContext) async -> Timeline<WidgetContentEntry> {
        Timeline(entries: [placeholder(in: context)], policy: .atEnd)
    }
}

func tandemWidgetSimulator(nineAM: Date, berlin: DataWidgetConfiguration) async {
    let clock = VirtualClock(nineAM)
    let simulator = TimelineSimulator(provider: OrdersProvider(clock: clock), clock: clock)
    await simulator.install(kind: "orders", family: .systemSmall, configuration: berlin)
    await simulator.advance(by: 2 * 3_600)
    await simulator.reloadTimelines(ofKind: "orders")
    print(await simulator.traceLines)   // ["09:00 systemSmall fresh 12 rows", …]
}
