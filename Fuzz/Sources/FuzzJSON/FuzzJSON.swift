import FuzzDriver
import ScoutJSON

/// libFuzzer entry: JSONReader.parse must never crash; what parses must survive a round
/// trip through JSONWriter (the written bytes parse again, to an equal value, and writing
/// that value again gives the same bytes).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let value = try? JSONReader.parse(input) else { return 0 }
    var w = JSONWriter()
    w.value(value)
    let written = w.bytes
    let again: JSONValue
    do throws(JSONParseError) {
        again = try JSONReader.parse(written)
    } catch {
        fatalError("JSONWriter wrote what JSONReader refuses: \(error)")
    }
    guard again == value else { fatalError("round trip changed the value") }
    var w2 = JSONWriter()
    w2.value(again)
    guard w2.bytes == written else { fatalError("writing the re-parsed value gave other bytes") }
    // The text form must also parse the same (String repairs invalid UTF-8 first).
    if let text = String(validating: input, as: UTF8.self) {
        guard let viaText = try? JSONReader.parse(text), viaText == value else {
            fatalError("parsing the same text as a String gave another answer")
        }
    }
    return 0
}

/// The process entry point (SwiftPM links `main` to it): libFuzzer's driver over ``fuzz(_:_:)``.
@_cdecl("FuzzJSON_main")
public func fuzzJSONMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzz)
}
