import Foundation

/// The one deliberate failure of the fuzz package: a parser that accepted an input and broke a
/// promise about it. It stops the process, so libFuzzer records the input as a crash artifact
/// and a corpus replay (`make test`) fails naming the file.
enum Invariant {
    /// Stops the process with `message` unless `condition` holds.
    static func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
        guard !condition() else { return }
        fatalError("invariant broken: \(message())", file: file, line: line)
    }
}
