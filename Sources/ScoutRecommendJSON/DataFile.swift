import Foundation
import ScoutCore
import ScoutJSON

/// The recommender's JSON data files (`activities.json`, `weights.json`): errors name the
/// file by `name` (`activities`, `weights`) and say what it holds.
enum DataFile {
    /// The bytes at `path`; `not_found` ("the activity catalogue could not be read") when
    /// the file cannot be read.
    static func bytes(path: String, what: String, name: String) throws(ScoutError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScoutError(.notFound, "\(what) could not be read", path: name)
        }
        return [UInt8](data)
    }

    /// The JSON of a file's bytes; `parse_error` ("the activity catalogue is not valid
    /// JSON: …") when they are not JSON. `subject` comes with its verb ("the recommender
    /// weights are").
    static func json(_ bytes: [UInt8], subject: String, name: String) throws(ScoutError) -> JSONValue {
        do throws(JSONParseError) { return try JSONReader.parse(bytes) } catch {
            throw ScoutError(.parseError, "\(subject) not valid JSON: \(error.description)", path: name)
        }
    }
}
