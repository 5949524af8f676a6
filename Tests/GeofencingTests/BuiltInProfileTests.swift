import Geofencing
import Testing

/// Each named built-in (`Profile.ios`, …) is the row of its name in the built-in tables: the accessors
/// force-unwrap `builtIn(named:)`, so a name missing from the tables would stop the process here.
@Suite struct BuiltInProfileTests {
    static let accessors: [(name: String, profile: @Sendable () -> Profile)] = [
        ("ios", { .ios }), ("ios-gps", { .iosGPS }), ("ios-terminated", { .iosTerminated }),
        ("android", { .android }), ("android-background", { .androidBackground }),
        ("android-idle", { .androidIdle }), ("ideal", { .ideal }), ("ios-documented", { .iosDocumented }),
        ("android-documented", { .androidDocumented }),
        ("android-background-documented", { .androidBackgroundDocumented }),
    ]

    @Test("each named built-in is the table's row of that name")
    func accessorsReadTheirRows() throws {
        for (name, profile) in Self.accessors {
            let row = try #require(Profile.builtIn(named: name), "\(name)")
            #expect(profile().name == name)
            #expect(profile().settings == row.settings, "\(name)")
        }
    }

    @Test("every built-in has a named accessor")
    func everyBuiltInIsNamed() {
        #expect(Self.accessors.map(\.name) == Profile.builtInNames)
    }
}
