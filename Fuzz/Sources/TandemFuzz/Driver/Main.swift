import Foundation

/// `tandem-fuzz`: the fuzz targets' one executable.
///
/// - `tandem-fuzz <target> [libFuzzer flags…] [corpus…]` fuzzes a target (a `-DFUZZ_ENGINE`
///   build, as `make fuzz` makes it);
/// - `tandem-fuzz --replay <corpus root> [target…]` runs every file of `<root>/<target>/`
///   through its target once (any build; `make test` runs it uninstrumented);
/// - `tandem-fuzz --write-seeds <corpus root>` writes each target's seeds, made with the SDK's
///   own writers, into `<root>/<target>/`;
/// - `tandem-fuzz --list` names the targets.
@main
struct Main {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else { usage() }
        switch arguments[1] {
        case "--list":
            for target in FuzzTargets.all { print("\(target.name): \(target.summary)") }
        case "--replay" where arguments.count >= 3:
            replay(root: URL(fileURLWithPath: arguments[2]), names: Array(arguments.dropFirst(3)))
        case "--write-seeds" where arguments.count == 3:
            writeSeeds(root: URL(fileURLWithPath: arguments[2]))
        default:
            fuzz(name: arguments[1], arguments: [arguments[0]] + arguments.dropFirst(2))
        }
    }

    private static func targets(_ names: [String]) -> [FuzzTarget] {
        guard !names.isEmpty else { return FuzzTargets.all }
        return names.map { name in
            guard let target = FuzzTargets.named(name) else { fail("no fuzz target \(name); `tandem-fuzz --list` names them") }
            return target
        }
    }

    private static func replay(root: URL, names: [String]) {
        let clock = ContinuousClock()
        for target in targets(names) {
            let start = clock.now
            do {
                let count = try CorpusReplay.replay(target, directory: root.appendingPathComponent(target.name))
                let milliseconds = Int(((clock.now - start) / .milliseconds(1)).rounded())
                print("\(target.name): \(count) inputs replayed in \(milliseconds) ms")
            } catch {
                fail("\(target.name): \(error)")
            }
        }
    }

    private static func writeSeeds(root: URL) {
        for target in FuzzTargets.all {
            do {
                let count = try CorpusReplay.writeSeeds(of: target, into: root.appendingPathComponent(target.name))
                print("\(target.name): \(count) seeds")
            } catch {
                fail("\(target.name): \(error)")
            }
        }
    }

    private static func fuzz(name: String, arguments: [String]) -> Never {
        guard let target = FuzzTargets.named(name) else { fail("no fuzz target \(name); `tandem-fuzz --list` names them") }
        #if FUZZ_ENGINE
        exit(LibFuzzerDriver.run(target, arguments: arguments))
        #else
        fail("\(target.name): this build has no fuzzing engine; `make fuzz` builds one (or use --replay)")
        #endif
    }

    private static func usage() -> Never {
        fail("usage: tandem-fuzz <target> [libFuzzer flags…] | --replay <corpus root> [target…] | --write-seeds <corpus root> | --list")
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("tandem-fuzz: \(message)\n".utf8))
        exit(2)
    }
}
