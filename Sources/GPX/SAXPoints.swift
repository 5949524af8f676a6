import CLibXML2
import TextEscaping
import Time

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GPX element names the reader acts on, recognised from libxml2's interned local names.
enum Tag {
    case gpx, trk, trkseg, trkpt, rte, rtept, wpt, time, ele, extensions, other

    /// Classifies a NUL-terminated local name. O(length of the name).
    @inline(__always)
    init(_ name: UnsafePointer<xmlChar>) {
        switch name[0] {
        case UInt8(ascii: "t"):
            if strcmp(name, "trkpt") == 0 {
                self = .trkpt
            } else if strcmp(name, "time") == 0 {
                self = .time
            } else if strcmp(name, "trkseg") == 0 {
                self = .trkseg
            } else if strcmp(name, "trk") == 0 {
                self = .trk
            } else {
                self = .other
            }
        case UInt8(ascii: "e"):
            if strcmp(name, "ele") == 0 {
                self = .ele
            } else if strcmp(name, "extensions") == 0 {
                self = .extensions
            } else {
                self = .other
            }
        case UInt8(ascii: "r"):
            if strcmp(name, "rtept") == 0 {
                self = .rtept
            } else if strcmp(name, "rte") == 0 {
                self = .rte
            } else {
                self = .other
            }
        case UInt8(ascii: "w"): self = strcmp(name, "wpt") == 0 ? .wpt : .other
        case UInt8(ascii: "g"): self = strcmp(name, "gpx") == 0 ? .gpx : .other
        default: self = .other
        }
    }
}

private func strcmp(_ a: UnsafePointer<xmlChar>, _ b: StaticString) -> Int32 {
    // Compares a libxml2 name with a literal.
    a.withMemoryRebound(to: CChar.self, capacity: 1) { pa in
        b.withUTF8Buffer { bb in
            // C interop: a static string's UTF-8 buffer has an address.
            // swift-format-ignore: NeverForceUnwrap
            bb.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bb.count) { strcmp(pa, $0) }
        }
    }
}

extension SAXState {
    /// Starts a point: reads `lat` and `lon` (in any order) and numbers it among its kind.
    func beginPoint(_ kind: PointKind, _ attributeCount: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        let place = tagStart()
        let index = kind == .trackPoint ? 0 : kind == .routePoint ? 1 : 2
        let ordinal = ordinals[index]
        ordinals[index] += 1
        var latitude: Double?, longitude: Double?
        var latitudeText: String?, longitudeText: String?
        if let attributes {
            for i in 0..<attributeCount {
                // Five pointers per attribute: localname, prefix, URI, value start, value end.
                guard let name = attributes[5 * i], attributes[5 * i + 2] == nil,
                    let start = attributes[5 * i + 3], let end = attributes[5 * i + 4]
                else { continue }
                let value = UnsafeBufferPointer(start: start, count: end - start)
                if name[0] == UInt8(ascii: "l"), name[1] == UInt8(ascii: "a"), name[2] == UInt8(ascii: "t"), name[3] == 0 {
                    latitude = parseDecimal(value)
                    if latitude == nil { latitudeText = String(decoding: value, as: UTF8.self) }
                } else if name[0] == UInt8(ascii: "l"), name[1] == UInt8(ascii: "o"), name[2] == UInt8(ascii: "n"),
                    name[3] == 0
                {
                    longitude = parseDecimal(value)
                    if longitude == nil { longitudeText = String(decoding: value, as: UTF8.self) }
                }
            }
        }
        guard latitudeText == nil, longitudeText == nil, let latitude, let longitude else {
            return failPoint(kind, place, latitudeText, longitudeText, latitude == nil, longitude == nil)
        }
        point = PendingPoint(
            kind: kind, depth: depth, latitude: latitude, longitude: longitude, time: nil, elevation: nil,
            ordinal: ordinal, line: place.line, column: place.column)
    }

    /// Reports a point whose lat or lon is missing or not a number.
    private func failPoint(
        _ kind: PointKind, _ place: (line: Int, column: Int), _ latitudeText: String?, _ longitudeText: String?,
        _ latitudeMissing: Bool, _ longitudeMissing: Bool
    ) {
        let element = "<\(kind.rawValue)>"
        if let latitudeText {
            return fail(
                line: place.line, column: place.column,
                "\(element) has lat=\(TerminalText.excerpt(latitudeText)), which is not a number; lat must be decimal degrees."
            )
        }
        if let longitudeText {
            return fail(
                line: place.line, column: place.column,
                "\(element) has lon=\(TerminalText.excerpt(longitudeText)), which is not a number; lon must be decimal degrees."
            )
        }
        let missing =
            latitudeMissing && longitudeMissing
            ? "the lat and lon attributes" : latitudeMissing ? "the lat attribute" : "the lon attribute"
        fail(
            line: place.line, column: place.column,
            "\(element) is missing \(missing); every point needs lat and lon in decimal degrees.")
    }

