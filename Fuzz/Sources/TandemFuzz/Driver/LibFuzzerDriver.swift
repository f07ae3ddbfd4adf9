#if FUZZ_ENGINE
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's own driver, from `libclang_rt.fuzzer_no_main` (linked by `make fuzz`): it parses
/// the libFuzzer flags in `argv` and calls `callback` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Hands a target to libFuzzer. A `@convention(c)` callback cannot capture, so the chosen
/// target waits in a global that is set once, before the driver starts calling back.
enum LibFuzzerDriver {
    nonisolated(unsafe) private static var chosen: FuzzTarget?

    /// Runs libFuzzer on `target` with `arguments` (the program name first, then libFuzzer's
    /// flags and corpus folders) and returns its exit status.
    static func run(_ target: FuzzTarget, arguments: [String]) -> CInt {
        chosen = target
        var argc = CInt(arguments.count)
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        return pointers.withUnsafeMutableBufferPointer { buffer in
            guard var argv = buffer.baseAddress else { return 1 }
            return LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
                let input = bytes.map { Data(bytes: $0, count: count) } ?? Data()
                LibFuzzerDriver.chosen?.run(input)
                return 0
            }
        }
    }
}
#endif
