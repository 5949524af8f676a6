import Testing
import TextEscaping

/// Hand-written cases for the one JSON escaper and the one XML escaper.
@Suite("Escaping")
struct EscapingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let text: String
        let escaped: String
        var testDescription: String { id }
    }

    @Test(
        "JSON string literals",
        arguments: [
            Case(id: "plain", text: "cafe", escaped: #""cafe""#),
            Case(id: "quote and backslash", text: #"a"b\c"#, escaped: #""a\"b\\c""#),
            Case(id: "named controls", text: "\n\r\t\u{08}\u{0C}", escaped: #""\n\r\t\b\f""#),
            Case(id: "other controls and DEL", text: "\u{00}\u{1F}\u{7F}", escaped: #""\u0000\u001f\u007f""#),
            Case(id: "line and paragraph separators", text: "\u{2028}x\u{2029}", escaped: #""\u2028x\u2029""#),
            Case(id: "other E2 characters stay UTF-8", text: "€ – …", escaped: "\"€ – …\""),
            Case(id: "non-ASCII and emoji", text: "Café 東京 🚗", escaped: "\"Café 東京 🚗\""),
            Case(id: "empty", text: "", escaped: #""""#),
        ])
    func json(c: Case) {
        #expect(JSONEscaping.string(c.text) == c.escaped)
        var out = "["
        JSONEscaping.append(c.text, to: &out)
        #expect(out == "[" + c.escaped)
    }

    @Test(
        "XML text",
        arguments: [
            Case(id: "markup", text: "a&b<c>d", escaped: "a&amp;b&lt;c&gt;d"),
            Case(id: "quotes stay in text", text: #"say "hi" 'there'"#, escaped: #"say "hi" 'there'"#),
            Case(id: "tab and LF kept, CR as a reference", text: "a\tb\nc\rd", escaped: "a\tb\nc&#13;d"),
            Case(id: "controls XML 1.0 forbids", text: "bell\u{7} walk\u{FFFE}", escaped: "bell\u{FFFD} walk\u{FFFD}"),
        ])
    func xmlText(c: Case) {
        #expect(XMLEscaping.text(c.text) == c.escaped)
    }

    @Test(
        "XML attribute values",
        arguments: [
            Case(id: "markup and quotes", text: #"a&b<c>d"e'f"#, escaped: "a&amp;b&lt;c&gt;d&quot;e&apos;f"),
            Case(id: "white space as references", text: "a\tb\nc\rd", escaped: "a&#9;b&#10;c&#13;d"),
        ])
    func xmlAttribute(c: Case) {
        #expect(XMLEscaping.attribute(c.text) == c.escaped)
    }
}

@Suite("JSON escapes read back")
struct EscapeDecodingTests {
    private func decode(_ escape: String) -> (Result<Unicode.Scalar, JSONEscaping.EscapeFailure>, Int) {
        let bytes = Array(escape.utf8)
        var index = 0
        let result = bytes.withUnsafeBufferPointer { JSONEscaping.decodeEscape($0, at: &index, end: bytes.count) }
        return (result, index)
    }

    @Test(
        "each escape, and where reading stops",
        arguments: [
            (#"\""#, "\"" as Unicode.Scalar, 2), (#"\\"#, "\\", 2), (#"\/"#, "/", 2), (#"\n"#, "\n", 2),
            (#"\b"#, "\u{08}", 2),
            (#"\u00e9x"#, "é", 6), (#"\u2028"#, "\u{2028}", 6), (#"\ud83d\ude97"#, "🚗", 12), (#"\u0000"#, "\u{0}", 6),
        ])
    func reads(escape: String, scalar: Unicode.Scalar, end: Int) {
        let (result, index) = decode(escape)
        #expect(result == .success(scalar))
        #expect(index == end)
    }

    @Test(
        "what is refused",
        arguments: [
            (#"\x"#, JSONEscaping.EscapeFailure.unknown), (#"\u12"#, .badUnicode), (#"\u12G4"#, .badUnicode),
            (#"\ud83d"#, .loneSurrogate), (#"\ud83dx"#, .loneSurrogate), (#"\ud83d\u0041"#, .loneSurrogate),
            (#"\ude97"#, .loneSurrogate),
        ])
    func refuses(escape: String, failure: JSONEscaping.EscapeFailure) {
        #expect(decode(escape).0 == .failure(failure))
    }

    @Test("every string the escaper writes reads back to itself")
    func roundTrip() {
        for text in [
            "plain", "quote \" and \\ backslash", "\u{0}\u{1F}\u{7F}", "\u{2028}\u{2029}", "Café 東京 🚗", "\t\n\r\u{08}\u{0C}",
        ] {
            let literal = Array(JSONEscaping.string(text).utf8.dropFirst().dropLast())
            var out: [UInt8] = []
            var index = 0
            literal.withUnsafeBufferPointer { bytes in
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "\\") {
                        guard case let .success(scalar) = JSONEscaping.decodeEscape(bytes, at: &index, end: bytes.count)
                        else { return }
                        JSONEscaping.appendUTF8(scalar, to: &out)
                    } else {
                        out.append(bytes[index])
                        index += 1
                    }
                }
            }
            #expect(String(decoding: out, as: UTF8.self) == text)
        }
    }
}
