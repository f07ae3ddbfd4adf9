import ArgumentParser
import Foundation
import TandemServer
import TandemTool

/// `tandem serve`'s options for pushes: where APNs is (Apple's two services by default; one
/// URL for both, such as the local stand-in `tandem apns-standin`), which extra certificate
/// authority to trust for it, and each device's push budget (the server paces pushes so that
/// the day's budget lasts; see `PushPacer`).
struct ServePushOptions: ParsableArguments {
    @Option(name: .long, help: "Send every push to this APNs URL instead of Apple's (e.g. the local stand-in: https://localhost:PORT).")
    var apnsURL: String?

    @Option(name: .long, help: "A PEM file of certificate authorities to trust for APNs besides the system's (the stand-in's test CA).")
    var apnsTrustRoots: String?

    @Option(name: .long, help: "The fewest seconds between two WidgetKit pushes to one device (changes in between coalesce).")
    var pushCoalescing: Double = 300

    @Option(name: .long, help: "WidgetKit pushes one device takes a day; the server spreads them over the day (default 40).")
    var widgetPushesPerDay = 40

    @Option(name: .long, help: "Background pushes one device's host takes an hour (default 2).")
    var hostPushesPerHour = 2

    func validate() throws {
        guard pushCoalescing >= 0 else { throw ValidationError("--push-coalescing must not be negative") }
        guard widgetPushesPerDay >= 0, hostPushesPerHour >= 0 else {
            throw ValidationError("--widget-pushes-per-day and --host-pushes-per-hour must not be negative")
        }
        if let apnsURL, URL(string: apnsURL)?.scheme != "https" {
            throw ValidationError("--apns-url must be an https URL (APNs is HTTP/2 over TLS)")
        }
    }

    /// Sets the push settings of `configuration`.
    ///
    /// - Throws: `CommandFailure` when the trust roots file cannot be read.
    func apply(to configuration: inout TandemServerConfiguration) throws {
        if let apnsURL {
            let base = apnsURL.hasSuffix("/") ? String(apnsURL.dropLast()) : apnsURL
            configuration.push.productionURL = base
            configuration.push.sandboxURL = base
        }
        if let apnsTrustRoots {
            do {
                configuration.push.additionalTrustRootsPEM = try String(contentsOfFile: apnsTrustRoots, encoding: .utf8)
            } catch {
                throw CommandFailure("cannot read \(apnsTrustRoots): \(error.localizedDescription)")
            }
        }
        configuration.push.coalescingInterval = .milliseconds(Int64((pushCoalescing * 1000).rounded()))
        configuration.push.widgetPushesPerDay = widgetPushesPerDay
        configuration.push.hostPushesPerHour = hostPushesPerHour
    }
}
