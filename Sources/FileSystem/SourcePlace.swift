import TextEscaping

/// A place in a text file, for a message a person acts on: the file, and the 1-based line and column (0
/// where there is none: a missing file, a problem of the whole file). The one place of GPX, fix-table and
/// scenario errors (`GPXError`, `FixTableError`, `ScenarioError`), kept beside the file errors, which name
/// files too.
public struct SourcePlace: Hashable, Sendable, CustomStringConvertible {
    /// The file, as the reader was given it or resolved it.
    public var file: String
    /// 1-based; 0 when there is no place in the text.
    public var line: Int
    /// 1-based, in Unicode scalars or bytes as the reader counts them; 0 when unknown.
    public var column: Int

    public init(file: String, line: Int = 0, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `FILE:LINE:COLUMN`, or `FILE` when there is no place in the text, the file's name escaped
    /// (`TerminalText.visible`: a line end in it forges no line). O(the file name).
    public var description: String {
        let shown = TerminalText.visible(file)
        return line > 0 ? "\(shown):\(line):\(column)" : shown
    }
}
