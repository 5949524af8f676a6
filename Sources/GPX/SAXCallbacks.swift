import CLibXML2
import Geodesy

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The SAX2 callbacks: C functions that find their `SAXState` in libxml2's user data.
/// Each is O(length of what it is handed).
extension SAXState {
    nonisolated(unsafe) static let handler: xmlSAXHandler = {
        var h = xmlSAXHandler()
        h.initialized = perimeter_sax2_magic
        h.startElementNs = { ctx, localname, _, uri, _, _, attributeCount, _, attributes in
            // C interop: libxml2 always passes an element's local name.
            // swift-format-ignore: NeverForceUnwrap
            SAXState.with(ctx) { $0.startElement(localname!, uri, Int(attributeCount), attributes) }
        }
        h.endElementNs = { ctx, _, _, _ in SAXState.with(ctx) { $0.endElement() } }
        h.characters = { ctx, bytes, count in SAXState.with(ctx) { $0.characters(bytes, Int(count)) } }
        // The same function for blanks spares libxml2 its areBlanks() test on every run of whitespace.
        h.ignorableWhitespace = h.characters
        h.cdataBlock = h.characters
        h.serror = { ctx, error in
            guard let ctx, let error else { return }
            SAXState.from(ctx).libxmlError(error.pointee)
        }
        h.internalSubset = { ctx, name, externalID, systemID in
            guard externalID != nil || systemID != nil else { return }
            let state = SAXState.from(ctx)
            let place = state.tagStart()
            state.fail(
                line: place.line, column: place.column,
                "the DOCTYPE refers to an external DTD, which is refused: GPX needs no DTD; remove the <!DOCTYPE ...> line.")
        }
        h.entityDecl = { ctx, name, _, _, _, _ in
            let state = SAXState.from(ctx)
            let entity = name.map { String(cString: $0) } ?? "?"
            let place = state.currentPlace()
            state.fail(
                line: place.line, column: place.column,
                "the DTD declares the entity '\(entity)', which is refused: GPX needs no entities; remove the <!DOCTYPE ...> block."
            )
        }
        h.getEntity = { _, _ in nil }
        h.getParameterEntity = { _, _ in nil }
        return h
    }()

    @inline(__always)
    static func from(_ ctx: UnsafeMutableRawPointer?) -> SAXState {
        // C interop: libxml2 passes back the user data given, never null.
        // swift-format-ignore: NeverForceUnwrap
        Unmanaged<SAXState>.fromOpaque(ctx!).takeUnretainedValue()
    }

    /// Calls `body` with the state behind `ctx` without retaining it (the reader keeps it alive).
    @inline(__always)
    static func with(_ ctx: UnsafeMutableRawPointer?, _ body: (SAXState) -> Void) {
        // C interop: libxml2 passes back the user data given, never null.
        // swift-format-ignore: NeverForceUnwrap
        Unmanaged<SAXState>.fromOpaque(ctx!)._withUnsafeGuaranteedRef(body)
    }

    func currentPlace() -> (line: Int, column: Int) {
        guard let input = context?.pointee.input else { return (0, 0) }
        return (Int(input.pointee.line), Int(input.pointee.col))
    }

    /// Turns libxml2's errors into a `GPXError`. Namespace errors (an undeclared prefix, as in some real
    /// exports) are recovered from: the element is read by its local name. Warnings are ignored.
    func libxmlError(_ e: xmlError) {
        if e.domain == Int32(XML_FROM_NAMESPACE.rawValue) { return }
        guard e.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        var message = e.message.map { String(cString: $0) } ?? "unknown error"
        message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        while message.last?.isWhitespace == true || message.last == "." { message.removeLast() }
        if !rootSeen, e.code == Int32(XML_ERR_DOCUMENT_EMPTY.rawValue) || e.code == Int32(XML_ERR_DOCUMENT_END.rawValue) {
            message = "no element where the document should start; a GPX file starts with <gpx ...>"
        } else if terminating {
            message += " (the file ends before the document does: is it truncated?)"
        }
        fail(line: Int(e.line), column: Int(e.int2), "malformed XML: \(message).")
    }

