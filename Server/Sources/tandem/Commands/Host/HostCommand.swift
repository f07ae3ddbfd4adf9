import ArgumentParser

/// `tandem host …`: plays a host app — onboarding, unlocking, fulfilling its widgets' data
/// requests in the background, sending their analytics — as a process of its own that shares
/// only `--dir`'s `shared/` folder with `tandem widget` processes.
struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Play a host app: onboard, unlock, fulfil widget requests, send analytics.",
        subcommands: [HostOnboard.self, HostUnlock.self, HostFulfil.self, HostRun.self, HostFlushEvents.self, HostStatus.self, HostRace.self, HostRefreshCatalog.self, HostOpenURL.self, HostAnalyticsSummary.self]
    )
}
