import ScoutEngine
import ScoutWorker
#if canImport(Glibc)
import Glibc
#endif

/// `scout` — the command-line entry point. Logs go to stderr; stdout carries only
/// protocol lines (`serve`).
func log(_ message: String) {
    var line = "scout: " + message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

let usage = """
    usage: scout serve [--load PATH[:KIND]]...   JSON Lines worker on stdin/stdout (docs/protocol.md)
           scout version
    """

var args = Array(CommandLine.arguments.dropFirst())
guard let command = args.first else { log(usage); exit(2) }
args.removeFirst()

switch command {
case "serve":
    let engine = Engine()
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--load":
            guard i + 1 < args.count else { log("--load needs a path"); exit(2) }
            var path = args[i + 1]
            var kind: String?
            if let colon = path.lastIndex(of: ":"), !path[path.index(after: colon)...].contains("/") {
                kind = String(path[path.index(after: colon)...])
                path = String(path[..<colon])
            }
            do {
                let n = try engine.load(path: path, kind: kind)
                log("loaded \(n) records from \(path)")
            } catch {
                log("could not load \(path): \(error)")
                exit(1)
            }
            i += 2
        default:
            log("unknown option \(args[i])\n\(usage)")
            exit(2)
        }
    }
    let served = LineServer(worker: Worker(engine: engine)).run()
    log("served \(served) requests")
    exit(0)
case "version", "--version":
    var v = Worker.version + "\n"
    v.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
default:
    log("unknown command \(command)\n\(usage)")
    exit(2)
}
