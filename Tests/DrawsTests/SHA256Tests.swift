import Draws
import Testing

/// SHA-256 against FIPS 180-4's examples, fed whole and in pieces (`GoldenInputsTests` compare a file's
/// digest with `sha256sum`'s).
@Suite("SHA-256")
struct SHA256Tests {
    struct Case: Sendable, CustomTestStringConvertible {
        var id: String
        var bytes: [UInt8]
        var digest: String
        var testDescription: String { id }
    }

    static let cases: [Case] = [
        Case(id: "empty", bytes: [], digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        Case(
            id: "abc (one block)", bytes: Array("abc".utf8),
            digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        // 56 bytes: the length no longer fits the first block, so the padding takes a second one.
        Case(
            id: "448 bits (two blocks)", bytes: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            digest: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        Case(
            id: "a million a", bytes: Array(repeating: UInt8(ascii: "a"), count: 1_000_000),
            digest: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ]

    @Test("FIPS 180-4's examples", arguments: cases)
    func examples(_ c: Case) {
        #expect(SHA256.hex(of: c.bytes) == c.digest)
    }

    @Test("Lengths around a block's edges give the same digest fed whole or in pieces of any size")
    func pieces() {
        var generator = SplitMix64(seed: 11 &+ 0x9E37_79B9_7F4A_7C15)  // the seed GeodesyTests' SeededGenerator gave
        for length in [1, 55, 56, 63, 64, 65, 119, 120, 128, 1000] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var pieces = SHA256()
            var rest = bytes[...]
            while !rest.isEmpty {
                let n = Int.random(in: 1...70, using: &generator)
                pieces.combine(rest.prefix(n))
                rest = rest.dropFirst(n)
            }
            #expect(pieces.hex() == SHA256.hex(of: bytes), "length \(length)")
        }
    }
}
