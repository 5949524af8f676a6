import Documents
import Draws
import NumberText
import Testing

/// `JSONReader.readsExactly(jsonNumber:)` skips `ExactDecimal` for short numbers without an exponent: for
/// every number of JSON's grammar it must answer as `ExactDecimal` does.
@Suite("JSON numbers read exactly")
struct JSONNumberTests {
    /// A random number of JSON's grammar: a sign, an integer part (0, or digits not starting with 0), a
    /// fraction and an exponent sometimes; 1 to 30 digits, zeros often (ExactDecimal drops trailing zeros
    /// past 18 digits).
    static func number(_ random: inout SplitMix64) -> String {
        func digits(_ count: Int) -> String {
            String(
                (0..<count).map { _ in
                    Bool.random(using: &random) ? "0" : Character(String(Int.random(in: 0...9, using: &random)))
                })
        }
        var text = Bool.random(using: &random) ? "-" : ""
        text +=
            Int.random(in: 0..<4, using: &random) == 0
            ? "0" : String(Int.random(in: 1...9, using: &random)) + digits(.random(in: 0...20, using: &random))
        if Bool.random(using: &random) { text += "." + digits(.random(in: 1...20, using: &random)) }
        if Int.random(in: 0..<4, using: &random) == 0 {
            text += ["e", "E"].randomElement(using: &random)! + ["", "+", "-"].randomElement(using: &random)!
            text += String(Int.random(in: 1...9, using: &random)) + digits(.random(in: 0...5, using: &random))
        }
        return text
    }

    @Test("answers as ExactDecimal on random numbers and at 18 and 19 characters", arguments: 0..<4)
    func sameAnswer(seed: UInt64) {
        var random = SplitMix64(seed: seed &+ 77)
        var fast = 0
        let edges = [
            "123456789012345678", "1234567890123456789", "-12345678901234567", "-123456789012345678",
            "0.000000000000000001", "1.00000000000000000", "999999999999999999", "1e5", "1E-5", "0",
        ]
        for text in edges + (0..<5_000).map({ _ in Self.number(&random) }) {
            let bytes = Array(text.utf8)
            let answer = bytes.withUnsafeBufferPointer { JSONReader.readsExactly(jsonNumber: $0) }
            #expect(answer == (ExactDecimal(utf8: bytes) != nil), "seed \(seed): \(text)")
            if bytes.count <= 18 && !text.contains("e") && !text.contains("E") { fast += 1 }
        }
        #expect(fast > 500, "the short form was tried \(fast) times")
    }
}
