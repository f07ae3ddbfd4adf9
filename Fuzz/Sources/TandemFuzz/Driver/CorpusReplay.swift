import Foundation

/// The uninstrumented side of the package: every file of a target's corpus folder run once
/// through the target's entry point, the check `make test` makes.
enum CorpusReplay {
    /// What a corpus folder could not give.
    enum Failure: Error, CustomStringConvertible {
        case unreadable(path: String, reason: String)
        case empty(path: String)

        var description: String {
            switch self {
            case .unreadable(let path, let reason): "cannot read the corpus \(path): \(reason)"
            case .empty(let path): "the corpus \(path) has no files: run `tandem-fuzz --write-seeds`"
            }
        }
    }

    /// Runs every file in `directory` through `target` and returns how many it ran. A broken
    /// invariant stops the process there, naming the target.
    static func replay(_ target: FuzzTarget, directory: URL) throws(Failure) -> Int {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw .unreadable(path: directory.path, reason: "\(error)")
        }
        guard !names.isEmpty else { throw .empty(path: directory.path) }
        for name in names {
            let file = directory.appendingPathComponent(name)
            let input: Data
            do {
                input = try Data(contentsOf: file)
            } catch {
                throw .unreadable(path: file.path, reason: "\(error)")
            }
            target.run(input)
        }
        return names.count
    }

    /// Writes `target`'s seeds into `directory` as `seed-00`, `seed-01`, … and returns how many
    /// it wrote.
    static func writeSeeds(of target: FuzzTarget, into directory: URL) throws(Failure) -> Int {
        let seeds = target.seeds()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (index, seed) in seeds.enumerated() {
                try seed.write(to: directory.appendingPathComponent(String(format: "seed-%02d", index)))
            }
        } catch {
            throw .unreadable(path: directory.path, reason: "\(error)")
        }
        return seeds.count
    }
}
