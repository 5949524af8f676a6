import Documents
import Foundation
import Geofencing
import ScenarioFormat
import TestSupport
import Testing
import Time

/// What a valid profile file must resolve to: its name, the bases below it, the settings, and the line
/// each field it sets came from.
struct ValidProfileCase: Sendable, CustomTestStringConvertible {
    var fixture: String
    var name: String
    var bases: [String]
    var source: String?
    var settings: MonitorSettings
    /// Field → the file (relative to `profiles/valid/`) and line its value came from.
    var lines: [String: (file: String, line: Int)]
    /// A fitted file's intervals, by parameter (issue 42: `profile show` prints them).
    var intervals: [String: ClosedRange<Double>] = [:]
    var testDescription: String { fixture }
}

private func builtIn(_ name: String, changing change: (inout MonitorSettings) -> Void) -> MonitorSettings {
    var settings = Profile.builtIn(named: name)!.settings
    change(&settings)
    return settings
}

private let validCases: [ValidProfileCase] = [
    ValidProfileCase(
        fixture: "pixel-8.profile.yaml", name: "pixel-8", bases: ["android-documented"], source: "Our field walk, 2026-10",
        settings: builtIn("android-documented") {
            $0.hysteresis = 30; $0.confirmation = .seconds(10); $0.enterConfidence = 0.7
        },
        lines: [
            "hysteresis": ("pixel-8.profile.yaml", 5), "confirmation": ("pixel-8.profile.yaml", 6),
            "enterConfidence": ("pixel-8.profile.yaml", 7),
        ]),
    ValidProfileCase(
        fixture: "night-walk.profile.yaml", name: "night-walk", bases: ["pixel-8.profile.yaml", "android-documented"],
        source: nil,
        settings: builtIn("android-documented") {
            $0.hysteresis = 30; $0.confirmation = .seconds(10); $0.enterConfidence = 0.7; $0.accuracy = 8
        },
        lines: ["accuracy": ("night-walk.profile.yaml", 2), "hysteresis": ("pixel-8.profile.yaml", 5)]),
    ValidProfileCase(
        fixture: "every-field.profile.yml", name: "every-field", bases: ["ios-documented"], source: nil,
        settings: MonitorSettings(
            capacity: nil, selection: .static, refreshDistance: 1500, hysteresis: 50,
            enterBuffer: 10, confirmation: TimeSpan(microseconds: 250_000),
            initialTrigger: .enter, accuracy: 12, enterConfidence: 0.9, exitConfidence: 0.1,
            interval: .seconds(120)),
        lines: ["capacity": ("every-field.profile.yml", 2), "interval": ("every-field.profile.yml", 12)]),
    ValidProfileCase(
        fixture: "subfolder-base.profile.yaml", name: "through a folder",
        bases: ["pixel-8.profile.yaml", "android-documented"],
        source: nil,
        settings: builtIn("android-documented") {
            $0.hysteresis = 30; $0.confirmation = .seconds(10); $0.enterConfidence = 0.7
        },
        lines: ["hysteresis": ("pixel-8.profile.yaml", 5)]),
    ValidProfileCase(
        fixture: "fitted.profile.yaml", name: "fitted", bases: ["ios-gps"],
        source: "perimeter calibrate study.yaml on observed.jsonl",
        settings: builtIn("ios-gps") {
            $0.hysteresis = 90; $0.missExit = 0.13; $0.delivery = Delivery(median: .seconds(5), p90: .seconds(20))
        },
        lines: ["hysteresis": ("fitted.profile.yaml", 5), "delivery": ("fitted.profile.yaml", 7)],
        intervals: ["hysteresis": 76.25...98.75, "missExit": 0.085...0.175, "delivery.median": 3.5...5.5]),
    // Setting hysteresis again drops the base's interval of it; the others stay.
    ValidProfileCase(
        fixture: "refitted.profile.yaml", name: "refitted", bases: ["fitted.profile.yaml", "ios-gps"], source: nil,
        settings: builtIn("ios-gps") {
            $0.hysteresis = 80; $0.missExit = 0.13; $0.delivery = Delivery(median: .seconds(5), p90: .seconds(20))
        },
        lines: ["hysteresis": ("refitted.profile.yaml", 2), "missExit": ("fitted.profile.yaml", 6)],
        intervals: ["missExit": 0.085...0.175, "delivery.median": 3.5...5.5]),
]

