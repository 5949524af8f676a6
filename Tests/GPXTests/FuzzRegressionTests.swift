import Foundation
import GPX
import Testing

/// Inputs the libFuzzer target `gpx-fuzz` (Fuzz/, Scripts/fuzz.sh gpx) found, each with the clean error it
/// must now give. Under Scripts/sanitizers.sh (AddressSanitizer) a leak here also fails the run.
@Suite("GPX fuzz findings")
struct FuzzRegressionTests {
    static func fuzz(_ name: String) -> String { Fixtures.root + "/fuzz/" + name }

    /// gpx-fuzz, leak-1f760a61… (the hostile billion-laughs.gpx as a seed): a DOCTYPE declaring an entity
    /// made libxml2 build a document for it in SAX mode (xmlNewDoc, xmlNewDtd, an entity table: 12.8 kB),
    /// which the reader never freed.
    @Test("an entity declaration is refused, and its libxml2 document is freed")
    func entityDeclarationDoesNotLeak() throws {
        let path = Self.fuzz("leak-entity-declaration.gpx")
        guard case .failure(let error) = loadResult(path) else {
            Issue.record("leak-entity-declaration.gpx loaded")
            return
        }
        #expect(error.line == 3)
        #expect(error.message.contains("declares the entity 'lol', which is refused"), "\(error.message)")

        // The leak itself: Scripts/sanitizers.sh runs this test under AddressSanitizer, whose LeakSanitizer
        // fails the run at exit if the document is not freed; so does `Scripts/fuzz.sh gpx` (seeded from here).
        for _ in 0..<100 { _ = loadResult(path) }
    }
}
