import FuzzDriver
import ScoutFuzzProperties

/// libFuzzer entry: polygon parsing and Region building, as the worker's `within` does it; GEOS
/// must agree with the boundary grid's verdicts (``FuzzProperties/geometryReaders(_:)``). A broken property stops the process, which
/// libFuzzer reports and saves as a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    do throws(PropertyViolation) {
        try FuzzProperties.geometryReaders(fuzzInput(data, size))
    } catch {
        fatalError(error.description)
    }
    return 0
}

/// The process entry point (SwiftPM links `main` to it): libFuzzer's driver over ``fuzz(_:_:)``.
@_cdecl("FuzzGeometry_main")
public func fuzzGeometryMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    return runLibFuzzer(argc, argv, fuzz)
}