/// Invalid profile files: each with the file, key path, line and message of its one error.
private let invalidCases: [InvalidCase] = [
    InvalidCase(
        fixture: "unknown-key.profile.yaml", keyPath: "hysterisis", line: 2,
        message:
            "unknown key \"hysterisis\"; did you mean \"hysteresis\"? The keys allowed here are: name, base, source, capacity"
    ),
    InvalidCase(
        fixture: "missing-unit.profile.yaml", keyPath: "hysteresis", line: 3,
        message: "missing unit: expected a distance with its unit, such as \"30m\" or \"30km\", got \"30\""),
    InvalidCase(
        fixture: "missing-duration-unit.profile.yaml", keyPath: "confirmation", line: 2,
        message: "missing unit: expected a duration with its unit, such as \"10s\""),
    InvalidCase(
        fixture: "probability-out-of-range.profile.yaml", keyPath: "enterConfidence", line: 2,
        message: "expected an enter confidence, a share from 0 to 1"),
    InvalidCase(
        fixture: "zero-capacity.profile.yaml", keyPath: "capacity", line: 2,
        message: "an integer of 1 or more, or \"unlimited\", got \"0\""),
    InvalidCase(
        fixture: "missing-base.profile.yaml", keyPath: "base", line: 1,
        message:
            "missing; expected a built-in profile (ios, ios-gps, ios-terminated, android, android-background, android-idle, ideal, ios-documented"
    ),
    InvalidCase(
        fixture: "unknown-base.profile.yaml", keyPath: "base", line: 1,
        message:
            "unknown profile \"andriod\"; did you mean \"android\"? The built-in profiles are ios, ios-gps, ios-terminated, android"
    ),
    InvalidCase(
        fixture: "base-not-found.profile.yaml", keyPath: "base", line: 2,
        message: "the profile file cannot be read: no such file: "),
    InvalidCase(
        fixture: "self-base.profile.yaml", keyPath: "base", line: 1,
        message: "the profile file names itself as its base"),
    InvalidCase(
        fixture: "cycle-a.profile.yaml", keyPath: "base", line: 2,
        message: "the bases form a cycle: ", file: "invalid/cycle-b.profile.yaml"),
    InvalidCase(
        fixture: "bad-base-file.profile.yaml", keyPath: "hysterisis", line: 2,
        message: "did you mean \"hysteresis\"?", file: "invalid/unknown-key.profile.yaml"),
    InvalidCase(
        fixture: "bad-interval-name.profile.yaml", keyPath: "intervals.hysterisis", line: 3,
        message: "unknown key \"hysterisis\"; did you mean \"hysteresis\"?"),
    InvalidCase(
        fixture: "bad-interval-order.profile.yaml", keyPath: "intervals.missExit", line: 3,
        message: "the interval's low end 0.3 is above its high end 0.1"),
    InvalidCase(
        fixture: "bad-interval-ends.profile.yaml", keyPath: "intervals.missExit", line: 3,
        message: "expected an interval [low, high]: two numbers in missExit's unit, got"),
    InvalidCase(
        fixture: "not-a-mapping.profile.yaml", keyPath: "", line: 1,
        message: "expected a profile: a mapping of base, name, source and monitor settings, got a list"),
    InvalidCase(
        fixture: "scenario-bad-profile-file.yaml", keyPath: "hysteresis", line: 3,
        message: "missing unit", file: "invalid/missing-unit.profile.yaml"),
    InvalidCase(
        fixture: "nowhere.profile.yaml", keyPath: "", line: 0,
        message:
            "no built-in profile of that name (ios, ios-gps, ios-terminated, android, android-background, android-idle, ideal, ios-documented, android-documented, android-background-documented), and no such file: "
    ),
]

