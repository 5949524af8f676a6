import Testing
import TextEscaping

/// Hand-written cases for the one JSON text writer (`JSONText`): each expected text is written out as the
/// writers of `inspect --json`, `profile show --json`, the golden inputs and the report must keep printing it.
@Suite("JSON text")
struct JSONTextTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let made: @Sendable () -> String
        let text: String
        var testDescription: String { id }
    }

    @Test(
        "values and containers",
        arguments: [
            Case(id: "string escaped", made: { JSONText.string("a\"b\n") }, text: #""a\"b\n""#),
            Case(id: "absent string", made: { JSONText.string(nil) }, text: "null"),
            Case(id: "bools", made: { JSONText.bool(true) + JSONText.bool(false) }, text: "truefalse"),
            Case(id: "negative integer", made: { JSONText.integer(-42) }, text: "-42"),
            Case(id: "number as description", made: { JSONText.number(12.5) }, text: "12.5"),
            Case(id: "whole number keeps .0", made: { JSONText.number(100) }, text: "100.0"),
            Case(id: "small number in exponent", made: { JSONText.number(1e-7) }, text: "1e-07"),
            Case(id: "NaN is null", made: { JSONText.number(.nan) }, text: "null"),
            Case(id: "infinity is null", made: { JSONText.number(-.infinity) }, text: "null"),
            Case(id: "absent number is null", made: { JSONText.number(nil) }, text: "null"),
            Case(
                id: "compact object, keys escaped",
                made: { JSONText.object([("a", "1"), ("b\"", JSONText.string("x"))]) }, text: #"{"a":1,"b\"":"x"}"#),
            Case(
                id: "absent member left out",
                made: { JSONText.object([("a", "1"), ("b", nil), ("c", JSONText.null)]) }, text: #"{"a":1,"c":null}"#),
            Case(id: "empty object", made: { JSONText.object([(String, String)]()) }, text: "{}"),
            Case(id: "empty array", made: { JSONText.array([]) }, text: "[]"),
            Case(
                id: "spaced, nested",
                made: {
                    JSONText.object(
                        [("name", #""ios""#), ("bases", JSONText.array(["1", "2"], layout: .spaced))], layout: .spaced)
                }, text: #"{"name": "ios", "bases": [1, 2]}"#),
            Case(
                id: "lines, nested one level down",
                made: {
                    JSONText.object(
                        [("a", "1"), ("files", JSONText.array(["{}", "[]"], layout: .lines(depth: 1)))],
                        layout: .lines(depth: 0))
                }, text: "{\n  \"a\": 1,\n  \"files\": [\n    {},\n    []\n  ]\n}"),
            Case(
                id: "lines, empty stays on its line",
                made: {
                    JSONText.object([("files", JSONText.array([], layout: .lines(depth: 1)))], layout: .lines(depth: 0))
                },
                text: "{\n  \"files\": []\n}"),
            Case(
                id: "a member appended", made: { JSONText.appending("key", #""k-1""#, to: #"{"a":1}"#) },
                text: #"{"a":1,"key":"k-1"}"#),
            Case(id: "a member appended to {}", made: { JSONText.appending("key", "2", to: "{}") }, text: #"{"key":2}"#),
            Case(
                id: "in a script, < escaped", made: { JSONText.inScript(#"{"a":"</script>"}"#) },
                text: #"{"a":"\u003c/script>"}"#),
        ])
    func text(c: Case) {
        #expect(c.made() == c.text)
    }
}
