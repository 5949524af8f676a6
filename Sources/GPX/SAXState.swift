import CLibXML2
import Time

/// The parser's side of a `GPXReader`: the libxml2 push context, what the SAX callbacks found so far,
/// and where in the GPX structure the parser stands. Internal: libxml2 types stay in this module.
final class SAXState {
    let file: String
    @exclusivity(unchecked) var context: xmlParserCtxtPtr?
    /// Items found by the callbacks and not yet returned; `head` is the next one to return.
    @exclusivity(unchecked) private var items: [GPXItem] = []
    @exclusivity(unchecked) private var head = 0
    /// The first error; parsing stops there.
    @exclusivity(unchecked) var error: GPXError?
    /// Bytes passed to `xmlCreatePushParserCtxt` (for encoding detection), not to feed again.
    @exclusivity(unchecked) var bytesConsumedAtCreation = 0

    // Where the parser stands.
    @exclusivity(unchecked) var depth = 0
    @exclusivity(unchecked) var rootSeen = false
    /// The namespace URI of the root element (nil for none): elements in it count as GPX.
    @exclusivity(unchecked) var rootNamespace: [UInt8]?
    /// Depth of the element whose subtree is being skipped (`extensions`, foreign namespaces); 0 when none.
    @exclusivity(unchecked) var skipDepth = 0
    @exclusivity(unchecked) var trackDepth = 0
    @exclusivity(unchecked) var trackSegmentOpen = false
    @exclusivity(unchecked) var trackSegmentDepth = 0
    @exclusivity(unchecked) var point: PendingPoint?
    @exclusivity(unchecked) var ordinals = [0, 0, 0]
    /// The child of the current point whose text is being collected.
    @exclusivity(unchecked) var field: Field = .none
    @exclusivity(unchecked) var fieldLine = 0
    @exclusivity(unchecked) var fieldColumn = 0
    /// The field's text so far: `textCount` bytes, room for `maximumFieldLength` and a NUL.
    let text = UnsafeMutablePointer<UInt8>.allocate(capacity: SAXState.maximumFieldLength + 1)
    @exclusivity(unchecked) var textCount = 0
    @exclusivity(unchecked) var textOverflow = false
    @exclusivity(unchecked) var timeCache = ISO8601Cache()
    /// The last namespace URI found to be GPX's: libxml2 interns URIs, so a pointer compare finds it again.
    @exclusivity(unchecked) var knownGPXNamespace: UnsafePointer<xmlChar>?

    enum Field { case none, time, elevation }

    /// A point between its start tag and its end tag.
    struct PendingPoint {
        var kind: PointKind
        var depth: Int
        var latitude: Double
        var longitude: Double
        var time: Timestamp?
        var elevation: Double?
        var ordinal: Int
        var line: Int
        var column: Int
    }

    /// The most text kept for one `<time>` or `<ele>`, in bytes; longer text is unparseable anyway.
    static let maximumFieldLength = 256
    /// The deepest element nesting accepted (libxml2's own limit without XML_PARSE_HUGE).
    static let maximumDepth = 256
    /// True while the end of input is being parsed: an error then means a truncated file.
    @exclusivity(unchecked) var terminating = false

    init(file: String) {
        self.file = file
        items.reserveCapacity(1024)
    }

    /// libxml2's global state, set up once for the process before any parser (`xmlInitParser` is not
    /// reentrant, and tracks are read on several threads at once: `PreloadedTracks`).
    private static let libraryReady: Void = xmlInitParser()

    /// Creates the push parser, handing it the first bytes of `first` to detect the encoding.
    func start(first: UnsafeRawBufferPointer) {
        _ = SAXState.libraryReady
        var handler = SAXState.handler
        let initial = min(4, first.count)
        bytesConsumedAtCreation = initial
        let selfPointer = Unmanaged.passUnretained(self).toOpaque()
        // C interop: the first chunk read is not empty, so it has an address.
        // swift-format-ignore: NeverForceUnwrap
        context = first.baseAddress!.withMemoryRebound(to: CChar.self, capacity: initial) { bytes in
            xmlCreatePushParserCtxt(&handler, selfPointer, bytes, Int32(initial), file)
        }
        guard let context else {
            error = GPXError(file: file, line: 0, column: 0, message: "libxml2 could not create a parser (out of memory?).")
            return
        }
        // NONET: never fetch anything. No NOENT (no entity substitution), no DTDLOAD, never HUGE.
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue))
    }

    /// Parses `chunk`; with `terminate`, also checks that the document is complete.
    func feed(_ chunk: UnsafeRawBufferPointer, terminate: Bool) {
        guard let context, error == nil else { return }
        let pointer = chunk.baseAddress?.assumingMemoryBound(to: CChar.self)
        terminating = terminate
        perimeter_silence_generic_errors()  // per thread; next() may be called from any
        let status = xmlParseChunk(context, pointer, Int32(chunk.count), terminate ? 1 : 0)
        if error == nil, status != 0 {
            let message =
                status == Int32(XML_ERR_INVALID_ENCODING.rawValue)
                ? "the bytes here are not valid in the encoding the file declares (<?xml … encoding=…?>); re-save it as UTF-8."
                : "the XML is malformed (libxml2 error \(status))."
            fail(
                line: Int(context.pointee.input?.pointee.line ?? 0), column: Int(context.pointee.input?.pointee.col ?? 0),
                message)
        }
        if terminate, error == nil, !rootSeen {
            fail(line: 0, column: 0, "the file has no root element; a GPX file starts with <gpx ...>.")
        }
    }

    deinit { text.deallocate() }

    /// The field's text, NUL-terminated just past its end.
    var fieldText: UnsafeBufferPointer<UInt8> {
        text[textCount] = 0
        return UnsafeBufferPointer(start: text, count: textCount)
    }

    func free() {
        if let context {
            // A DOCTYPE that declares an entity makes libxml2 build a document to hold it even in SAX mode
            // ("SAX compatibility mode", xmlParseEntityDecl); xmlFreeParserCtxt leaves it to the caller.
            if let document = context.pointee.myDoc {
                xmlFreeDoc(document)
                context.pointee.myDoc = nil
            }
            xmlFreeParserCtxt(context)
            self.context = nil
        }
    }

    /// The next item found, or nil when the callbacks have found nothing more yet.
    func popItem() -> GPXItem? {
        if head < items.count {
            defer { head += 1 }
            return items[head]
        }
        if head > 0 {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return nil
    }

    func emit(_ item: GPXItem) { items.append(item) }

    /// Records the first error and stops the parser. A place libxml2 counted past Int32 (a line
    /// longer than 2 GiB) is unknown: 0, never negative.
    func fail(line: Int, column: Int, _ message: String) {
        guard error == nil else { return }
        error = GPXError(file: file, line: max(0, line), column: max(0, column), message: message)
        if let context { xmlStopParser(context) }
    }

    /// Line and column of the start tag being reported by startElementNs.
    func tagStart() -> (line: Int, column: Int) {
        guard let context else { return (0, 0) }
        var line: Int32 = 0, column: Int32 = 0
        perimeter_tag_start(context, &line, &column)
        return (Int(line), Int(column))
    }
}