private func profile(_ path: String) -> Result<Profile, ScenarioErrors> {
    Result { () throws(ScenarioErrors) in try ProfileFile.resolve(fixture("profiles/" + path)) }
}

@Suite("Profile files")
struct ProfileFileTests {
    @Test(
        "A valid profile file resolves to its base with its fields replaced, each field's origin its line",
        arguments: validCases)
    func valid(_ c: ValidProfileCase) throws {
        let loaded = try profile("valid/" + c.fixture).get()
        #expect(loaded.name == c.name)
        #expect(loaded.file == fixture("profiles/valid/" + c.fixture))
        #expect(loaded.bases.map { ($0 as NSString).lastPathComponent } == c.bases)
        #expect(loaded.source == c.source)
        #expect(loaded.settings == c.settings)
        #expect(loaded.intervals == c.intervals)
        for (field, (file, line)) in c.lines {
            #expect(loaded.origins[field] == .file(path: fixture("profiles/valid/" + file), line: line), "\(field)")
        }
        let base = Profile.builtIn(named: c.bases.last!)!
        for field in base.settings.fieldNames where c.lines[field] == nil && loaded.origins[field]?.isFile == false {
            #expect(loaded.origins[field] == base.origins[field], "\(field)")
        }
    }

    @Test("profile show prints a fitted value's interval beside it, in its unit (none for a share)")
    func intervalsShown() throws {
        let fields = try profile("valid/fitted.profile.yaml").get().fields
        let shown = Dictionary(uniqueKeysWithValues: fields.compactMap { f in f.interval.map { (f.name, $0) } })
        #expect(shown == ["hysteresis": "76.25 – 98.75 m", "missExit": "0.085 – 0.175", "delivery": "median 3.5 – 5.5 s"])
    }

    @Test("An invalid profile file is refused at its file, key path and line", arguments: invalidCases)
    func invalid(_ c: InvalidCase) {
        let errors: [ScenarioError]
        if c.fixture.hasSuffix(".profile.yaml") {
            guard case let .failure(failure) = profile("invalid/" + c.fixture) else {
                Issue.record("\(c.fixture) was accepted")
                return
            }
            errors = failure.errors
        } else {
            errors = loadErrors(fixture("profiles/invalid/" + c.fixture))
        }
        #expect(errors.count == 1, "\(errors.map(\.description))")
        guard let error = errors.first else { return }
        #expect(error.keyPath == c.keyPath)
        #expect(error.file.hasSuffix(c.file ?? "invalid/" + c.fixture), "\(error.file)")
        #expect(error.line == c.line)
        #expect(error.message.contains(c.message), "\(error.message)")
    }

