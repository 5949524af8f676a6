import FileSystem

/// Where a scenario's inputs (tracks, fix tables, region files, profile files and their bases) may come
/// from. A scenario file is data, often someone else's (a pull request), so it reads only files inside
/// its root (`FileCheck.inputRoot`): the nearest folder holding `.git` from the scenario's folder up,
/// else the folder given to `check` or `validate` that holds it, else its own folder. An absolute path,
/// a path under `/proc`, `/dev` or `/sys`, and a path whose `..` or links lead out of the root are refused
/// at their key (exit 2), unless the person running it passes `--allow-inputs-outside`. Files given on
/// the command line (`--profile FILE`) are the operator's and are not confined.
///
/// Every command that loads a scenario confines it; the library's default is `anywhere` (a program that
/// loads a scenario it wrote itself), so a caller running someone else's scenario passes `InputConfinement()`.
public struct InputConfinement: Sendable {
    /// Whether a scenario may read any file (`--allow-inputs-outside`).
    public var allowsOutside: Bool
    /// The folders given to `check` or `validate`: a scenario under one, in no repository, is confined to it.
    public var givenFolders: [String]
    /// Whether the rows of a fix table that have a problem are skipped, counted in a warning, as each
    /// fix-table entry's `skip: invalid` does (`--skip-invalid`): how the inputs are read, beside where from.
    public var skipsInvalidRows = false

    /// The flag that lifts the confinement, as messages and `--help` name it.
    public static let flag = "--allow-inputs-outside"

    public init(allowsOutside: Bool = false, givenFolders: [String] = []) {
        self.allowsOutside = allowsOutside
        self.givenFolders = givenFolders.filter(FileCheck.isDirectory)
    }

    /// No confinement: the library's default, and `--allow-inputs-outside`.
    public static let anywhere = InputConfinement(allowsOutside: true)

    /// The real folder the inputs of the scenario at `file` are confined to, or nil when they are not.
    public func root(of file: String) -> String? {
        guard !allowsOutside else { return nil }
        let roots = givenFolders.compactMap { FileCheck.inputRoot(of: file, given: $0) }
        return roots.min { $0.count < $1.count } ?? FileCheck.inputRoot(of: file)
    }
}
