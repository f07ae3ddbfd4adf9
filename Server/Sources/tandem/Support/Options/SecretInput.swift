import Foundation
import TandemTool

/// Reads a secret (a password, a passcode, a database URL with its password) from a command-line
/// option, a file or an environment variable. The option still works, as the most explicit
/// source, but prints a warning: every local account can read it in the process list.
enum SecretInput {
    /// The secret from the option (with a warning), `file`, or the environment variable, in that
    /// order; `nil` when none has one.
    ///
    /// - Parameters:
    ///   - option: The command-line option's value, if given.
    ///   - optionName: Its name as typed (`--password`), for the warning.
    ///   - file: A file whose first line is the secret.
    ///   - environmentVariable: The variable consulted after the file.
    /// - Throws: `CommandFailure` when the file cannot be read or is empty.
    static func read(option: String?, optionName: String, file: String?, environmentVariable: String) throws -> String? {
        if let option {
            warnVisible(optionName, alternative: "--\(optionName.dropFirst(2))-file or $\(environmentVariable)")
            return option
        }
        if let file { return try firstLine(of: file) }
        if let value = ProcessInfo.processInfo.environment[environmentVariable], !value.isEmpty { return value }
        return nil
    }

    /// Prints the one-line warning for a secret given on the command line.
    static func warnVisible(_ what: String, alternative: String) {
        FileHandle.standardError.write(Data(
            "warning: \(what) on the command line is visible to other local accounts (ps); use \(alternative) instead\n".utf8))
    }

    /// The first line of `path`, without its newline.
    static func firstLine(of path: String) throws -> String {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandFailure("cannot read \(path): \(error.localizedDescription)")
        }
        guard let line = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init), !line.isEmpty else {
            throw CommandFailure("\(path) is empty")
        }
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }
}