    @Test("A scenario's profile: names a profile file beside it; its monitor: applies on top")
    func scenarioWithProfileFile() throws {
        let scenario = try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture("profiles/valid/scenario.yaml"))
        let simulation = scenario.simulation
        #expect(simulation.profile.name == "pixel-8")
        #expect(simulation.profile.settings.hysteresis == 30)
        #expect(simulation.settings.confirmation == .seconds(5))
        #expect(simulation.settings.enterConfidence == 0.7)
        #expect(scenario.inputs.map(\.kind) == [.profile, .track], "\(scenario.inputs)")
        #expect(scenario.inputs.first?.written == "pixel-8.profile.yaml")
    }

    @Test("Each profile file of a chain is an input, written relative to the scenario's folder")
    func chainedInputs() throws {
        let scenario = try ScenarioLoader(trackLoader: fakeTracks).load(path: fixture("profiles/scenarios/chained.yaml"))
        #expect(scenario.simulation.profile.name == "night-walk")
        #expect(scenario.simulation.settings.accuracy == 8 && scenario.simulation.settings.hysteresis == 30)
        #expect(
            scenario.inputs.map { "\($0.kind) \($0.written)" } == [
                "profile ../valid/night-walk.profile.yaml", "profile ../valid/pixel-8.profile.yaml",
                "track ../../tracks/walk.gpx",
            ])
    }

    /// G12: a chain of `count` profile files, each based on the next (`p1` on `p2`, …, the last on
    /// `android`); a chain of about 2,200 used to exhaust the stack (SIGSEGV).
    static func chain(of count: Int) throws -> String {
        let folder = try TemporaryFolders.make("profile-chain")
        for n in 1...count {
            let base = n == count ? "android" : "p\(n + 1).profile.yaml"
            try "base: \(base)\nhysteresis: \(n)m\n".write(
                to: folder.appendingPathComponent("p\(n).profile.yaml"), atomically: true, encoding: .utf8)
        }
        return folder.appendingPathComponent("p1.profile.yaml").path
    }

    @Test(
        "A chain of bases is read up to 32 files deep and refused deeper, naming the chain",
        arguments: [1, 32, 33, 40, 2200])
    func chainDepth(_ count: Int) throws {
        let first = try Self.chain(of: count)
        let folder = (first as NSString).deletingLastPathComponent
        switch Result(catching: { () throws(ScenarioErrors) in try ProfileFile.resolve(first) }) {
        case let .success(profile):
            #expect(count <= ProfileFile.maxChainLength)
            #expect(profile.bases.count == count, "every file and the built-in")
            #expect(profile.settings.hysteresis == 1, "the first file's value wins")
        case let .failure(failure):
            #expect(count > ProfileFile.maxChainLength)
            #expect(failure.errors.count == 1, "\(failure.errors.map(\.description))")
            let error = try #require(failure.errors.first)
            #expect(error.file == folder + "/p32.profile.yaml" && error.keyPath == "base" && error.line == 1)
            let shown =
                ["p1", "p2", "p3"].map { folder + "/\($0).profile.yaml" }.joined(separator: " → ")
                + " → … (27 more) … → "
                + ["p31", "p32", "p33"].map { folder + "/\($0).profile.yaml" }.joined(separator: " → ")
            #expect(
                error.message
                    == "the bases form a chain of more than 32 profile files: \(shown); base one of the first files on a built-in profile instead"
            )
        }
    }

    @Test(
        "The -documented built-ins keep revision 2's documented values (SEMANTICS §8, written out here); the fitted ones differ"
    )
    func documented() {
        let revision2: [String: MonitorSettings] = [
            "ios": MonitorSettings(
                capacity: 20, selection: .nearest, refreshDistance: 500, hysteresis: 200, enterBuffer: 0,
                confirmation: .seconds(20), initialTrigger: .none),
            "android": MonitorSettings(
                capacity: 100, selection: .nearest, refreshDistance: 500, hysteresis: 0, enterBuffer: 0,
                confirmation: .zero, initialTrigger: .enter, accuracy: 20, enterConfidence: 0.85,
                exitConfidence: 0.15),
            "android-background": MonitorSettings(
                capacity: 100, selection: .nearest, refreshDistance: 500, hysteresis: 0,
                enterBuffer: 0, confirmation: .zero, initialTrigger: .enter, accuracy: 20,
                enterConfidence: 0.85, exitConfidence: 0.15, interval: .seconds(120)),
        ]
        for (name, settings) in revision2 {
            #expect(Profile.builtIn(named: name + "-documented")?.settings == settings, "\(name)")
            #expect(Profile.builtIn(named: name)?.settings != settings, "\(name) is fitted")
        }
        #expect(
            Profile.builtInNames == [
                "ios", "ios-gps", "ios-terminated", "android", "android-background", "android-idle", "ideal",
                "ios-documented", "android-documented", "android-background-documented",
            ])
        // each built-in models one app state, and says which
        #expect(Profile.builtIns.allSatisfy { !($0.appState ?? "").isEmpty })
        for profile in Profile.builtIns {
            #expect(profile.fields.allSatisfy { $0.origin != nil }, "\(profile.name)")
        }
    }
}

private func loadErrors(_ path: String) -> [ScenarioError] {
    do {
        _ = try ScenarioLoader.load(path: path)
        return []
    } catch {
        return error.errors
    }
}

extension MonitorSettings {
    fileprivate var fieldNames: [String] { Mirror(reflecting: self).children.compactMap(\.label) }
}

extension ProfileOrigin {
    fileprivate var isFile: Bool {
        if case .file = self { return true }
        return false
    }
}
