#if canImport(Glibc)
import Glibc
#endif

/// Runs a ``Worker`` over file descriptors: request lines in, response lines out.
///
/// Input is read in 64 KiB blocks and split on `\n` (a trailing `\r` is ignored); a line
/// longer than ``Worker/maximumLineBytes`` is skipped to its end and answered with
/// `limit_exceeded`. Each response line is written with one `write` call as soon as it is
/// ready, so a caller waiting for an answer always gets it. Nothing else goes to the
/// output; EOF ends the loop.
public struct LineServer {
    let worker: Worker
    let input: Int32
    let output: Int32

    /// Serves `worker` from `input` to `output` (default: stdin and stdout).
    public init(worker: Worker, input: Int32 = 0, output: Int32 = 1) {
        self.worker = worker
        self.input = input
        self.output = output
    }

    /// Serves until end of input. Returns the number of requests answered.
    @discardableResult
    public func run() -> Int {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var answered = 0
        var skipping = false
        while true {
            let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; break }
            if n == 0 { break }
            var start = 0
            for i in 0..<n where chunk[i] == 0x0A {
                if skipping || buffer.count + (i - start) > Worker.maximumLineBytes {
                    skipping = false
                    emit(worker.respondToOversizedLine())
                    answered += 1
                } else {
                    buffer.append(contentsOf: chunk[start..<i])
                    answered += handle(buffer[...])
                }
                buffer.removeAll(keepingCapacity: true)
                start = i + 1
            }
            if !skipping {
                buffer.append(contentsOf: chunk[start..<n])
                if buffer.count > Worker.maximumLineBytes {
                    skipping = true
                    buffer.removeAll(keepingCapacity: false)
                }
            }
        }
        if skipping {
            emit(worker.respondToOversizedLine())
            answered += 1
        } else if !buffer.isEmpty {
            answered += handle(buffer[...])
        }
        return answered
    }

    private func handle(_ line: ArraySlice<UInt8>) -> Int {
        var line = line
        if line.last == 0x0D { line = line.dropLast() }
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return 0 }
        emit(worker.respond(to: line))
        return 1
    }

    private func emit(_ bytes: [UInt8]) {
        var out = bytes
        out.append(0x0A)
        out.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let w = write(output, raw.baseAddress! + off, raw.count - off)
                if w < 0 { if errno == EINTR { continue }; return }
                off += w
            }
        }
    }
}
