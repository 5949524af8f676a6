import FileSystem
import Testing

/// A reader's error with only what `PlacedError` asks for: the description comes from the protocol.
private struct BareError: PlacedError {
    var place: SourcePlace
    var message: String
}

/// The same with a key path.
private struct KeyedError: PlacedError {
    var place: SourcePlace
    var keyPath: String
    var message: String
}

@Suite("PlacedError writes a place one way")
struct PlacedErrorTests {
    @Test(
        "FILE:LINE:COLUMN: KEY.PATH: MESSAGE, leaving out what is unknown",
        arguments: [
            (SourcePlace(file: "a.gpx", line: 3, column: 14), "", "a.gpx:3:14: bad"),
            (SourcePlace(file: "a.gpx"), "", "a.gpx: bad"),
            (SourcePlace(file: "s.yaml", line: 2, column: 5), "regions[1].radius", "s.yaml:2:5: regions[1].radius: bad"),
            (SourcePlace(file: "s.yaml"), "noise", "s.yaml: noise: bad"),
        ])
    func description(place: SourcePlace, keyPath: String, expected: String) {
        let error: any PlacedError =
            keyPath.isEmpty
            ? BareError(place: place, message: "bad") : KeyedError(place: place, keyPath: keyPath, message: "bad")
        #expect(error.description == expected)
        #expect(error.file == place.file && error.line == place.line && error.column == place.column)
    }
}

@Suite("ByteOrderMark: the one skip of EF BB BF")
struct ByteOrderMarkTests {
    @Test(
        "3 before a mark, else 0",
        arguments: [
            ([0xEF, 0xBB, 0xBF, 0x7B], 3), ([0xEF, 0xBB, 0xBF], 3), ([0xEF, 0xBB], 0), ([], 0),
            ([0xEF, 0xBB, 0xBE], 0), ([0x7B, 0xEF, 0xBB, 0xBF], 0),
        ] as [([UInt8], Int)])
    func length(bytes: [UInt8], expected: Int) {
        #expect(ByteOrderMark.length(at: bytes) == expected)
        #expect(ByteOrderMark.length(at: bytes[...]) == expected)
    }
}
