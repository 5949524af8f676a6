import Testing

@testable import Documents

/// What a document may not be: empty, not UTF-8, or a nest of aliases standing for more nodes than its
/// budget (one per 8 bytes of the file, at least 100,000). Each is refused with one error, nothing composed.
@Suite("Documents: the files refused")
struct LimitsTests {
    /// An error as `LINE:COLUMN KEYPATH: MESSAGE`.
    static func describe(_ log: ProblemLog) -> [String] {
        log.errors.map { "\($0.line):\($0.column) \($0.keyPath): \($0.message)" }
    }

    @Test(
        "empty and unreadable files",
        arguments: [
            ([UInt8](), "0:0 : the file is empty; expected a test document"),
            (Array("\n  \n# only a comment\n".utf8), "0:0 : the file is empty; expected a test document"),
            ([0x61, 0x3A, 0x20, 0xFF], "0:0 : cannot read a test document: the file is not UTF-8 text"),
        ])
    func refused(bytes: [UInt8], error: String) throws {
        let document = try ReadDocument.yaml(bytes: bytes)
        #expect(document.root == nil)
        #expect(Self.describe(document.log) == [error])
    }

    /// Five levels of ten aliases: `b` stands for 10 × 11 nodes, `c` for 10 × 111, `d` for 10 × 1,111, so
    /// 12,330 nodes are reached through aliases before `e`, whose eighth `*d` (11,111 more) passes 100,000.
    static let aliasNest = """
        a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
        c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
        d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
        e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]

        """

    @Test("a nest of aliases past its budget is refused at the alias that passes it")
    func aliasBudget() throws {
        let document = try ReadDocument.yaml(Self.aliasNest)
        #expect(document.root == nil)
        #expect(
            Self.describe(document.log) == [
                "4:4 e[7]: this alias (*d, standing for the 11,111 nodes at line 4, column 4) brings what the file's "
                    + "aliases stand for to 101,218 nodes, past its budget of 100,000 (one node per 8 bytes of the file, "
                    + "at least 100,000): aliases are never expanded past it. Write out what they stand for, or use fewer of them"
            ])
    }

    @Test("four levels of the same nest are within it, and compose")
    func withinBudget() throws {
        let four = Self.aliasNest.split(separator: "\n").prefix(4).joined(separator: "\n") + "\n"
        let document = try ReadDocument.yaml(four)
        #expect(document.log.errors.isEmpty)
        #expect(document.root?.entry("d")?.list("a list")?.count == 10)
    }

    @Test(
        "the budget: 100,000 nodes, or one per 8 bytes of the file when that is more",
        arguments: [(0, 100_000), (800_000, 100_000), (800_015, 100_001), (8_000_000, 1_000_000)])
    func budget(bytes: Int, nodes: Int) {
        #expect(YAMLAliasBudget.nodes(forFileOf: bytes) == nodes)
    }
}
