public import Foundation
public import Networking

/// Fetches desserts from TheMealDB; the view models see only this.
public protocol DessertsClient: Sendable {
    /// Every dessert, as the API lists them (unsorted, possibly with blanks and duplicates removed).
    func desserts() async throws(APIError) -> [DessertSummary]
    /// One meal, or nil when the API does not know the id.
    func meal(id: String) async throws(APIError) -> MealDetail?
}

/// The `DessertsClient` over HTTP.
public struct LiveDessertsClient: DessertsClient {
    private let http: any HTTPClient
    private let baseURL: URL

    public init(http: any HTTPClient, baseURL: URL = MealDBEndpoint.liveBaseURL) {
        self.http = http
        self.baseURL = baseURL
    }

    public func desserts() async throws(APIError) -> [DessertSummary] {
        try await http.decode(DessertListResponse.self, from: MealDBEndpoint.desserts.endpoint(baseURL: baseURL))
            .desserts
    }

    public func meal(id: String) async throws(APIError) -> MealDetail? {
        try await http.decode(MealLookupResponse.self, from: MealDBEndpoint.meal(id: id).endpoint(baseURL: baseURL))
            .meal
    }
}
