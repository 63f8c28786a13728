// Bytes on disk: little-endian writing and reading, and the checksum the snapshot and journal
// files carry (xxHash64). Shared by ScoutEngine's snapshot files and ScoutState's journal.

/// Little-endian bytes, appended.
package struct ByteWriter {
    package var bytes: [UInt8] = []
    package init(capacity: Int) { bytes.reserveCapacity(capacity) }
    package mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func u64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    package mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }
}

extension UnsafeRawBufferPointer {
    /// The little-endian `UInt32` at byte `offset` (any alignment; the caller checked bounds).
    @inline(__always) package func le32(_ offset: Int) -> UInt32 { UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
    /// The little-endian `UInt64` at byte `offset` (any alignment; the caller checked bounds).
    @inline(__always) package func le64(_ offset: Int) -> UInt64 { UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
}

/// xxHash64 (Yann Collet's XXH64, seed 0): a fast non-cryptographic checksum; any flipped
/// byte changes it. `hash([])` is `0xEF46DB3751D8E999`.
package enum XXHash64 {
    static let p1: UInt64 = 11_400_714_785_074_694_791
    static let p2: UInt64 = 14_029_467_366_897_019_727
    static let p3: UInt64 = 1_609_587_929_392_839_161
    static let p4: UInt64 = 9_650_029_242_287_828_579
    static let p5: UInt64 = 2_870_177_450_012_600_261

    /// The hash of an array's bytes.
    package static func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { hash($0) } }

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }
    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 { rotl(acc &+ input &* p2, 31) &* p1 }
    @inline(__always) private static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 { (acc ^ round(0, v)) &* p1 &+ p4 }

    /// The hash of a buffer's bytes.
    /// - Complexity: O(n), about a byte a cycle's fraction: 32 bytes a step in four lanes.
    package static func hash(_ b: UnsafeRawBufferPointer) -> UInt64 {
        let n = b.count
        var i = 0
        var h: UInt64
        if n >= 32 {
            var v1 = p1 &+ p2, v2 = p2, v3: UInt64 = 0, v4 = 0 &- p1
            while i + 32 <= n {
                v1 = round(v1, b.le64(i)); v2 = round(v2, b.le64(i + 8))
                v3 = round(v3, b.le64(i + 16)); v4 = round(v4, b.le64(i + 24))
                i += 32
            }
            h = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
            h = merge(h, v1); h = merge(h, v2); h = merge(h, v3); h = merge(h, v4)
        } else {
            h = p5
        }
        h &+= UInt64(n)
        while i + 8 <= n {
            h ^= round(0, b.le64(i))
            h = rotl(h, 27) &* p1 &+ p4
            i += 8
        }
        if i + 4 <= n {
            h ^= UInt64(b.le32(i)) &* p1
            h = rotl(h, 23) &* p2 &+ p3
            i += 4
        }
        while i < n {
            h ^= UInt64(b[i]) &* p5
            h = rotl(h, 11) &* p1
            i += 1
        }
        h ^= h >> 33; h &*= p2
        h ^= h >> 29; h &*= p3
        h ^= h >> 32
        return h
    }
}
