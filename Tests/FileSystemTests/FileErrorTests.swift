import FileSystem
import SystemPackage
import Testing

/// One sentence per failure, naming the file and where the fix lies.
@Suite("File errors for people")
struct FileErrorTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let errno: Errno
        let path: String
        let action: String
        let sentence: String
        var testDescription: String { "\(errno.rawValue) \(action) \(path)" }
    }

    @Test(arguments: [
        Case(
            errno: .noSuchFileOrDirectory, path: "out/e.jsonl", action: "create",
            sentence: #"cannot create "out/e.jsonl": the directory "out" does not exist"#),
        Case(
            errno: .notDirectory, path: "a.txt/e.jsonl", action: "create",
            sentence: #"cannot create "a.txt/e.jsonl": a part of the path "a.txt" is not a directory"#),
        Case(
            errno: .permissionDenied, path: "/etc/e.csv", action: "create",
            sentence: #"cannot create "/etc/e.csv": permission denied (check that the directory "/etc" is writable)"#),
        Case(
            errno: .readOnlyFileSystem, path: "/mnt/e.csv", action: "write",
            sentence: #"cannot write "/mnt/e.csv": the file system is read-only"#),
        Case(errno: .noSpace, path: "-", action: "write", sentence: "cannot write standard output: the disk is full"),
        Case(
            errno: .diskQuotaExceeded, path: "e.csv", action: "write",
            sentence: #"cannot write "e.csv": the disk quota is exceeded"#),
        Case(
            errno: .isDirectory, path: "out", action: "write",
            sentence: #"cannot write "out": it is a directory; give a file name"#),
        Case(
            errno: .fileTooLarge, path: "out/e.geojson", action: "write",
            sentence:
                #"cannot write "out/e.geojson": the file has reached the file-size limit (ulimit -f, or the file system's largest file)"#
        ),
        Case(
            errno: .brokenPipe, path: "-", action: "write",
            sentence: "cannot write standard output: the reader closed the pipe"),
        Case(
            errno: .ioError, path: "e.csv", action: "replace",
            sentence: #"cannot replace "e.csv": input/output error (a failing disk or network file system)"#),
    ])
    func sentences(c: Case) {
        let error = FileError(c.errno, path: c.path, action: c.action)
        #expect(error.description == c.sentence)
        #expect(error.errno == c.errno)
    }
}