    func beginField(_ which: Field) {
        // The end of the start tag: an error in the text is reported there (no backward scan per field).
        let place = currentPlace()
        field = which
        fieldLine = place.line
        fieldColumn = place.column
        textCount = 0
        textOverflow = false
    }

    /// Ends a `<time>` or `<ele>` of the current point: parses its text into the point.
    func endField() {
        let which = field
        field = .none
        switch which {
        case .time:
            guard !textOverflow, let time = timeCache.time(fieldText) else {
                let shown =
                    textOverflow
                    ? "text of more than \(SAXState.maximumFieldLength) bytes"
                    : TerminalText.excerpt(String(decoding: fieldText, as: UTF8.self))
                return fail(
                    line: fieldLine, column: fieldColumn,
                    "<time> holds \(shown), which is not an ISO 8601 time such as 2024-05-01T12:00:00Z.")
            }
            guard Timestamp.writable.contains(time) else {
                // "0000-01-01T00:00:00+01:00" is in year -1 in UTC: no log could show it.
                return fail(
                    line: fieldLine, column: fieldColumn,
                    """
                    <time> holds \(TerminalText.excerpt(String(decoding: fieldText, as: UTF8.self))), which is \
                    \(time < Timestamp.earliest ? "before 0000-01-01T00:00:00Z" : "after 9999-12-31T23:59:59.999999Z") \
                    in UTC, outside the years an ISO 8601 time can show.
                    """)
            }
            point?.time = time
        case .elevation:
            // A missing, empty or non-numeric <ele> is no elevation: it does not matter to the simulation.
            point?.elevation = textOverflow ? nil : parseDecimal(fieldText)
        case .none:
            break
        }
    }
}

/// Parses a decimal number (optional sign, digits, fraction, exponent) with surrounding XML whitespace.
/// Nil when not a number: `NaN`, `inf` and hex are not (GPX's coordinates are xsd:decimal). O(n).
///
/// The byte after `bytes` must not continue a number (libxml2's closing quote, or a NUL): strtod reads
/// the value in place.
func parseDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    if let exact = parseShortDecimal(bytes) { return exact }
    var start = 0, end = bytes.count
    @inline(__always) func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
    while start < end, isSpace(bytes[start]) { start += 1 }
    while end > start, isSpace(bytes[end - 1]) { end -= 1 }
    let count = end - start
    guard count > 0, count < 64 else { return nil }
    if let exact = parseShortDecimal(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return exact }
    // A decimal number (xsd:decimal, with an exponent allowed): not hex, not NaN, not inf/infinity.
    for i in start..<end {
        switch bytes[i] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            continue
        default: return nil
        }
    }
    // C interop: libxml2's attribute bytes are never null.
    // swift-format-ignore: NeverForceUnwrap
    let first = bytes.baseAddress! + start
    return first.withMemoryRebound(to: CChar.self, capacity: count) { text -> Double? in
        var stop: UnsafeMutablePointer<CChar>?
        let value = strtod(text, &stop)
        guard let stop, UnsafePointer(stop) == UnsafePointer(text) + count else { return nil }
        return value
    }
}

/// Clinger's fast path: `[-+]digits[.digits]` with at most 15 significant digits and 22 decimals is
/// an integer below 2^53 divided by an exact power of ten, so one IEEE division rounds it correctly.
/// Nil for anything else (strtod takes over). O(n).
@inline(__always)
private func parseShortDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard var p = bytes.baseAddress, !bytes.isEmpty else { return nil }
    let end = p + bytes.count
    var negative = false
    if p.pointee == UInt8(ascii: "-") { negative = true; p += 1 } else if p.pointee == UInt8(ascii: "+") { p += 1 }
    var mantissa: UInt64 = 0
    var digits = 0, decimals = 0
    var seenPoint = false, seenDigit = false
    while p < end {
        let d = p.pointee &- 48
        if d < 10 {
            seenDigit = true
            if seenPoint { decimals += 1 }
            if mantissa != 0 || d != 0 {
                digits += 1
                mantissa = mantissa &* 10 &+ UInt64(d)
            }
        } else if p.pointee == UInt8(ascii: "."), !seenPoint {
            seenPoint = true
        } else {
            return nil
        }
        p += 1
    }
    guard seenDigit, digits <= 15, decimals < 23 else { return nil }
    let value = Double(mantissa) / powersOfTen[decimals]
    return negative ? -value : value
}

private let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]
