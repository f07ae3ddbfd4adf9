import Foundation
import TandemTool

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a passcode without showing it: from an option, a file, an environment variable, or one line
/// of standard input. On a terminal the prompt goes to standard error and echo is turned off
/// while the line is typed. Nothing here prints or logs the passcode.
enum PasscodeInput {
    /// The passcode from the first source that has one: the command-line option (with a
    /// warning, see ``SecretInput``), a file, the environment variable, one line of standard input.
    ///
    /// - Parameters:
    ///   - option: The value of the command-line option, if given.
    ///   - optionName: The option's name as typed, for the warning.
    ///   - file: A file whose first line is the passcode.
    ///   - environmentVariable: The variable consulted after the file.
    ///   - prompt: Shown on standard error when standard input is a terminal.
    /// - Throws: `CommandFailure` when no source has a passcode.
    static func read(option: String?, optionName: String, file: String? = nil, environmentVariable: String, prompt: String) throws -> String {
        if let secret = try SecretInput.read(option: option, optionName: optionName, file: file, environmentVariable: environmentVariable) {
            return secret
        }
        guard let line = readLineHidden(prompt: prompt) else {
            throw CommandFailure(
                "no passcode: give it in a file, in $\(environmentVariable), or on standard input")
        }
        return line
    }

    /// One line of standard input without its newline, or `nil` at end of input.
    private static func readLineHidden(prompt: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) }
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        let canHide = tcgetattr(STDIN_FILENO, &original) == 0
        if canHide {
            var hidden = original
            hidden.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &hidden)
        }
        defer {
            if canHide { _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &original) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }
}
