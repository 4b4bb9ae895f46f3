// libFuzzer target for XMLPathParser with the top-songs feed's registrations, compiled together with
// Sources/Shared/XMLPath by Fuzz/run.sh (swiftc -sanitize=fuzzer,address). Any bytes must end in events or an
// XMLPathError, and the events must make sense: records open and close in pairs, never nested, and a
// successful parse leaves no record open.

import Foundation

let parser: XMLPathParser = {
    var parser = XMLPathParser(recordPath: "feed.entry")
    parser.text("feed.entry.im:name", as: "name")
    parser.text("feed.entry.im:artist", as: "artist")
    parser.text("feed.entry.category@label", as: "genre")
    parser.element("feed.entry.im:image@height", as: "image")
    parser.element("feed.entry.link@href,im:assetType", as: "preview")
    parser.element("feed.entry.im:price@amount,currency", as: "price")
    parser.element("feed.entry.im:releaseDate@label", as: "released")
    parser.text("feed.title", as: "title")
    return parser
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    var open = false
    do throws(XMLPathError) {
        try parser.parse(bytes) { event in
            switch event {
            case .recordStart:
                precondition(!open, "a record opened inside a record")
                open = true
            case .recordEnd:
                precondition(open, "a record closed that was not open")
                open = false
            case .text(_, let value), .element(_, _, let value):
                // XML white space only (space, tab, CR, LF): NEL or a no-break space may begin a value.
                let edges = [value.utf8.first, value.utf8.last].compactMap { $0 }
                precondition(!edges.contains { [0x20, 0x09, 0x0A, 0x0D].contains($0) }, "untrimmed text")
            }
        }
        precondition(!open, "a successful parse left a record open")
    } catch {
        precondition(error.line >= 1 && error.column >= 1 && !error.message.isEmpty, "bad error \(error)")
    }
    return 0
}
