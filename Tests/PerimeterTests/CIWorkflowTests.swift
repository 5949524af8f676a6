import Foundation
import TestSupport
import Testing

/// README "Perimeter in your CI": `Scripts/package.sh` and the commands of `docs/ci/github-actions.yml`,
/// run as a CI job would run them, against an archive packed from the built binary.
@Suite("Perimeter in your CI")
struct CIWorkflowTests {
    static let workflow = PerimeterProcess.root.appendingPathComponent("docs/ci/github-actions.yml")
    static let script = PerimeterProcess.root.appendingPathComponent("Scripts/package.sh").path

    /// The lines of the README's first `sh` block in its section "Perimeter in your CI".
    static func readmeCommands() throws -> String {
        let readme = try String(contentsOf: PerimeterProcess.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "\n## Perimeter in your CI\n"))
        let open = try #require(readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex))
        let close = try #require(readme.range(of: "```\n", range: open.upperBound..<readme.endIndex))
        return String(readme[open.upperBound..<close.lowerBound])
    }

    /// The `run: |` block of the workflow's step `perimeter check`, unindented, and the step's settings.
    static func workflowStep() throws -> (commands: String, text: String) {
        let text = try String(contentsOf: workflow, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let step = try #require(lines.firstIndex(of: "      - name: perimeter check"))
        let run = try #require(lines[step...].firstIndex(of: "        run: |"))
        let body = lines[(run + 1)...].prefix { $0.hasPrefix("          ") }
        return (body.map { String($0.dropFirst(10)) + "\n" }.joined(), text)
    }

    /// `uname -m`: the architecture in an archive's name.
    static var machine: String {
        ((try? JUnitSchema.shell(["uname", "-m"]).output) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `perimeter --version` of the built binary.
    static func version() throws -> String {
        try PerimeterProcess.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `Scripts/package.sh` with `arguments`, through /usr/bin/env.
    static func package(_ arguments: [String]) throws -> PerimeterProcess.Result {
        try PerimeterProcess.run([script] + arguments, executable: "/usr/bin/env", prefix: ["bash"])
    }

    /// The folder where `package.sh` packed the built binary, once for the job cases, which each copy it.
    static let packed = Result<URL, any Error> {
        let folder = try PerimeterProcess.temporaryFolder()
        // The tests' binary loads the Swift runtime (a plain build); this machine has it.
        let result = try package([
            "--binary", PerimeterProcess.executable.path, "--output", folder.path, "--allow-swift-runtime",
        ])
        struct Failed: Error { let stderr: String }
        guard result.status == 0 else { throw Failed(stderr: result.stderr) }
        return folder
    }

    @Test("The workflow's commands are the README's, word for word, and its version is the binary's")
    func workflowIsTheReadme() throws {
        let (commands, text) = try Self.workflowStep()
        #expect(commands == (try Self.readmeCommands()))
        // --format github: each failure is also an annotation on the scenario's line (issue 56 item 3).
        #expect(commands.hasSuffix(" check \"$PERIMETER_SCENARIOS\" --format github --junit perimeter-junit.xml\n"))
        // The version and the folder are inputs, defaulting to the binary's version and Scenarios/.
        let version = try Self.version()
        #expect(
            text.contains(
                "\n      PERIMETER_VERSION: ${{ inputs.perimeter-version || vars.PERIMETER_VERSION || '\(version)' }}\n"))
        #expect(
            text.contains(
                "\n      PERIMETER_SCENARIOS: ${{ inputs.scenarios || vars.PERIMETER_SCENARIOS || 'Scenarios/' }}\n"))
        #expect(text.components(separatedBy: "        default: \"\(version)\"\n").count == 3)
        // The cache keeps the archive and its checksum per version.
        #expect(text.contains("          key: perimeter-${{ env.PERIMETER_VERSION }}-linux-x86_64\n"))
        // GitHub runs a `shell: bash` step as `bash --noprofile --norc -eo pipefail`, as the test below does.
        #expect(text.contains("        shell: bash\n        run: |\n"))
    }

    struct JobCase: Sendable, CustomTestStringConvertible {
        var id: String
        /// What happens to the published files or the checkout before the job runs.
        var prepare: @Sendable (_ published: URL, _ name: String, _ checkout: URL) throws -> Void
        var status: Int32
        /// Text the job's output must hold.
        var says: String
        /// Whether the job got as far as running perimeter (a JUnit report exists).
        var ranPerimeter: Bool
        /// `PERIMETER_SCENARIOS`.
        var scenarios = "Scenarios/"
        var testDescription: String { id }
    }

    static let jobCases: [JobCase] = [
        JobCase(
            id: "scenarios pass: exit 0, a valid JUnit report", prepare: { _, _, _ in },
            status: 0, says: "1 scenario: 1 passed", ranPerimeter: true),
        JobCase(
            id: "a behaviour change: exit 1 with the diff",
            prepare: { _, _, checkout in
                try RepositoryCopy.edit(
                    checkout.appendingPathComponent("Scenarios/lorrenzillos.yaml"),
                    RepositoryCopy.circleLine, RepositoryCopy.circleLine + "    hysteresis: 50\n")
            }, status: 1, says: "exit lorrenzillos phone: 12:05:00 → 12:04:48 (-12 s)", ranPerimeter: true),
        JobCase(
            id: "an archive changed after its checksum: stopped before anything runs",
            prepare: { published, name, _ in
                let archive = try FileHandle(forWritingTo: published.appendingPathComponent("\(name).tar.gz"))
                try archive.seekToEnd()
                try archive.write(contentsOf: Data([0]))
                try archive.close()
            }, status: 1, says: "tar.gz: FAILED", ranPerimeter: false),
        JobCase(
            id: "one scenario file as the input: exit 0", prepare: { _, _, _ in },
            status: 0, says: "1 scenario: 1 passed", ranPerimeter: true, scenarios: "Scenarios/lorrenzillos.yaml"),
        JobCase(
            id: "a cached archive: nothing fetched, its checksum still checked",
            prepare: { published, name, checkout in
                for file in ["\(name).tar.gz", "\(name).tar.gz.sha256"] {
                    try FileManager.default.moveItem(
                        at: published.appendingPathComponent(file), to: checkout.appendingPathComponent(file))
                }
            }, status: 0, says: "tar.gz: OK", ranPerimeter: true),
        JobCase(
            id: "a cached archive changed after its checksum: stopped before anything runs",
            prepare: { published, name, checkout in
                for file in ["\(name).tar.gz", "\(name).tar.gz.sha256"] {
                    try FileManager.default.moveItem(
                        at: published.appendingPathComponent(file), to: checkout.appendingPathComponent(file))
                }
                let archive = try FileHandle(forWritingTo: checkout.appendingPathComponent("\(name).tar.gz"))
                try archive.seekToEnd()
                try archive.write(contentsOf: Data([0]))
                try archive.close()
            }, status: 1, says: "tar.gz: FAILED", ranPerimeter: false),
        JobCase(
            id: "no archive published: curl fails, nothing runs",
            prepare: { published, name, _ in
                try FileManager.default.removeItem(at: published.appendingPathComponent("\(name).tar.gz"))
            }, status: 37, says: "curl", ranPerimeter: false),
    ]

    // The commands name the linux-x86_64 archive, which package.sh makes only on such a machine.
    @Test(
        "The README's commands, run as the workflow runs them, against an archive packed from the built binary",
        .enabled(if: machine == "x86_64"), arguments: jobCases)
    func job(_ c: JobCase) throws {
        let checkout = try RepositoryCopy.lorrenzillos()
        let published = try PerimeterProcess.temporaryFolder().appendingPathComponent("published")
        defer {
            try? FileManager.default.removeItem(at: checkout)
            try? FileManager.default.removeItem(at: published.deletingLastPathComponent())
        }
        try FileManager.default.copyItem(at: try Self.packed.get(), to: published)
        let version = try Self.version()
        let name = "perimeter-\(version)-linux-x86_64"
        try c.prepare(published, name, checkout)
        let job = try PerimeterProcess.run(
            [
                "PERIMETER_URL=file://\(published.path)", "PERIMETER_VERSION=\(version)",
                "PERIMETER_SCENARIOS=\(c.scenarios)",
                "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", try Self.workflowStep().commands,
            ],
            in: checkout, executable: "/usr/bin/env")
        #expect(job.status == c.status, "\(job.stdout)\(job.stderr)")
        #expect((job.stdout + job.stderr).contains(c.says), "\(job.stdout)\(job.stderr)")
        // A failed check is annotated at the scenario's file for the pull request.
        if c.status == 1 && c.ranPerimeter {
            #expect(job.stdout.contains("::error file=Scenarios/lorrenzillos.yaml"), "\(job.stdout)")
        }
        let junit = checkout.appendingPathComponent("perimeter-junit.xml")
        #expect(FileManager.default.fileExists(atPath: junit.path) == c.ranPerimeter)
        if c.ranPerimeter {
            let valid = try JUnitSchema.validate(junit.path)
            #expect(valid.valid, "\(valid.output)")
        }
    }

    @Test("package.sh packs the binary, the licence (when there is one) and a README; a second run gives the same bytes")
    func packageContents() throws {
        let out = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let arguments = ["--binary", PerimeterProcess.executable.path, "--output", out.path, "--allow-swift-runtime"]
        let first = try Self.package(arguments)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("loads the Swift runtime from the machine (libswiftCore.so and "), "\(first.stderr)")
        let name = "perimeter-\(try Self.version())-linux-\(Self.machine)"
        let archive = out.appendingPathComponent("\(name).tar.gz")
        #expect(first.stdout == archive.path + "\n")
        let licence = ["LICENSE", "LICENSE.md", "LICENSE.txt", "COPYING"].first {
            FileManager.default.fileExists(atPath: PerimeterProcess.root.appendingPathComponent($0).path)
        }
        if licence == nil { #expect(first.stderr.contains("the repository has no licence file (LICENSE)")) }
        let listing = try JUnitSchema.shell(["tar", "-tzf", archive.path])
        #expect(
            listing.output.split(separator: "\n").sorted()
                == (["\(name)/", "\(name)/README.md", "\(name)/perimeter"] + (licence.map { ["\(name)/\($0)"] } ?? []))
                .sorted())
        let check = try JUnitSchema.shell(["sh", "-c", "cd '\(out.path)' && sha256sum -c '\(name).tar.gz.sha256'"])
        #expect(check.status == 0, "\(check.output)")
        let bytes = try Data(contentsOf: archive)
        let readme = try JUnitSchema.shell(["tar", "-xzOf", archive.path, "\(name)/README.md"])
        #expect(readme.output.contains("runs only where the same Swift is installed"), "\(readme.output)")
        #expect(
            readme.output.range(of: #"It needs glibc 2\.[0-9]+ or later\."#, options: .regularExpression) != nil,
            "\(readme.output)")
        let again = try Self.package(arguments)
        #expect(again.status == 0)
        #expect(try Data(contentsOf: archive) == bytes)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == [
                "\(name).tar.gz", "\(name).tar.gz.sha256",
            ])
    }

    @Test(
        "package.sh fails with a sentence saying what to do, and leaves nothing behind",
        arguments: [
            (["--binary", "/nonexistent/perimeter"], "/nonexistent/perimeter: no such file; build it"),
            (["--binary", "/bin/true"], "/bin/true --version said 'true (GNU coreutils) "),
            (["--binary", "/bin/false"], "/bin/false --version failed; is it a perimeter executable?"),
            (
                ["--frobnicate"],
                "unknown argument '--frobnicate'; usage: Scripts/package.sh [--binary PATH] [--output FOLDER] [--allow-swift-runtime]"
            ),
            (
                ["--binary", PerimeterProcess.executable.path],
                "\(PerimeterProcess.executable.path) loads the Swift runtime from the machine (libswiftCore.so and "
            ),
            (["--binary"], "--binary needs the path of a perimeter executable"),
        ])
    func packageFails(_ arguments: [String], _ says: String) throws {
        let out = try PerimeterProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try Self.package(["--output", out.path] + arguments)
        #expect(result.status == 1)
        #expect(result.stderr.contains("package.sh: " + says), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }
}
