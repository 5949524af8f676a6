import Documents
import Testing

/// Repeated warnings said once per kind (issue 42 item 8), by hand: a kind said more than five times is one
/// line at its first one's place, counting them and their files; the others keep their order.
@Suite struct WarningDigestTests {
    static func dropped(_ file: String) -> RepeatedWarning {
        RepeatedWarning(what: "duplicate-time points dropped", file: file, files: "tracks")
    }

    @Test func sixOfAKindBecomeOneLineAtTheFirst() {
        let warnings = ["start has no zone"] + (1...6).map { "t\($0 % 2).gpx:\($0): dropped" } + ["last"]
        let kinds: [RepeatedWarning?] = [nil] + (1...6).map { Self.dropped("t\($0 % 2).gpx") } + [nil]
        #expect(
            WarningDigest.summarised(warnings, kinds: kinds) == [
                "start has no zone",
                "6 duplicate-time points dropped in 2 tracks; first: t1.gpx:1: dropped; --all-warnings lists every one",
                "last",
            ])
    }

    @Test func fiveOfAKindAreListedWhole() {
        let warnings = (1...5).map { "t.gpx:\($0): dropped" }
        #expect(WarningDigest.summarised(warnings, kinds: warnings.map { _ in Self.dropped("t.gpx") }) == warnings)
    }

    @Test func oneFileIsNamedInTheSingular() {
        let warnings = (1...7).map { "t.gpx:\($0): dropped" }
        let summary = WarningDigest.summarised(warnings, kinds: warnings.map { _ in Self.dropped("t.gpx") })
        #expect(summary.count == 1)
        #expect(summary.first?.hasPrefix("7 duplicate-time points dropped in 1 track; first: t.gpx:1: dropped") == true)
    }

    @Test func kindsAreCountedApart() {
        let other = RepeatedWarning(what: "fix-table rows dropped", file: "f.csv", files: "fix tables")
        let warnings = (1...12).map { "w\($0)" }
        let kinds = (1...12).map { $0 % 2 == 0 ? Self.dropped("t.gpx") : other }
        let summary = WarningDigest.summarised(warnings, kinds: kinds)
        #expect(summary.count == 2)
        #expect(summary[0].hasPrefix("6 fix-table rows dropped in 1 fix table; first: w1;"))
        #expect(summary[1].hasPrefix("6 duplicate-time points dropped in 1 track; first: w2;"))
    }

    @Test func withoutAKindForEachTheWarningsAreAsTheyAre() {
        let warnings = (1...9).map { "w\($0)" }
        #expect(WarningDigest.summarised(warnings, kinds: []) == warnings)
    }
}
