/// The request line and header fields of a request, before its body.
struct HTTPRequestHead: Equatable {
    var method: String
    var target: String
    var minorVersion: Int
    var headers: HTTPHeaders
    var framing: BodyFraming

    /// How the request says its body ends.
    enum BodyFraming: Equatable {
        case none
        case length(Int)
        case chunked
    }

    /// Whether the client waits for `100 Continue` before sending its body.
    var expectsContinue: Bool {
        headers["Expect"].map { $0.caseInsensitiveEquals("100-continue") } ?? false
    }
}
