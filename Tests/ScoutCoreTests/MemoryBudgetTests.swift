import ScoutCore
import Testing

/// The memory budget of loads: sizes read and written in words, the room the kernel
/// reports, and the refusal when a load would not fit.
@Suite struct MemoryBudgetTests {
    @Test func sizesParseWithTheirUnits() {
        #expect(MemoryBudget.parse("8G") == 8 << 30)
        #expect(MemoryBudget.parse("512m") == 512 << 20)
        #expect(MemoryBudget.parse(" 64K ") == 64 << 10)
        #expect(MemoryBudget.parse("1000") == 1000)
        for bad in ["", "G", "-1G", "0", "1.5G", "8GB", "12X", "99999999999T"] { #expect(MemoryBudget.parse(bad) == nil, "\(bad)") }
    }

    @Test func sizesAreDescribedInWords() {
        #expect(MemoryBudget.describe(100) == "100 bytes")
        #expect(MemoryBudget.describe(1536) == "1.5 KiB")
        #expect(MemoryBudget.describe(320 << 20) == "320 MiB")
        #expect(MemoryBudget.describe(3 << 29) == "1.5 GiB")
    }

    /// On Linux the room is known, positive and below the machine's memory; a limit lowers
    /// it by what the process already holds.
    @Test func theRoomComesFromTheKernelAndTheLimit() throws {
        let resident = try #require(MemoryBudget.residentBytes())
        #expect(resident > 1 << 20)
        let system = try #require(MemoryBudget().room())
        #expect(system.bytes > 0)
        let limited = try #require(MemoryBudget(limit: resident + (64 << 20)).room())
        #expect(limited.bytes <= 64 << 20 && limited.bytes > 32 << 20)
        #expect(limited.bound.hasPrefix("the memory limit of"))
        let spent = try #require(MemoryBudget(limit: 1 << 20).room())
        #expect(spent.bytes == 0)
    }

    @Test func aLoadThatWouldNotFitIsRefusedNamingBothSizes() throws {
        let budget = MemoryBudget(limit: (MemoryBudget.residentBytes() ?? 0) + (10 << 20))
        let error = #expect(throws: ScoutError.self) { try budget.check(needing: 200 << 20, for: "loading big.jsonl", path: "path") }
        #expect(error?.code == .limitExceeded)
        #expect(error?.path == "path")
        #expect(error?.message.contains("loading big.jsonl would need about 200 MiB") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("less the") == true)
        try budget.check(needing: 1 << 20, for: "loading small.jsonl", path: "path")
    }
}
