// Reads a fleet's fix table (CSV and JSON Lines) on one thread and in pieces (one a core), and reports
// rows per second beside `wc -l` of the same file in the same run, the read in pieces beside the read on
// one thread, and the reader's peak memory beside the bytes of the fixes it keeps.
//   swift run -c release fix-table-benchmark [devices] [seconds]     (default 1,000 devices × 3,600 s)
//   fix-table-benchmark write DEVICES SECONDS FILE   the same fleet's table in FILE (.csv or .jsonl)
//   fix-table-benchmark read FILE                    FILE read once on one thread, inside `measured` for
//                                                    callgrind, then `measured: ROWS row`
import BenchmarkSupport
import FixTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let devices = arguments.first ?? 1000
let seconds = arguments.dropFirst().first ?? 3600
let mode = CommandLine.arguments.dropFirst().first.flatMap { ["write", "read"].contains($0) ? $0 : nil }
// The modes for callgrind (Scripts/check-thresholds.py): the table made natively, then read under it.
switch mode {
case "write":
    let path = CommandLine.arguments[4]
    guard let format = FixTableFormat(extensionOf: path) else { fatalError("name the file .csv or .jsonl: \(path)") }
    try write(format, to: path)
    exit(0)
case "read":
    let path = CommandLine.arguments[2]
    var rows = 0
    try measured { rows = try FixTableReader(path: path, pieces: 1).read().rows }
    reportMeasured(rows, "row")
    exit(0)
default:
    break
}
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fix-table-benchmark-\(getpid())").path
try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: folder) }

/// Rows ordered by time, devices interleaved, as a warehouse export sorted by timestamp gives them.
func write(_ format: FixTableFormat) throws -> String {
    let path = folder + "/fleet." + format.rawValue
    try write(format, to: path)
    return path
}

func write(_ format: FixTableFormat, to path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil) else { fatalError("cannot create \(path)") }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    var text = format == .csv ? "device,time,lat,lon,accuracy\n" : ""
    for second in 0..<seconds {
        for device in 0..<devices {
            let lat = 59.9 + Double(device % 100) * 0.001 + Double(second) * 0.000_01
            let lon = 30.3 + Double(device / 100) * 0.001 + Double(second) * 0.000_013
            let time = 1_714_554_000 + second
            switch format {
            case .csv: text += "van-\(device),\(time),\(lat),\(lon),\(5 + device % 20)\n"
            case .jsonLines:
                text +=
                    "{\"device\":\"van-\(device)\",\"time\":\(time),\"lat\":\(lat),\"lon\":\(lon),\"accuracy\":\(5 + device % 20)}\n"
            }
        }
        if text.utf8.count > 1 << 22 {
            handle.write(Data(text.utf8))
            text = ""
        }
    }
    handle.write(Data(text.utf8))
    try handle.close()
}

func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now()
    let value = try body()
    return (value, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
}

func wc(_ path: String) throws -> Double {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/wc")
    process.arguments = ["-l", path]
    process.standardOutput = FileHandle.nullDevice
    let (_, elapsed) = try timed {
        try process.run(); process.waitUntilExit()
    }
    return elapsed
}

print(
    "fix-table-benchmark: \(devices) devices × \(seconds) s = \(devices * seconds) rows, "
        + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
print("format     MB  one thread rows/s  ÷ wc -l  in pieces rows/s  ÷ wc -l  pieces ÷ one thread  kept fixes MB")
for format in FixTableFormat.allCases {
    let path = try write(format)
    let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    var best = Double.infinity, bestPieces = Double.infinity, bestWC = Double.infinity
    var kept = 0
    for _ in 0..<3 {
        let (table, elapsed) = try timed { try FixTableReader(path: path, format: format, pieces: 1).read() }
        precondition(table.rows == devices * seconds && table.devices.count == devices)
        kept = table.fixes.count * MemoryLayout<TableFix>.stride
        best = min(best, elapsed)
        let (split, elapsedPieces) = try timed { try FixTableReader(path: path, format: format).read() }
        precondition(split == table, "the read in pieces differs from the read on one thread")
        bestPieces = min(bestPieces, elapsedPieces)
        bestWC = min(bestWC, try wc(path))
    }
    let rows = Double(devices * seconds)
    print(
        format.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)
            + String(
                format: "%7.1f%19.0f%9.1f%18.0f%9.1f%21.2f%15.1f", Double(size) / 1e6, rows / best,
                best / bestWC, rows / bestPieces, bestPieces / bestWC, bestPieces / best, Double(kept) / 1e6))
    try FileManager.default.removeItem(atPath: path)
}
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
print(
    String(format: "peak resident memory of the whole process (two tables at once): %.0f MB", Double(usage.ru_maxrss) / 1024)
)
