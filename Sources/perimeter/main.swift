import ArgumentParser

/// `perimeter`: replays GPX tracks through phone-like geofence monitors. One command per verb;
/// each only wires the library modules together.
struct Perimeter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perimeter",
        abstract: "Replays location tracks through geofence monitors that behave like a phone's.",
        discussion: """
        Exit codes: 0 success; 1 a check failed; 2 bad input (the message names the file and the place); \
        3 a sink could not deliver.
        """,
        version: "0.1.0",
        subcommands: [Run.self, Check.self, Validate.self, Inspect.self, Track.self, Deliver.self]
    )
}

Perimeter.main()
