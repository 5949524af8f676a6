import Draws
import Geodesy
import Geofencing
import Testing
import TextEscaping
import Time
import WireFormat

/// The record writers read an engine's event in place (`WireRecord`) instead of copying it into a
/// `WireEvent` first; both must give the same bytes, and the byte classes they test eight at a time
/// (`ByteLanes`) must be exactly the ones a byte-by-byte test finds.
@Suite struct RecordWriterTests {
    /// Events of every kind with awkward values: times before 1970 and with microseconds below the
    /// millisecond, ids that need escaping or quoting, numbers that are not finite or not short decimals.
    static func randomEvents(seed: UInt64, count: Int) -> [GeofenceEvent] {
        var random = SplitMix64(seed: seed)
        let ids = [
            "phone", "van-0012", "a much longer device identifier", "quote\"d", "comma,id", "line\nbreak",
            "tab\there", "café", "\u{2028}", "", "back\\slash", "exactly-8",
        ]
        func time() -> Timestamp {
            Timestamp(microsecondsSince1970: .random(in: -3_000_000_000_000_000...3_000_000_000_000_000, using: &random))
        }
        func number() -> Double {
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return .nan
            case 1: return Double(Int.random(in: -180_000_000...180_000_000, using: &random)) / 1e6
            case 2: return Double(bitPattern: .random(in: 0...UInt64.max, using: &random))
            default: return .random(in: -500...500, using: &random)
            }
        }
        return (0..<count).map { _ in
            let t = time()
            let details: [GeofenceEvent.Detail] = [
                .monitorStart, .monitorStop, .monitorFailed, .enter(crossedAt: time()), .exit(crossedAt: time()),
                .visit(arrival: t - .seconds(Int64.random(in: 0...90_000, using: &random)), departure: t),
                .dwell(
                    rule: ids.randomElement(using: &random)!, ruleIndex: 0,
                    duration: .seconds(Int64.random(in: 0...3_600, using: &random))),
            ]
            return GeofenceEvent(
                time: t, device: ids.randomElement(using: &random)!, region: ids.randomElement(using: &random)!,
                regionIndex: 0, coordinate: Coordinate(latitude: number(), longitude: number()),
                distance: number(), detail: details.randomElement(using: &random)!)
        }
    }

    @Test("an event's JSON line and CSV record are the bytes of its WireEvent's (2,000 seeded events)")
    func eventWritesAsItsWireEvent() {
        let seed: UInt64 = 0x5EC0_4D
        var failures = 0
        for event in Self.randomEvents(seed: seed, count: 2_000) {
            var direct: [UInt8] = [], wire: [UInt8] = []
            JSONLines.append(event, to: &direct)
            JSONLines.append(WireEvent(event), to: &wire)
            CSVRecords.append(event, to: &direct)
            CSVRecords.append(WireEvent(event), to: &wire)
            if direct != wire {
                failures += 1
                if failures <= 3 {
                    Issue.record(
                        "seed \(seed): \(String(decoding: direct, as: UTF8.self)) ≠ \(String(decoding: wire, as: UTF8.self))"
                    )
                }
            }
        }
        #expect(failures == 0, "seed \(seed)")
    }

    @Test("a byte's lane is found at each of the eight places, for every byte and every class byte")
    func lanesAreExact() {
        var wrong = 0
        for place in 0..<8 {
            for value in 0...255 {
                // The other lanes hold a byte that matches neither test below.
                var bytes = [UInt8](repeating: 0xFF, count: 8)
                bytes[place] = UInt8(value)
                let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
                for target in 0...254 where (ByteLanes.equal(word, UInt8(target)) != 0) != (value == target) { wrong += 1 }
                for bound in 0...128 where (ByteLanes.below(word, UInt8(bound)) != 0) != (value < bound) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    @Test("JSON's and CSV's byte checks find what a byte-by-byte check finds (200,000 seeded strings of 0-40 bytes)")
    func checksMatchByteByByte() {
        let seed: UInt64 = 0xB17E_5
        var random = SplitMix64(seed: seed)
        let special: [UInt8] = [
            0x00, 0x0A, 0x0D, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x2B, 0x2C, 0x2D, 0x5B, 0x5C, 0x5D,
            0x7E, 0x7F, 0x80, 0xE1, 0xE2, 0xE3, 0xFF, 0x09, 0x24, 0x25, 0x26, 0x3B, 0x3D, 0x60, 0x7C,
        ]
        // RFC 4180's bytes, and a shell's (issue 49 H4).
        let quoted = Set("\t\n\r !\"#$&'()*,;<>?[\\]^`{|}~".utf8)
        var failures = 0
        for _ in 0..<200_000 {
            let count = Int.random(in: 0...40, using: &random)
            let rare = Int.random(in: 0...3, using: &random)  // how many special bytes, often none
            var bytes = (0..<count).map { _ in UInt8.random(in: 0x30...0x7A, using: &random) }
            for _ in 0..<rare where count > 0 {
                bytes[.random(in: 0..<count, using: &random)] = special.randomElement(using: &random)!
            }
            let json = bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }
            let csv = bytes.contains(where: quoted.contains)
            let (jsonFound, csvFound) = bytes.withUnsafeBufferPointer {
                (JSONEscaping.needsEscaping($0), EventFormatting.csvNeedsQuotes($0))
            }
            if jsonFound != json || csvFound != csv {
                failures += 1
                if failures <= 5 { Issue.record("seed \(seed): \(bytes) JSON \(jsonFound) CSV \(csvFound)") }
            }
        }
        #expect(failures == 0, "seed \(seed)")
    }
}
