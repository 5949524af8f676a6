import Documents
import Testing

/// The files a load reads (`ProblemLog.reads`, the golden log's record of its inputs): each kind and path
/// as written once, where it was first read, whatever log of a part noted it (issue 49, H6: kept in a set
/// beside the list, so that a fleet of 100,000 tracks is not a scan of the list per track).
@Suite struct ProblemLogInputsTests {
    static func input(_ kind: ScenarioInput.Kind, _ written: String) -> ScenarioInput {
        ScenarioInput(kind: kind, written: written, resolved: "/scenarios/" + written)
    }

    @Test func eachKindAndPathOnceInTheOrderFirstRead() {
        let log = ProblemLog()
        let part = ProblemLog(warningsTo: log)
        let reads = [
            Self.input(.track, "b.gpx"), Self.input(.regions, "zones.geojson"), Self.input(.track, "a.gpx"),
            Self.input(.track, "b.gpx"), Self.input(.table, "b.gpx"), Self.input(.profile, "ios.profile.yaml"),
            Self.input(.track, "a.gpx"), Self.input(.regions, "zones.geojson"),
        ]
        for (index, input) in reads.enumerated() { (index % 2 == 0 ? log : part).reads(input) }
        #expect(
            log.inputs == [
                Self.input(.track, "b.gpx"), Self.input(.regions, "zones.geojson"), Self.input(.track, "a.gpx"),
                Self.input(.table, "b.gpx"), Self.input(.profile, "ios.profile.yaml"),
            ])
        #expect(part.inputs.isEmpty)
    }

    @Test func theFirstReadOfAPathIsKeptWhereverItResolves() {
        let log = ProblemLog()
        log.reads(ScenarioInput(kind: .track, written: "t.gpx", resolved: "/one/t.gpx"))
        log.reads(ScenarioInput(kind: .track, written: "t.gpx", resolved: "/two/t.gpx"))
        #expect(log.inputs.map(\.resolved) == ["/one/t.gpx"])
    }
}
