import ArgumentParser
import Foundation
import Logging
import TandemAPNsStandIn
import TandemTool

/// `tandem apns-standin`: runs the local stand-in for Apple's push service (APNs) until SIGINT or
/// SIGTERM, so that `tandem serve` can send real pushes on a machine that cannot reach Apple.
///
/// ```sh
/// tandem apns-standin --port 0 --devices /tmp/devices --ca-certificate /tmp/apns-ca.pem \
///     --bundle-id com.example.tandem --provider-key ABC123DEFG:DEF123GHIJ:/secrets/AuthKey_ABC123DEFG.p8
/// ```
///
/// Writes the test certificate authority's certificate to `--ca-certificate` (the sender trusts
/// it), then prints `{"apns":"listening","port":N}`; on the signal it prints
/// `{"apns":"stopped","accepted":N,"refused":M}`. Keys are read from files, never from the
/// command line.
struct APNsStandInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apns-standin", abstract: "Run a local stand-in for Apple's push service (APNs).")

    @Option(name: .long, help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .long, help: "The port to listen on (0 picks a free one).")
    var port = 0

    @Option(name: .long, help: "The folder of device folders (one per device token).")
    var devices: String

    @Option(name: .customLong("ca-certificate"), help: "Where to write the test certificate authority's certificate (PEM).")
    var caCertificate: String

    @Option(name: .customLong("bundle-id"), help: "An app's bundle id, an accepted apns-topic (repeatable).")
    var bundleIDs: [String] = []

    @Option(
        name: .customLong("provider-key"),
        help: "KEY_ID:TEAM_ID:PATH of a provider key: its .p8 private key or its public key in PEM (repeatable).")
    var providerKeys: [String] = []

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard !bundleIDs.isEmpty else { throw ValidationError("give at least one --bundle-id") }
        guard !providerKeys.isEmpty else { throw ValidationError("give at least one --provider-key KEY_ID:TEAM_ID:PATH") }
        for key in providerKeys where Self.keyParts(key) == nil {
            throw ValidationError("--provider-key must be KEY_ID:TEAM_ID:PATH, not \(key)")
        }
    }

    func run() async throws {
        let logger = Logger(label: "tandem.apns-standin")
        let keys = try providerKeys.map(Self.readKey)
        let configuration = APNsStandInConfiguration(
            host: host, port: port, providerKeys: keys, bundleIDs: Set(bundleIDs),
            devicesDirectory: URL(filePath: devices, directoryHint: .isDirectory))
        // Caught before the "listening" line, so a supervisor's signal right after it is not lost.
        let stop = StopSignal()
        let apns = try await APNsStandIn.start(configuration, logger: logger)
        do {
            try Data(apns.certificateAuthorityPEM.utf8).write(to: URL(filePath: caCertificate), options: .atomic)
        } catch {
            try await apns.shutdown()
            throw CommandFailure("could not write the CA certificate to \(caCertificate): \(error.localizedDescription)")
        }
        JSONLine.print(["apns": "listening", "port": apns.port])
        await stop.wait()
        try await apns.shutdown()
        JSONLine.print(["apns": "stopped", "accepted": apns.deliveries().count, "refused": apns.refusals().count])
    }

    /// `KEY_ID:TEAM_ID:PATH` read into a key; the file may hold the private key or the public one.
    private static func readKey(_ argument: String) throws -> APNsStandInProviderKey {
        guard let parts = keyParts(argument) else {
            throw CommandFailure("--provider-key must be KEY_ID:TEAM_ID:PATH, not \(argument)")
        }
        let (keyID, teamID, path) = parts
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure("cannot read the provider key file \(path)")
        }
        return try APNsStandInProviderKey(keyID: keyID, teamID: teamID, pem: String(decoding: data, as: UTF8.self))
    }

    /// The key id, team id and file path of a `KEY_ID:TEAM_ID:PATH` argument (the path may hold colons).
    private static func keyParts(_ argument: String) -> (String, String, String)? {
        let parts = argument.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        return (parts[0], parts[1], parts[2])
    }
}
