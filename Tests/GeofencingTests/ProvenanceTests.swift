import Foundation
import Testing

@testable import Geofencing

/// Provenance (docs/sources/README.md): every provenance string of the built-ins, of SEMANTICS §8's
/// source lists and of `Fidelity/`'s `# published:` lines either quotes its source verbatim (each quote
/// after a `[ID]` appears in docs/sources/ID.md) or is labelled `fitted:` / `assumption:`.
struct ProvenanceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// docs/sources/ID.md's text, its blockquote markers removed and whitespace collapsed; nil when absent.
    static func sourceText(_ id: String) -> String? {
        let url = root.appendingPathComponent("docs/sources/\(id).md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
        let lines = text.components(separatedBy: "\n").map { line -> Substring in
            var rest = line[...]
            while rest.first == ">" || rest.first == " " { rest = rest.dropFirst() }
            return rest
        }
        return collapsed(lines.joined(separator: " "))
    }

    static func collapsed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// What is wrong with one provenance string: quotes not found in the source named before them,
    /// unknown sources, or neither a quote nor a label. Empty when it is well sourced.
    static func problems(_ provenance: String, sources: (String) -> String? = sourceText) -> [String] {
        var found: [String] = []
        var source: String?
        var quotes = 0
        var rest = provenance[...]
        while let next = rest.firstIndex(where: { $0 == "[" || $0 == "\"" }) {
            if rest[next] == "[" {
                let after = rest[rest.index(after: next)...]
                if let close = after.firstIndex(of: "]"),
                    after[..<close].allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }), !after[..<close].isEmpty
                {
                    source = String(after[..<close])
                    rest = after[after.index(after: close)...]
                } else {
                    rest = after
                }
                continue
            }
            let after = rest[rest.index(after: next)...]
            guard let close = after.firstIndex(of: "\"") else {
                found.append("an unclosed quote in: \(provenance)")
                break
            }
            let quote = collapsed(String(after[..<close]))
            quotes += 1
            if let id = source {
                if let text = sources(id) {
                    if !text.contains(quote) { found.append("not in docs/sources/\(id).md: \"\(quote)\"") }
                } else {
                    found.append("no docs/sources/\(id).md (quoted: \"\(quote)\")")
                }
            } else {
                found.append("a quote with no [source] before it: \"\(quote)\"")
            }
            rest = after[after.index(after: close)...]
        }
        // a label opens the string, or (a SEMANTICS bullet) follows its subject: "`ios` missExit 0.2: assumption: …"
        let labelled = ["fitted:", "assumption:"].contains { provenance.hasPrefix($0) || provenance.contains(": " + $0) }
        if quotes == 0 && !labelled { found.append("neither a quote nor fitted:/assumption: \(provenance)") }
        return found
    }

    /// The checker itself, on hand-made sources: each case is found well sourced or not, as stated.
    @Test(
        "the provenance checker finds each kind of fault",
        arguments: [
            ("[s] \"within 30 seconds\"", true),
            ("[s] \"within 30\n   seconds\"", true),  // whitespace aside
            ("[s] \"within 3 to 5 minutes\"", false),  // not in the source
            ("[t] \"within 30 seconds\"", false),  // an unknown source
            ("\"within 30 seconds\"", false),  // no source named
            ("exits 60-70 m past the boundary", false),  // neither quoted nor labelled
            ("fitted: to FIDELITY row 6", true),
            ("assumption: 20 m; [s] \"nearly 1000 meters away\"", false),  // a labelled string's quote is checked too
            ("assumption: 20 m; [s] \"nearly every time\"", true),
        ])
    func checker(provenance: String, wellSourced: Bool) {
        let source = { (id: String) in id == "s" ? Self.collapsed("> nearly every time\n> within 30 seconds.") : nil }
        #expect(Self.problems(provenance, sources: source).isEmpty == wellSourced, "\(provenance)")
    }

    @Test("every built-in's provenance quotes its source or is labelled")
    func builtIns() {
        for (profile, provenance) in Profile.builtInProvenance {
            #expect(Self.problems(provenance).isEmpty, "\(profile): \(Self.problems(provenance))")
        }
    }

    /// SEMANTICS §8's bullets under its source headings.
    @Test("SEMANTICS §8's sources quote their sources or are labelled")
    func semantics() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/SEMANTICS.md"), encoding: .utf8)
        let start = try #require(text.range(of: "\n## 8. Profiles\n"))
        let end = text.range(of: "\n## ", range: start.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        let bullets = Self.bullets(String(text[start.upperBound..<end]), after: "**Sources")
        #expect(bullets.count >= 8)
        for bullet in bullets { #expect(Self.problems(bullet).isEmpty, "\(Self.problems(bullet))") }
    }

    @Test("each Fidelity row's published figure quotes its source or is labelled")
    func fidelity() throws {
        let folder = Self.root.appendingPathComponent("Fidelity")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.count >= 13)
        for file in files.sorted() {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let line = try #require(
                text.components(separatedBy: "\n").first { $0.hasPrefix("# published: ") }, "\(file)")
            let published = String(line.dropFirst("# published: ".count))
            #expect(Self.problems(published).isEmpty, "\(file): \(Self.problems(published))")
        }
    }

    /// The `- ` bullets (with their continuation lines) of the lists that follow a line starting `heading`.
    static func bullets(_ section: String, after heading: String) -> [String] {
        var bullets: [String] = []
        var inList = false
        var listed = 0  // bullets under the current heading
        for line in section.components(separatedBy: "\n") {
            if line.hasPrefix(heading) {
                inList = true
                listed = 0
            } else if inList && line.hasPrefix("- ") {
                bullets.append(String(line.dropFirst(2)))
                listed += 1
            } else if inList && line.hasPrefix("  ") && listed > 0 {
                bullets[bullets.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            } else if listed > 0 {
                inList = false  // a blank line or a paragraph ends the list; before it, the heading goes on
            }
        }
        return bullets
    }
}
