import ArgumentParser
import ScoutCore
import ScoutWorker
#if canImport(Glibc)
import Glibc
#endif

/// `scout rank`: a batch job over a file of requests, on every core.
struct Rank: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer a file of read-only requests on every core: one response line per request, in input order.",
        discussion: "Any read-only op is allowed (recommend_activities, recommend_dogs, rank_gyms, search, nearest, progress, "
            + "schedule, …); a write op or a bad line gets an error line and the job goes on. The output is byte for byte "
            + "what scout serve answers to the same requests, for any --threads.")

    @OptionGroup var catalog: CatalogOptions

    @Option(name: .customLong("input"), parsing: .upToNextOption, help: ArgumentHelp(
        "Files of JSON Lines requests, read in order (default: stdin).", valueName: "file"))
    var inputs: [String] = []

    @Option(name: .customLong("output"), help: ArgumentHelp("Where to write the responses (default: stdout).", valueName: "file"))
    var output: String?

    @Flag(name: .customLong("quiet"), help: "No progress and no summary on stderr.")
    var quiet = false

    @Flag(name: .customLong("fail-on-error"), help: "Exit with status 3 when any request was answered with an error.")
    var failOnError = false

    func run() throws {
        var inputFDs: [(fd: Int32, name: String)] = []
        for path in inputs {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw ValidationError("--input: cannot read \(path)") }
            inputFDs.append((fd, path))
        }
        if inputFDs.isEmpty { inputFDs = [(0, "stdin")] }
        var out: Int32 = 1
        if let output {
            out = open(output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard out >= 0 else { throw ValidationError("--output: cannot write \(output)") }
        }
        let expected = inputs.isEmpty ? nil : inputs.reduce(0) { $0 + Rank.countLines($1) }
        let engine = try catalog.engine()
        let loaded = try catalog.recommender(for: engine)
        let worker = Worker(engine: engine, recommender: loaded?.recommender, replicate: loaded?.replicate, deadlineMilliseconds: catalog.deadline)
        let progress = Progress(expected: expected, quiet: quiet)
        for (fd, _) in inputFDs {
            LineServer(worker: worker, input: fd, output: out, threads: catalog.threads, readOnly: true) { progress.record($0) }.run()
            if fd != 0 { close(fd) }
        }
        if out != 1 { guard fsync(out) == 0 || errno == EINVAL, close(out) == 0 else { throw ExitCode(1) } }
        progress.finish()
        if failOnError && progress.errors > 0 { throw ExitCode(3) }
    }

    /// Request lines in a file (non-blank lines), for the ETA; 0 when it cannot be read.
    static func countLines(_ path: String) -> Int {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: 1 << 20)
        var count = 0, sawText = false
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            for i in 0..<n {
                let b = buf[i]
                if b == 0x0A { if sawText { count += 1 }; sawText = false } else if b != 0x20 && b != 0x09 && b != 0x0D { sawText = true }
            }
        }
        return count + (sawText ? 1 : 0)
    }
}

/// Counts responses and reports progress on stderr: a live bar when stderr is a terminal,
/// a plain line every few seconds otherwise; then one summary line.
final class Progress {
    let expected: Int?
    let quiet: Bool
    let terminal: Bool
    let started: Double
    var lastReport: Double
    var done = 0
    var errors = 0
    var byCode: [ScoutError.Code: Int] = [:]

    init(expected: Int?, quiet: Bool) {
        self.expected = expected
        self.quiet = quiet
        terminal = isatty(2) == 1
        started = Progress.now()
        lastReport = started
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    func record(_ r: Worker.Response) {
        done += 1
        if let code = r.error { errors += 1; byCode[code, default: 0] += 1 }
        guard !quiet, done & 255 == 0 else { return }
        let t = Progress.now()
        guard t - lastReport >= (terminal ? 0.2 : 5) else { return }
        lastReport = t
        report(at: t)
    }

    func report(at t: Double) {
        let rate = Double(done) / max(t - started, 1e-9)
        var line = "\(done) requests"
        if let expected, expected > 0 {
            let share = min(1, Double(done) / Double(expected))
            let eta = rate > 0 ? Double(max(0, expected - done)) / rate : 0
            if terminal {
                let width = 24, filled = Int(share * Double(width))
                line = "[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] " + line
            }
            line += " of \(expected) (\(Int(share * 100))%), ETA \(Progress.clock(eta))"
        }
        line += ", \(Int(rate))/s, \(errors) errors"
        write(terminal ? "\r\u{1B}[2K" + line : line + "\n")
    }

    func finish() {
        guard !quiet else { return }
        let seconds = Progress.now() - started
        if terminal { write("\r\u{1B}[2K") }
        let codes = byCode.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        write("scout rank: \(done) requests, \(errors) errors\(codes.isEmpty ? "" : " (\(codes))"), "
              + "\(String(format: "%.2f", seconds)) s, \(Int(Double(done) / max(seconds, 1e-9)))/s\n")
    }

    static func clock(_ s: Double) -> String {
        let t = Int(s.rounded())
        return String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60)
    }

    private func write(_ s: String) {
        var s = s
        s.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
