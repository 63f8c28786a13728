import FuzzDriver
import ScoutFuzzProperties

/// libFuzzer entry: the input's text through every ScoutTime reader, each round-tripping
/// (``FuzzProperties/timeReaders(_:)``). A broken property stops the process, which
/// libFuzzer reports and saves as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do throws(PropertyViolation) {
        try FuzzProperties.timeReaders(fuzzInput(data, size))
    } catch {
        fatalError(error.description)
    }
    return 0
}

/// The process entry point (SwiftPM links `main` to it): libFuzzer's driver over ``fuzz(_:_:)``.
@_cdecl("FuzzTime_main")
public func fuzzTimeMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    return runLibFuzzer(argc, argv, fuzz)
}
