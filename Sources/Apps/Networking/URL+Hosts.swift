public import Foundation

extension URL {
    /// `https://itunes.apple.com`: the iTunes Search API and the legacy RSS feeds, declared once for every feature.
    public static let iTunes = URL(string: "https://itunes.apple.com")!
}
