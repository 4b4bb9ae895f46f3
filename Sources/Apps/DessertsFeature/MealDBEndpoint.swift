public import Foundation
public import Networking

/// TheMealDB's two endpoints the desserts app uses, against an injectable base URL.
public enum MealDBEndpoint: Sendable, Equatable {
    /// `filter.php?c=Dessert`: every dessert's id, name and thumbnail.
    case desserts
    /// `lookup.php?i=ID`: one meal's full record.
    case meal(id: String)

    public static let liveBaseURL = URL(string: "https://themealdb.com")!

    /// The request against `baseURL`.
    public func endpoint(baseURL: URL = MealDBEndpoint.liveBaseURL) -> Endpoint {
        switch self {
        case .desserts:
            Endpoint(
                baseURL: baseURL, path: "/api/json/v1/1/filter.php", query: [URLQueryItem(name: "c", value: "Dessert")])
        case .meal(let id):
            Endpoint(baseURL: baseURL, path: "/api/json/v1/1/lookup.php", query: [URLQueryItem(name: "i", value: id)])
        }
    }
}
