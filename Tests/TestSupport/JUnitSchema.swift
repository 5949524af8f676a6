import Foundation

/// The Ant JUnit schema, against which `perimeter check --junit` reports are validated.
public enum JUnitSchema {
    /// The schema file (Tests/RegressionTests/Fixtures/junit-ant.xsd).
    public static let schema = PerimeterProcess.root.appendingPathComponent("Tests/RegressionTests/Fixtures/junit-ant.xsd")
        .path

    /// Validates a JUnit report against the Ant JUnit schema in Fixtures with `xmllint --schema`, or, where
    /// xmllint is not installed, checks the same structure with python3's `xml.etree`.
    public static func validate(_ path: String) throws -> (valid: Bool, output: String) {
        if hasXmllint {
            let result = try shell(["xmllint", "--noout", "--schema", schema, path])
            return (result.status == 0, result.output)
        }
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            assert root.tag == "testsuite", root.tag
            for a in ("name", "timestamp", "hostname", "tests", "failures", "errors", "time"): assert a in root.attrib, a
            kids = [c.tag for c in root]
            assert kids[0] == "properties" and kids[-2:] == ["system-out", "system-err"], kids
            cases = root.findall("testcase")
            assert set(kids[1:-2]) <= {"testcase"}, kids
            assert int(root.get("tests")) == len(cases)
            assert int(root.get("failures")) == sum(1 for c in cases if c.find("failure") is not None)
            assert int(root.get("errors")) == sum(1 for c in cases if c.find("error") is not None)
            for c in cases:
                for a in ("name", "classname", "time"): assert a in c.attrib, a
                float(c.get("time"))
                assert len(list(c)) <= 1 and all(o.tag in ("failure", "error") and "type" in o.attrib for o in c)
            """
        let result = try shell(["python3", "-c", script, path])
        return (result.status == 0, result.output)
    }

    /// Runs a command through `/usr/bin/env`, returning its exit status and its output (standard output and
    /// standard error together).
    public static func shell(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Whether xmllint is installed.
    public static var hasXmllint: Bool { (try? shell(["sh", "-c", "command -v xmllint"]).status) == 0 }
}
