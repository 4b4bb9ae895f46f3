public import Foundation

/// Image formats recognised by their first bytes, so that an error page is never cached as a picture.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp

    /// The format of `data`, or nil when it is not an image this cache accepts.
    public init?(sniffing data: Data) {
        let bytes = [UInt8](data.prefix(12))
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else if bytes.count == 12, starts(Array("RIFF".utf8)), bytes[8..<12].elementsEqual("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }
}
