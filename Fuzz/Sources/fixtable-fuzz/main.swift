// libFuzzer target: FixTableReader must never crash or hang on any bytes, as CSV or as JSON Lines; errors
// are fine. What it reads must hold together: every kept fix belongs to one device, in file order, at a
// time and place SEMANTICS §1 allows.
import FixTables
import Foundation
import FuzzSupport
import Time

let folder = scratchFolder("fixtable-fuzz")
let paths = [folder + "/input.csv", folder + "/input.jsonl"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    for path in paths {
        writeInput(data, size, to: path)
        do {
            let table = try FixTableReader(path: path).read()
            guard table.ranges.count == table.devices.count, Set(table.devices).count == table.devices.count,
                table.fixes.count + table.dropped == table.rows
            else {
                fatalError(
                    "\(path): \(table.rows) rows, \(table.fixes.count) kept, \(table.dropped) dropped, devices \(table.devices.count), ranges \(table.ranges.count)"
                )
            }
            var covered = 0
            for (index, range) in table.ranges.enumerated() {
                guard range.lowerBound == covered else { fatalError("ranges not contiguous at device \(index)") }
                covered = range.upperBound
                let fixes = table.fixes(ofDevice: index)
                for (a, b) in zip(fixes, fixes.dropFirst()) where !(a.time < b.time && a.line < b.line) {
                    fatalError(
                        "device \(table.devices[index]): fix at line \(b.line) not after line \(a.line) in time and file order"
                    )
                }
                for fix in fixes
                where
                    !(Timestamp.writable.contains(fix.time) && (-90...90).contains(fix.latitude)
                    && (-180...180).contains(fix.longitude) && (fix.accuracy ?? 0) >= 0)
                {
                    fatalError("a kept fix out of range at line \(fix.line)")
                }
            }
            guard covered == table.fixes.count else { fatalError("ranges do not cover the fixes") }
        } catch {
            _ = error.description
        }
    }
    return 0
}

runLibFuzzer(fuzz)
