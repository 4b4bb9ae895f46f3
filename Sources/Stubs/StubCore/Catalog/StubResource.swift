package import JSONModel

/// A stub that stands for a collection at its path (`"resource"` in `stubs.json`): items seeded from a JSON file,
/// keyed by a field, which the app lists, reads, creates, replaces, patches and deletes; each server keeps its own
/// copy, and `reset()` puts the seed back.
package struct StubResource: Sendable, Equatable {
    /// The field that keys an item (`id` by default).
    package var key: String
    /// The seed: the items a server starts with, in order.
    package var seed: [JSONValue]
    /// The seed's file, relative to the API folder, if it came from one.
    package var seedFile: String?
    /// The list's wrapper: nil answers a bare array; `results` answers `{"results": [...]}`.
    package var wrap: String?
    /// With `wrap`, the field that carries the number of items listed before paging (`"count": N`).
    package var countField: String?
    /// Query parameters that filter the list by the item field of the same name (`?artist=Adele`).
    package var filters: [String]
    /// The query parameters of paging, when the list pages: `limit` and `offset` by default names.
    package var paging: Paging?

    package struct Paging: Sendable, Equatable {
        package var limit: String
        package var offset: String
    }

    package init(
        key: String = "id", seed: [JSONValue] = [], seedFile: String? = nil, wrap: String? = nil,
        countField: String? = nil, filters: [String] = [], paging: Paging? = nil
    ) {
        self.key = key
        self.seed = seed
        self.seedFile = seedFile
        self.wrap = wrap
        self.countField = countField
        self.filters = filters
        self.paging = paging
    }

    /// What a request's path names: the collection itself, or one item by its key.
    package enum Target: Sendable, Equatable {
        case collection
        case item(String)
    }

    /// The target of `path` under the stub's `base` path, or nil when it names neither.
    package static func target(of path: String, base: String) -> Target? {
        let base = base.hasSuffix("/") ? String(base.dropLast()) : base
        if path == base || path == base + "/" { return .collection }
        guard path.hasPrefix(base + "/") else { return nil }
        let key = path.dropFirst(base.count + 1)
        guard !key.isEmpty, !key.contains("/") else { return nil }
        return .item(String(key))
    }

    /// The methods a target answers: what a `405` lists.
    package static func methods(for target: Target) -> [String] {
        switch target {
        case .collection: ["GET", "HEAD", "POST"]
        case .item: ["DELETE", "GET", "HEAD", "PATCH", "PUT"]
        }
    }
}
