import Foundation

/// One fuzz target: a parser of bytes an attacker controls, the invariant it must keep, and the
/// real, valid inputs its seed corpus starts from.
struct FuzzTarget: Sendable {
    /// The name `tandem-fuzz <name>` runs and the corpus folder `Fuzz/Corpus/<name>/` holds.
    let name: String
    /// What the target feeds and to which entry point, for `tandem-fuzz --list`.
    let summary: String
    /// Valid inputs made with the SDK's own writers and encoders: the seed corpus.
    let seeds: @Sendable () -> [Data]
    /// Runs one input through the entry point. Returns normally for any input the parser
    /// refuses or accepts soundly; a broken invariant stops the process (see ``Invariant``).
    let run: @Sendable (Data) -> Void
}
