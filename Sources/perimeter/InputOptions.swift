import ArgumentParser
import ScenarioFormat

/// `--allow-inputs-outside`, for every command that loads a scenario: a scenario reads its tracks, fix
/// tables, region and profile files only inside its repository (`InputConfinement`) unless the person
/// running it allows more.
struct InputOptions: ParsableArguments {
    @Flag(
        name: .customLong("allow-inputs-outside"),
        help: """
            Let the scenario read files outside its repository (the nearest folder holding .git, else the folder \
            given, else its own): absolute paths, .. past it, links out of it, /proc, /dev, /sys.
            """)
    var allowInputsOutside = false

    /// The confinement asked for; `givenFolders`: the folders `check` or `validate` was given.
    func confinement(givenFolders: [String] = []) -> InputConfinement {
        InputConfinement(allowsOutside: allowInputsOutside, givenFolders: givenFolders)
    }
}
