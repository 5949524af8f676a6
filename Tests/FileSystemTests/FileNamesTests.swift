import FileSystem
import Testing

@Suite("File names")
struct FileNamesTests {
    @Test("directory and last component", arguments: [
        ("out/e.jsonl", "out", "e.jsonl"), ("e.jsonl", ".", "e.jsonl"), ("/e.jsonl", "/", "e.jsonl"),
        ("/a/b/e.csv", "/a/b", "e.csv"),
    ])
    func parts(path: String, directory: String, last: String) {
        #expect(FileNames.directory(of: path) == directory)
        #expect(FileNames.lastComponent(of: path) == last)
    }

    @Test("in a folder: nothing folded", arguments: [
        ("e.jsonl", "/s", "/s/e.jsonl"), ("out/e.jsonl", "/s/", "/s/out/e.jsonl"), ("/abs/e.jsonl", "/s", "/abs/e.jsonl"),
        ("-", "/s", "-"), ("e.jsonl", nil, "e.jsonl"), ("e.jsonl", ".", "e.jsonl"), ("../e.jsonl", "s", "s/../e.jsonl"),
    ] as [(String, String?, String)])
    func inFolder(path: String, folder: String?, resolved: String) {
        #expect(FileNames.resolve(path, inFolder: folder) == resolved)
    }

    @Test("beside a file: . and .. folded", arguments: [
        ("../Tracks/a.gpx", "Scenarios/s.yaml", "Tracks/a.gpx"), ("a.gpx", "s.yaml", "a.gpx"),
        ("./a.gpx", "/x/s.yaml", "/x/a.gpx"), ("/abs/a.gpx", "Scenarios/s.yaml", "/abs/a.gpx"),
        ("../../a.gpx", "s.yaml", "../../a.gpx"), ("../a.gpx", "/s.yaml", "/a.gpx"),
    ])
    func besideFile(path: String, file: String, resolved: String) {
        #expect(FileNames.resolve(path, besideFile: file) == resolved)
    }
}
