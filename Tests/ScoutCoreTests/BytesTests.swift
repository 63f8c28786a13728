import ScoutCore
import Testing

/// The checksum of the snapshot and journal files, and the little-endian reads and writes.
@Suite struct BytesTests {
    /// XXH64 (seed 0) reference values: the empty input, short tails, and a 39-byte input
    /// through the four-lane loop (python-xxhash's README example).
    @Test func xxHash64MatchesTheReference() {
        #expect(XXHash64.hash([]) == 0xEF46_DB37_51D8_E999)
        #expect(XXHash64.hash(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
        #expect(XXHash64.hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(XXHash64.hash(Array("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
    }

    @Test func littleEndianReadsWhatTheWriterWrote() {
        var w = ByteWriter(capacity: 16)
        w.u32(0xDEAD_BEEF); w.u64(0x0102_0304_0506_0708); w.append("ab")
        #expect(w.bytes.count == 14 && w.bytes[0] == 0xEF && w.bytes[4] == 0x08 && w.bytes[12] == UInt8(ascii: "a"))
        w.bytes.withUnsafeBytes { b in
            #expect(b.le32(0) == 0xDEAD_BEEF)
            #expect(b.le64(4) == 0x0102_0304_0506_0708)
        }
    }
}
