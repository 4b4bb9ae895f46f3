import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One album of the catalog.
public struct Album: Decodable, Equatable, Sendable {
    public var id: String
    public var name: String
    public var artistName: String
}

/// What can go wrong, as the app shows it.
public enum CatalogAPIError: Error, Equatable {
    /// The server answered with this status.
    case status(Int)
    /// The answer was not the expected JSON.
    case unreadable
    /// No answer: offline, refused, timed out.
    case transport
}

/// The app's client: the base URL is the real service's in the app and a stub server's in tests.
public struct CatalogAPI: Sendable {
    private let baseURL: URL
    private let session: URLSession

    public init(baseURL: URL = URL(string: "https://catalog.example.com")!, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    /// The top albums, best first.
    public func topAlbums(limit: Int) async throws(CatalogAPIError) -> [Album] {
        var components = URLComponents(
            url: baseURL.appendingPathComponent("albums/top"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "limit", value: String(limit))]
        var request = URLRequest(url: components.url!)
        request.timeoutInterval = 5
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .transport
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw .status(status) }
        struct Page: Decodable { var albums: [Album] }
        guard let page = try? JSONDecoder().decode(Page.self, from: data) else { throw .unreadable }
        return page.albums
    }
}
