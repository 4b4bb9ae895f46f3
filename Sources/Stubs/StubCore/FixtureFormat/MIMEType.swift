/// Content types inferred from body file extensions.
enum MIMEType {
    /// The content type for a file name, `application/octet-stream` when the extension is unknown.
    static func forFile(_ name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        return types[ext] ?? "application/octet-stream"
    }

    private static let types: [String: String] = [
        "json": "application/json", "xml": "application/xml", "rss": "application/rss+xml",
        "atom": "application/atom+xml", "html": "text/html; charset=utf-8", "txt": "text/plain; charset=utf-8",
        "csv": "text/csv", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "svg": "image/svg+xml", "m4a": "audio/mp4", "mp3": "audio/mpeg", "mp4": "video/mp4",
        "m4v": "video/x-m4v",
    ]
}
