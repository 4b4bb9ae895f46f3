public import Foundation

extension HTTPClient {
    /// Sends the request for `endpoint` and returns its body.
    /// - Throws: `APIError.status` outside 2xx, `.emptyBody` for an empty 2xx answer, or what `send` throws.
    public func data(for endpoint: Endpoint) async throws(APIError) -> Data {
        let response = try await send(try endpoint.request())
        guard (200..<300).contains(response.status) else {
            throw .status(response.status, body: response.body)
        }
        guard !response.body.isEmpty else { throw .emptyBody }
        return response.body
    }

    /// Sends the request for `endpoint` and decodes its JSON body.
    /// - Throws: `APIError.decoding` with the coding path when the body does not fit `T`, or what `data(for:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from endpoint: Endpoint, decoder: JSONDecoder = JSONDecoder())
        async throws(APIError) -> T
    {
        let body = try await data(for: endpoint)
        do {
            return try decoder.decode(type, from: body)
        } catch {
            throw APIError(decoding: error)
        }
    }
}

extension APIError {
    /// An `APIError.decoding` describing a `DecodingError`, with its coding path as `feed.results[3].id`.
    public init(decoding error: any Error) {
        guard let error = error as? DecodingError else {
            self = .decoding(path: "", description: "\(error)")
            return
        }
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let value), .valueNotFound(_, let value), .dataCorrupted(let value): context = value
        case .keyNotFound(let key, let value):
            context = DecodingError.Context(
                codingPath: value.codingPath + [key], debugDescription: "missing key '\(key.stringValue)'")
        @unknown default:
            self = .decoding(path: "", description: "\(error)")
            return
        }
        let path = context.codingPath.reduce(into: "") { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
        self = .decoding(path: path, description: underlying ?? context.debugDescription)
    }
}
