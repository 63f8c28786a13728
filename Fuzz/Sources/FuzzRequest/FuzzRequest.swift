import FuzzDriver
import ScoutFuzzProperties

/// libFuzzer entry: each line of the input is one request to `Worker.respond(to:)`, which must
/// answer one well-formed line, the same twice for a read-only request
/// (``FuzzProperties/workerRequests(_:)``). A broken property stops the process, which
/// libFuzzer reports and saves as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do throws(PropertyViolation) {
        try FuzzProperties.workerRequests(fuzzInput(data, size))
    } catch {
        fatalError(error.description)
    }
    return 0
}

/// The process entry point (SwiftPM links `main` to it): libFuzzer's driver over ``fuzz(_:_:)``.
@_cdecl("FuzzRequest_main")
public func fuzzRequestMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    // Built before the first input, so that libFuzzer's per-input leak check does not see
    // the shared engine as memory that input allocated.
    _ = FuzzProperties.sharedWorker
    // The gazetteer's name index is built on the first place lookup (seconds in a build
    // without optimisation under ASan): built here, so no input's timeout pays for it.
    _ = FuzzProperties.sharedWorker.respond(to: ArraySlice(#"{"op":"place","name":"Galway"}"#.utf8))
    return runLibFuzzer(argc, argv, fuzz)
}
