import FixTables
import Foundation
import Testing

@Suite("Fix tables in JSON Lines")
struct JSONLinesTests {
    @Test func valuesAsNumbersOrStringsAndOtherMembersSkipped() throws {
        let t = try read(
            """
            {"device":"van-1","time":"2024-05-01T09:00:00Z","lat":59.9,"lon":30.1,"accuracy":null,"meta":{"a":[1,{"b":"}"}],"c":true}}
            {"lon":"30.2","lat":"59.8","time":1714554000.5,"device":17,"accuracy":"4"}

            {"device":"van\\u002d1","time":"1714554001","lat":5.99e1,"lon":30.3,"accuracy":2.5}\r

            """, name: "fleet.jsonl")
        #expect(t.devices == ["van-1", "17"])
        #expect(
            t.summary["van-1"] == [
                TableFix(time: at("2024-05-01T09:00:00Z"), latitude: 59.9, longitude: 30.1, accuracy: nil, line: 1),
                TableFix(time: at("2024-05-01T09:00:01Z"), latitude: 59.9, longitude: 30.3, accuracy: 2.5, line: 4),
            ])
        #expect(
            t.summary["17"] == [
                TableFix(time: at("2024-05-01T09:00:00.500Z"), latitude: 59.8, longitude: 30.2, accuracy: 4, line: 2)
            ])
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        let id: String
        let line: String
        let error: String
        var testDescription: String { id }
    }

    @Test(arguments: [
        Bad(id: "not an object", line: "[1,2]", error: "FILE:1:1: expected '{' (one JSON object per line)"),
        Bad(id: "no lat", line: #"{"device":"d","time":0,"lon":1}"#, error: #"FILE:1:32: the row has no "lat""#),
        Bad(
            id: "key twice", line: #"{"device":"d","device":"e","time":0,"lat":1,"lon":1}"#,
            error: #"FILE:1:15: the key "device" appears twice"#),
        Bad(
            id: "string never closed", line: #"{"device":"d,"time":0}"#,
            error: "FILE:1:15: expected '}' (one JSON object per line)"),
        Bad(
            id: "lat a boolean", line: #"{"device":"d","time":0,"lat":true,"lon":1}"#,
            error: "FILE:1:30: expected a string, a number or null"),
        Bad(
            id: "lat NaN as text", line: #"{"device":"d","time":0,"lat":"NaN","lon":1}"#,
            error: #"FILE:1:30: "lat" is "NaN", which is not a number"#),
        Bad(
            id: "text after the object", line: #"{"device":"d","time":0,"lat":1,"lon":1} x"#,
            error: "FILE:1:41: text after the object"),
        Bad(
            id: "escaped NUL", line: #"{"device":"d\u0000","time":0,"lat":1,"lon":1}"#,
            error: #"FILE:1:13: a NUL character (\u0000); a fix table is text"#),
        Bad(
            id: "nested too deep", line: #"{"x":"# + String(repeating: "[", count: 100) + "}",
            error: "FILE:1:70: values nested more than 64 deep"),
    ])
    func refuses(bad: Bad) throws {
        let path = try table(bad.line + "\n", name: "f.jsonl")
        let error = #expect(throws: FixTableError.self) { try FixTableReader(path: path).read() }
        #expect(error?.description == bad.error.replacingOccurrences(of: "FILE", with: path))
    }
}
