import CFuzzDriver
#if canImport(Glibc)
import Glibc
#endif

/// Hands the process over to libFuzzer with `test` as the fuzz target; returns its exit code.
///
/// Each target's `<Target>_main` calls this: SwiftPM links executables with
/// `--defsym main=<Target>_main`, which keeps libFuzzer's own `main` out.
public func runLibFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                         _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, test)
}

/// The bytes libFuzzer passed (an empty input may come with any pointer).
@inlinable
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// True when `FUZZ_SKIP_KNOWN` is set (scripts/fuzz.sh sets it while fuzzing, not while
/// replaying Fuzz/Regressions/): targets then step around problems already reported and
/// still open, so that the fuzzer does not stop at them again and again. The replays
/// keep failing until the problem is fixed. (No target skips anything at present: the
/// problems found so far are fixed.)
public let skipKnownProblems: Bool = getenv("FUZZ_SKIP_KNOWN") != nil