    func startElement(
        _ localname: UnsafePointer<xmlChar>, _ uri: UnsafePointer<xmlChar>?,
        _ attributeCount: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        depth += 1
        if depth > SAXState.maximumDepth {
            let place = tagStart()
            return fail(
                line: place.line, column: place.column,
                "elements are nested more than \(SAXState.maximumDepth) deep; GPX needs a handful of levels.")
        }
        if skipDepth > 0 { return }
        if !rootSeen {
            rootSeen = true
            rootNamespace = uri.map { Array(UnsafeBufferPointer(start: $0, count: strlen($0))) }
            guard Tag(localname) == .gpx else {
                let place = tagStart()
                fail(
                    line: place.line, column: place.column,
                    "the root element is <\(String(cString: localname))>, not <gpx>: this is not a GPX file.")
                return
            }
            return
        }
        guard isGPXNamespace(uri) else { skipDepth = depth; return }
        let tag = Tag(localname)
        if let current = point {
            if depth == current.depth + 1 {
                switch tag {
                case .time: beginField(.time)
                case .ele: beginField(.elevation)
                case .extensions: skipDepth = depth
                default: break
                }
            } else if tag == .extensions {
                skipDepth = depth
            }
            return
        }
        switch tag {
        case .extensions:
            skipDepth = depth
        case .trk:
            trackDepth = depth
            trackSegmentOpen = false
        case .trkseg:
            trackSegmentOpen = true
            trackSegmentDepth = depth
            emit(.segmentStart(.trackPoint, line: tagStart().line))
        case .rte:
            emit(.segmentStart(.routePoint, line: tagStart().line))
        case .trkpt:
            if !trackSegmentOpen {
                trackSegmentOpen = true
                emit(.segmentStart(.trackPoint, line: tagStart().line))
            }
            beginPoint(.trackPoint, attributeCount, attributes)
        case .rtept:
            beginPoint(.routePoint, attributeCount, attributes)
        case .wpt:
            beginPoint(.waypoint, attributeCount, attributes)
        default:
            break
        }
    }

    func endElement() {
        defer { depth -= 1 }
        if skipDepth > 0 {
            if depth == skipDepth { skipDepth = 0 }
            return
        }
        guard let current = point else {
            // The end of a trkseg or trk closes its segment; loose trkpts after it open a new one.
            if depth == trackSegmentDepth { trackSegmentOpen = false; trackSegmentDepth = 0 }
            if depth == trackDepth { trackSegmentOpen = false; trackDepth = 0 }
            return
        }
        if depth == current.depth + 1, field != .none {
            endField()
        } else if depth == current.depth {
            point = nil
            let coordinate = Coordinate(latitude: current.latitude, longitude: current.longitude)
            emit(
                .point(
                    current.kind,
                    TrackPoint(
                        coordinate: coordinate, time: current.time, elevation: current.elevation,
                        ordinal: current.ordinal, line: current.line, column: current.column)))
        }
    }

    func characters(_ bytes: UnsafePointer<xmlChar>?, _ count: Int) {
        guard field != .none, let bytes, skipDepth == 0 else { return }
        if textCount + count > SAXState.maximumFieldLength {
            textOverflow = true
            return
        }
        (text + textCount).update(from: bytes, count: count)
        textCount += count
    }

    private func isGPXNamespace(_ uri: UnsafePointer<xmlChar>?) -> Bool {
        guard let uri else { return true }
        if uri == knownGPXNamespace { return true }
        if strncmp(uri, "http://www.topografix.com/GPX/1/", 32) == 0 {
            knownGPXNamespace = uri
            return true
        }
        guard let root = rootNamespace else { return false }
        return root.withUnsafeBufferPointer { r in
            // C interop: a C string's array is not empty (its NUL), so it has an address.
            // swift-format-ignore: NeverForceUnwrap
            strlen(uri) == r.count && memcmp(uri, r.baseAddress!, r.count) == 0
        }
    }
}
