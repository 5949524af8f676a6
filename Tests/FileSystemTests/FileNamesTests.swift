import FileSystem
import Testing

@Suite("File names")
struct FileNamesTests {
    @Test(
        "directory and last component",
        arguments: [
            ("out/e.jsonl", "out", "e.jsonl"), ("e.jsonl", ".", "e.jsonl"), ("/e.jsonl", "/", "e.jsonl"),
            ("/a/b/e.csv", "/a/b", "e.csv"),
        ])
    func parts(path: String, directory: String, last: String) {
        #expect(FileNames.directory(of: path) == directory)
        #expect(FileNames.lastComponent(of: path) == last)
    }

    @Test(
        "in a folder: nothing folded",
        arguments: [
            ("e.jsonl", "/s", "/s/e.jsonl"), ("out/e.jsonl", "/s/", "/s/out/e.jsonl"),
            ("/abs/e.jsonl", "/s", "/abs/e.jsonl"),
            ("-", "/s", "-"), ("e.jsonl", nil, "e.jsonl"), ("e.jsonl", ".", "e.jsonl"), ("../e.jsonl", "s", "s/../e.jsonl"),
        ] as [(String, String?, String)])
    func inFolder(path: String, folder: String?, resolved: String) {
        #expect(FileNames.resolve(path, inFolder: folder) == resolved)
    }

    @Test(
        "beside a file: . and .. folded",
        arguments: [
            ("../Tracks/a.gpx", "Scenarios/s.yaml", "Tracks/a.gpx"), ("a.gpx", "s.yaml", "a.gpx"),
            ("./a.gpx", "/x/s.yaml", "/x/a.gpx"), ("/abs/a.gpx", "Scenarios/s.yaml", "/abs/a.gpx"),
            ("../../a.gpx", "s.yaml", "../../a.gpx"), ("../a.gpx", "/s.yaml", "/a.gpx"),
        ])
    func besideFile(path: String, file: String, resolved: String) {
        #expect(FileNames.resolve(path, besideFile: file) == resolved)
    }

    @Test(
        "marked before the extension: the name of a file kept beside its target",
        arguments: [
            ("out/e.jsonl", 1, "out/e.interrupted.jsonl"), ("e.jsonl", 2, "e.interrupted-2.jsonl"),
            ("/a.b/events", 1, "/a.b/events.interrupted"), (".hidden", 3, ".hidden.interrupted-3"),
            ("e.tar.gz", 1, "e.tar.interrupted.gz"),
        ])
    func marked(path: String, number: Int, marked: String) {
        #expect(FileNames.marked(path, "interrupted", number: number) == marked)
    }
}
