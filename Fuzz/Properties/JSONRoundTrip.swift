import ScoutJSON

extension FuzzProperties {
    /// `JSONReader.parse` never crashes on `input`; what parses survives a round trip through
    /// `JSONWriter` (the written bytes parse again, to an equal value, and writing that value
    /// again gives the same bytes); parsing the same text as a `String` agrees.
    public static func jsonRoundTrip(_ input: [UInt8]) throws(PropertyViolation) {
        guard let value = try? JSONReader.parse(input) else { return }
        var w = JSONWriter()
        w.value(value)
        let written = w.bytes
        let again: JSONValue
        do throws(JSONParseError) {
            again = try JSONReader.parse(written)
        } catch {
            throw PropertyViolation("JSONWriter wrote what JSONReader refuses: \(error)")
        }
        guard again == value else { throw PropertyViolation("round trip changed the value") }
        var w2 = JSONWriter()
        w2.value(again)
        guard w2.bytes == written else { throw PropertyViolation("writing the re-parsed value gave other bytes") }
        // The text form must also parse the same (String repairs invalid UTF-8 first).
        if let text = String(validating: input, as: UTF8.self) {
            guard let viaText = try? JSONReader.parse(text), viaText == value else {
                throw PropertyViolation("parsing the same text as a String gave another answer")
            }
        }
    }
}

/// The properties the fuzz targets check, one function per target, each taking one input's
/// bytes and throwing ``PropertyViolation`` when the input breaks it (a crash is a crash).
public enum FuzzProperties {}
