import Testing

@testable import FixTables

/// The device index tells ids apart by every byte, whether the last id looked up is compared as two
/// words (8 to 16 bytes) or byte by byte (shorter, longer).
@Suite("Device index")
struct DeviceIndexTests {
    /// Ids of `length` bytes that differ from a base id in one byte each, at every place.
    static func neighbours(length: Int) -> [[UInt8]] {
        let base = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        return [base]
            + (0..<length).map { place in
                var id = base
                id[place] = UInt8(ascii: "0")
                return id
            }
    }

    @Test("ids that differ in one byte are different devices", arguments: [1, 7, 8, 9, 12, 15, 16, 17, 40])
    func oneByteApart(length: Int) {
        let ids = Self.neighbours(length: length)
        var index = DeviceIndex()
        for (expected, id) in ids.enumerated() {
            let outcome = id.withUnsafeBufferPointer { index.index(of: $0) }
            guard case let .added(added) = outcome else {
                Issue.record("\(String(decoding: id, as: UTF8.self)): \(outcome), expected a new device")
                continue
            }
            #expect(added == expected)
        }
        // Each id after each other (the last one looked up changes at every lookup), then each twice.
        for (first, a) in ids.enumerated() {
            for (second, b) in ids.enumerated() {
                #expect(a.withUnsafeBufferPointer { index.existing($0) } == first)
                #expect(b.withUnsafeBufferPointer { index.existing($0) } == second)
                #expect(b.withUnsafeBufferPointer { index.existing($0) } == second)
            }
        }
        // A longer or shorter id than the last one looked up is not it.
        var longer = ids[0]
        longer.append(UInt8(ascii: "x"))
        #expect(longer.withUnsafeBufferPointer { index.existing($0) } == nil)
        #expect(ids[0].dropLast().withUnsafeBufferPointer { index.existing($0) } == nil)
    }
}
