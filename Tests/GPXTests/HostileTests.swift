import Foundation
import GPX
import Testing

/// A malformed or hostile file of Fixtures/hostile and the error it must give.
struct HostileCase: CustomTestStringConvertible, Sendable {
    var file: String
    /// The error's line (0: the file as a whole).
    var line: Int
    /// A substring of the error's message.
    var message: String
    var testDescription: String { file }

    init(_ file: String, line: Int, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
}

@Suite("Malformed and hostile files")
struct HostileTests {
    static let cases: [HostileCase] = [
        .init("empty.gpx", line: 0, "the file is empty"),
        .init("whitespace-only.gpx", line: 4, "no element where the document should start"),
        .init("text-before-root.gpx", line: 1, "no element where the document should start"),
        .init("not-gpx-root.gpx", line: 2, "the root element is <kml>, not <gpx>"),
        .init("truncated.gpx", line: 5, "is it truncated?"),
        .init("mismatched-tags.gpx", line: 4, "Opening and ending tag mismatch: trkpt line 4 and trkseg"),
        .init("content-after-root.gpx", line: 7, "Extra content at the end of the document"),
        .init("unquoted-attribute.gpx", line: 4, "AttValue: \" or ' expected"),
        .init("bad-utf8.gpx", line: 3, "Input is not proper UTF-8"),
        .init("nul-byte.gpx", line: 3, "Char 0x0 out of allowed range"),
        .init("mislabelled-utf16.gpx", line: 1, "Document labelled UTF-16 but has UTF-8 content"),
        .init("unknown-encoding.gpx", line: 1, "Unsupported encoding x-klingon"),
        .init("undecodable-iso-2022-jp.gpx", line: 2, "the bytes here are not valid in the encoding the file declares"),
        .init("billion-laughs.gpx", line: 3, "declares the entity 'lol', which is refused"),
        .init("quadratic-blowup.gpx", line: 3, "declares the entity 'a', which is refused"),
        .init("external-entity-file.gpx", line: 3, "declares the entity 'xxe', which is refused"),
        .init("external-entity-http.gpx", line: 3, "declares the entity 'remote', which is refused"),
        .init("parameter-entity.gpx", line: 3, "declares the entity 'pe', which is refused"),
        .init("external-dtd.gpx", line: 2, "refers to an external DTD, which is refused"),
        .init("external-dtd-file.gpx", line: 2, "refers to an external DTD, which is refused"),
        .init("undeclared-entity.gpx", line: 3, "Entity 'foo' not defined"),
        .init("deep-nesting.gpx", line: 4, "nested more than 256 deep"),
        .init("missing-lat.gpx", line: 5, "<trkpt> is missing the lat attribute"),
        .init("missing-lat-and-lon.gpx", line: 4, "<rtept> is missing the lat and lon attributes"),
        .init("non-numeric-lon.gpx", line: 3, "lon=\"east\", which is not a number"),
        .init("hex-lat.gpx", line: 3, "lat=\"0x1p3\", which is not a number"),
        .init("nan-lat.gpx", line: 4, "lat=\"NaN\", which is not a number"),
        .init("inf-lon.gpx", line: 3, "lon=\"inf\", which is not a number"),
        .init("infinite-lon.gpx", line: 5, "lon=\"-Infinity\", which is not a number"),
        .init("before-year-0000.gpx", line: 4, "which is before 0000-01-01T00:00:00Z in UTC"),
        .init("after-year-9999.gpx", line: 5, "which is after 9999-12-31T23:59:59.999999Z in UTC"),
        .init("empty-lat.gpx", line: 4, "lat=\"\", which is not a number"),
        .init("bad-time.gpx", line: 6, "<time> holds \"yesterday\", which is not an ISO 8601 time"),
        .init("impossible-date.gpx", line: 4, "\"2024-0…\" (20 characters), which is not an ISO 8601 time"),
        .init("empty-time.gpx", line: 4, "<time> holds \"\", which is not an ISO 8601 time"),
        .init("mixed-timing.gpx", line: 5, "has no <time>, but 1 of the file's 2 <trkpt> points have one"),
    ]

    @Test("each hostile file gives its error", arguments: cases)
    func refused(_ c: HostileCase) {
        let path = Fixtures.hostile(c.file)
        guard case .failure(let error) = loadResult(path) else {
            Issue.record("\(c.file) loaded")
            return
        }
        #expect(error.file == path)
        #expect(error.line == c.line)
        #expect(c.line == 0 || error.column > 0)
        #expect(error.message.contains(c.message), "\(error.message)")
        #expect(error.description.hasPrefix(path + ":"))
    }

    @Test("the table covers every hostile file")
    func coversEveryFile() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Fixtures.root + "/hostile")
        #expect(Set(names) == Set(Self.cases.map(\.file)))
    }

    @Test("a DOCTYPE without entities or external references is accepted")
    func harmlessDoctype() throws {
        let path = temporaryFile(
            """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [ <!ELEMENT gpx ANY> ]>
            <gpx><wpt lat="1" lon="2"/></gpx>
            """)
        #expect(
            try GPXTrack.load(path: path).segments == [
                [
                    TrackPoint(
                        coordinate: .init(latitude: 1, longitude: 2), time: nil, elevation: nil, ordinal: 0, line: 3,
                        column: 6)
                ]
            ])
    }
}
