import ArgumentParser
import TandemServer

/// `tandem serve`'s options for slow clients and analytics storage: the idle timeout, the
/// retention and the per-app quota of `/v1/events`.
struct ServeOperationsOptions: ParsableArguments {
    @Option(name: .long, help: "Seconds a connection may send nothing (a half-sent request included) before it is closed (0: never).")
    var idleTimeout: Double = 30

    @Option(name: .long, help: "Days analytics events are kept after reception (0: forever).")
    var eventRetentionDays: Int = 90

    @Option(name: .long, help: "Days audit events are kept (0: forever).")
    var auditRetentionDays: Int = 90

    @Option(name: .long, help: "The most analytics events one app may have stored (0: no limit).")
    var eventQuota: Int = 1_000_000

    @Option(name: .long, help: "The most bytes of analytics events one app may have stored (0: no limit).")
    var eventQuotaBytes: Int = 256 * 1024 * 1024

    @Option(name: .long, help: "Seconds an SSO passcode on the desktop page may be redeemed.")
    var ssoPasscodeLifetime: Int = 60

    @Option(name: .long, help: "Seconds the desktop has to approve a device once it redeemed an SSO passcode.")
    var ssoDecisionWindow: Int = 120

    @Option(name: .customLong("trusted-proxy"), help: "The address of a reverse proxy whose X-Forwarded-For names the client (repeat for several).")
    var trustedProxies: [String] = []

    func validate() throws {
        for proxy in trustedProxies where !TandemServerConfiguration.isIPAddress(proxy) {
            throw ValidationError("--trusted-proxy must be an IP address, not \(proxy.debugDescription)")
        }
        guard idleTimeout >= 0 else { throw ValidationError("--idle-timeout must not be negative") }
        for (name, value) in [("--event-retention-days", eventRetentionDays), ("--audit-retention-days", auditRetentionDays), ("--event-quota", eventQuota), ("--event-quota-bytes", eventQuotaBytes)]
        where value < 0 {
            throw ValidationError("\(name) must not be negative")
        }
        guard (10...600).contains(ssoPasscodeLifetime) else { throw ValidationError("--sso-passcode-lifetime must be 10 to 600 seconds") }
        guard (10...3600).contains(ssoDecisionWindow) else { throw ValidationError("--sso-decision-window must be 10 to 3600 seconds") }
    }

    /// Sets the idle timeout, the analytics retention and quota (0 means none) and the SSO
    /// passcode's lifetimes of `configuration`.
    func apply(to configuration: inout TandemServerConfiguration) {
        configuration.idleTimeout = idleTimeout > 0 ? .milliseconds(Int64((idleTimeout * 1000).rounded())) : nil
        configuration.analytics.retention = eventRetentionDays > 0 ? .seconds(eventRetentionDays * 24 * 3600) : nil
        configuration.analytics.quota = AnalyticsQuota(
            maximumEvents: eventQuota > 0 ? eventQuota : nil, maximumBytes: eventQuotaBytes > 0 ? eventQuotaBytes : nil)
        configuration.ssoPasscodeLifetime = .seconds(ssoPasscodeLifetime)
        configuration.ssoDecisionWindow = .seconds(ssoDecisionWindow)
        configuration.trustedProxies = Set(trustedProxies)
        configuration.auditRetention = auditRetentionDays > 0 ? .seconds(auditRetentionDays * 24 * 3600) : nil
    }
}
