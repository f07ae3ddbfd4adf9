import ArgumentParser
import TandemServer
import TandemTool

/// Where `tandem serve` reads the token `/metrics` asks scrapers for: `--metrics-token-file`
/// (its first line), else `$TANDEM_METRICS_TOKEN`. Never an option's value: the process list
/// would show it. Without either, `/metrics` is off.
struct MetricsTokenOptions: ParsableArguments {
    /// The variable read when no file is given.
    static let environmentVariable = "TANDEM_METRICS_TOKEN"

    @Option(name: .long, help: "A file whose first line is the token /metrics asks scrapers for (Authorization: Bearer). Default: $TANDEM_METRICS_TOKEN; with neither, /metrics is off.")
    var metricsTokenFile: String?

    /// Sets the token of `configuration`, if one is given.
    ///
    /// - Throws: `CommandFailure` when the file cannot be read or the token is too short.
    func apply(to configuration: inout TandemServerConfiguration) throws {
        guard let token = try SecretInput.read(
            option: nil, optionName: "--metrics-token", file: metricsTokenFile, environmentVariable: Self.environmentVariable)
        else { return }
        do {
            try configuration.setMetricsToken(token)
        } catch {
            throw CommandFailure("the metrics token: \(error)")
        }
    }
}
