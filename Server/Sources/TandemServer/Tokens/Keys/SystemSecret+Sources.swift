import Crypto
import Foundation
import TandemProtocol

extension SystemSecret {
    /// The environment variable holding the current secret.
    public static let environmentVariable = "TANDEM_SYSTEM_SECRET"
    /// The environment variable holding previous secrets, one per line.
    public static let previousEnvironmentVariable = "TANDEM_SYSTEM_SECRET_PREVIOUS"

    /// The secret from the first source that has one: the file `file` (current secret on its
    /// first line, previous ones on the lines after), else `TANDEM_SYSTEM_SECRET` (previous ones
    /// in `TANDEM_SYSTEM_SECRET_PREVIOUS`, one per line), else, for a SQLite database, the file
    /// ``DatabaseLocation/generatedSystemSecretPath`` beside it, generated on first use.
    ///
    /// - Parameters:
    ///   - file: A secret file given by the operator; it must be `0600`.
    ///   - environment: The process environment.
    ///   - database: Where the data lives; PostgreSQL gets no generated secret.
    /// - Throws: ``SystemSecretError`` when no source has a usable secret.
    public static func resolve(
        file: String?, environment: [String: String], database: DatabaseLocation
    ) throws(SystemSecretError) -> SystemSecret {
        let extra = lines(environment[previousEnvironmentVariable] ?? "")
        if let file {
            let secrets = try readPrivateFile(file)
            try requireLength(secrets, source: file)
            try requireLength(extra, source: previousEnvironmentVariable)
            return SystemSecret(current: secrets[0], previous: Array(secrets.dropFirst()) + extra)
        }
        if let current = environment[environmentVariable], !current.isEmpty {
            try requireLength([current], source: environmentVariable)
            try requireLength(extra, source: previousEnvironmentVariable)
            return SystemSecret(current: current, previous: extra)
        }
        guard let generated = database.generatedSystemSecretPath else {
            throw .missing("PostgreSQL needs \(environmentVariable) or --system-secret-file, the same for every instance")
        }
        let secrets = try readOrGenerate(generated)
        return SystemSecret(current: secrets[0], previous: Array(secrets.dropFirst()) + extra)
    }

    /// The non-empty lines of a `0600` file.
    static func readPrivateFile(_ path: String) throws(SystemSecretError) -> [String] {
        guard let mode = PrivateFiles.mode(ofFile: path) else { throw .unreadable(path: path, reason: "no such file") }
        guard mode == "0600" || mode == "0400" else { throw .insecureFile(path: path, mode: mode) }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        let secrets = lines(text)
        guard !secrets.isEmpty else { throw .unreadable(path: path, reason: "it holds no secret") }
        return secrets
    }

    /// Reads the generated secret file, or creates it (`0600`, 32 random bytes in base64url)
    /// if it does not exist; when two servers start at once, both end up with the one written.
    private static func readOrGenerate(_ path: String) throws(SystemSecretError) -> [String] {
        if PrivateFiles.mode(ofFile: path) == nil {
            do {
                try PrivateFiles.createDirectory((path as NSString).deletingLastPathComponent)
            } catch {
                throw .unreadable(path: path, reason: error.description)
            }
            let secret = Base64URL.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
            if !PrivateFiles.createExclusively(path, contents: Data((secret + "\n").utf8)) {
                guard PrivateFiles.mode(ofFile: path) != nil else { throw .unreadable(path: path, reason: "it cannot be created") }
            }
        }
        return try readPrivateFile(path)
    }

    private static func requireLength(_ secrets: [String], source: String) throws(SystemSecretError) {
        guard secrets.allSatisfy({ $0.utf8.count >= minimumLength }) else { throw .tooShort(source: source) }
    }

    private static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
