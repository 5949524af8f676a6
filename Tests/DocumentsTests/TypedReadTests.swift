import Documents
import Testing

/// A read of the value of `v:` in `yaml`, and the one error it must record (nil: none).
struct ReadCase: Sendable, CustomTestStringConvertible {
    var label: String
    var yaml: String
    var read: @Sendable (PlacedNode) -> Void
    var error: String?
    var testDescription: String { label }
}

/// The typed reads of `PlacedNode`: each records one sentence at the node it could not read, saying what
/// it expected and what it got (at most 40 characters of it), and nothing for what it can.
@Suite("Documents: typed reads and their errors")
struct TypedReadTests {
    static let durationWords =
        "(a number of seconds or a string like \"20s\", \"5m\", \"2h\" or \"250ms\", exact to the microsecond)"

    static let cases: [ReadCase] = [
        ReadCase(label: "a duration", yaml: "v: 90s", read: { _ = $0.duration(.positive) }, error: nil),
        ReadCase(
            label: "a duration of 0 where it must be positive", yaml: "v: 0", read: { _ = $0.duration(.positive) },
            error: "expected a duration greater than 0 \(durationWords), got \"0\""),
        ReadCase(
            label: "a negative distance", yaml: "v: -3m", read: { _ = $0.distance(.nonNegative) },
            error:
                "expected a distance in metres of 0 or more (a number or a string like \"300m\" or \"1.5km\"), got \"-3m\""),
        ReadCase(
            label: "an integer written as a decimal", yaml: "v: 2.5",
            read: { _ = $0.integer(.positive, "a number of runs") },
            error: "expected a number of runs greater than 0, got \"2.5\""),
        ReadCase(label: "an integer", yaml: "v: 30", read: { _ = $0.integer(.positive) }, error: nil),
        ReadCase(
            label: "yes is not a boolean (YAML 1.2)", yaml: "v: yes", read: { _ = $0.boolean("true or false") },
            error: "expected true or false, got \"yes\""),
        ReadCase(label: "TRUE is", yaml: "v: TRUE", read: { _ = $0.boolean("true or false") }, error: nil),
        ReadCase(
            label: "null is named", yaml: "v: ~", read: { _ = $0.text("a name") },
            error: "expected a name, got nothing (null)"),
        ReadCase(
            label: "a mapping is named", yaml: "v: {a: 1}", read: { _ = $0.text("a name") },
            error: "expected a name, got a mapping"),
        ReadCase(
            label: "a short list of texts is shown", yaml: "v: [a, b]", read: { _ = $0.text("a name") },
            error: "expected a name, got [a, b]"),
        ReadCase(
            label: "a list of five is not", yaml: "v: [1, 2, 3, 4, 5]", read: { _ = $0.text("a name") },
            error: "expected a name, got a list"),
        ReadCase(
            label: "a long text is cut at 40 characters", yaml: "v: \(String(repeating: "x", count: 45))",
            read: { _ = $0.number("a number") },
            error: "expected a number, got \"\(String(repeating: "x", count: 40))…\""),
        ReadCase(
            label: "a number out of its range", yaml: "v: 91", read: { _ = $0.number("a latitude", in: -90...90) },
            error: "expected a latitude, got \"91\""),
        ReadCase(
            label: "a list of lists is not shown", yaml: "v: [[1]]", read: { _ = $0.text("a name") },
            error: "expected a name, got a list"),
        ReadCase(
            label: "a list in a list is", yaml: "v: [[1]]", read: { _ = $0.list("a list")?.first?.text("a name") },
            error: "expected a name, got [1]"),
    ]

    @Test("each read records its one error at the node, or none", arguments: cases)
    func read(_ c: ReadCase) throws {
        let document = try ReadDocument.yaml(c.yaml)
        let node = try #require(document.root?.entry("v"))
        c.read(node)
        #expect(document.log.errors.map(\.message) == (c.error.map { [$0] } ?? []))
        if let error = document.log.errors.first {
            #expect(error.line == 1 && error.keyPath.hasPrefix("v"), "\(error)")
        }
    }

    /// A mapping read with its allowed keys, and the errors it records (key path: message).
    struct MappingCase: Sendable, CustomTestStringConvertible {
        var label: String
        var yaml: String
        var required: [String] = []
        var errors: [String]
        var testDescription: String { label }
    }

    static let mappingCases: [MappingCase] = [
        MappingCase(
            label: "an unknown key with a guess, not reported again as missing",
            yaml: "regoins: []\ndevices: []\n", required: ["regions", "devices"],
            errors: [
                "1:1 regoins: unknown key \"regoins\"; did you mean \"regions\"? The keys allowed here are: regions, devices."
            ]),
        MappingCase(
            label: "an unknown key without one, and a key missing",
            yaml: "devices: []\nzzz: 1\n", required: ["regions", "devices"],
            errors: [
                "2:1 zzz: unknown key \"zzz\". The keys allowed here are: regions, devices.",
                "1:1 regions: missing; expected the value",
            ]),
        MappingCase(
            label: "a null required key is named as given",
            yaml: "regions: ~\n", required: ["regions"], errors: ["1:10 regions: expected the value, got nothing (null)"]),
        MappingCase(
            label: "a key that is not text", yaml: "~: 2\n", required: [],
            errors: ["1:1 : expected a key of text, got nothing (null); the keys allowed here are: regions, devices"]),
    ]

    @Test("unknown, misspelt and missing keys", arguments: mappingCases)
    func mapping(_ c: MappingCase) throws {
        let document = try ReadDocument.yaml(c.yaml)
        let fields = try #require(document.root?.mapping("a mapping", allowed: ["regions", "devices"]))
        for key in c.required { _ = fields.required(key, "the value") }
        #expect(document.log.errors.map { "\($0.line):\($0.column) \($0.keyPath): \($0.message)" } == c.errors)
    }
}
