import JSONModel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension StubFileReader {
    /// `"resource": {"seed": "favorites.json", "key": "id", "list": {"wrap": "results", "count": "count"},
    /// "filters": ["artist"], "paging": true}`: the stub stands for a collection at its path. `seed` is a file of the
    /// API folder holding a JSON array of objects, or the array itself; `paging` is `true` (`limit` and `offset`) or
    /// `{"limit": "NAME", "offset": "NAME"}`.
    mutating func readResource(_ value: JSONValue, at path: String) -> StubResource? {
        guard
            let fields = object(value, at: path, known: ["seed", "key", "list", "filters", "paging"])
        else { return nil }
        var resource = StubResource()
        if let key = string(fields["key"], at: "\(path).key") {
            guard !key.isEmpty else {
                report("\(path).key", "must name a field, not be empty")
                return nil
            }
            resource.key = key
        }
        switch fields["seed"] {
        case nil: break
        case .string(let name)?:
            guard let bytes = readBodyFile(name, at: "\(path).seed") else { return nil }
            guard let seed = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
                report("\(path).seed", "\(name) is not JSON")
                return nil
            }
            resource.seedFile = name
            guard let items = readItems(seed, at: "\(path).seed (\(name))", key: resource.key) else { return nil }
            resource.seed = items
        case let seed?:
            guard let items = readItems(seed, at: "\(path).seed", key: resource.key) else { return nil }
            resource.seed = items
        }
        if let list = fields["list"], let wrapper = object(list, at: "\(path).list", known: ["wrap", "count"]) {
            resource.wrap = string(wrapper["wrap"], at: "\(path).list.wrap", required: true)
            resource.countField = string(wrapper["count"], at: "\(path).list.count")
            if resource.wrap == nil { return nil }
        }
        if let filters = fields["filters"] {
            guard case .array(let names) = filters else {
                report("\(path).filters", "must be an array of query parameter names, not \(filters.kind)")
                return nil
            }
            resource.filters = names.enumerated().compactMap {
                string($1, at: "\(path).filters[\($0)]", required: true)
            }
        }
        switch fields["paging"] {
        case nil, .bool(false)?: break
        case .bool(true)?: resource.paging = StubResource.Paging(limit: "limit", offset: "offset")
        case let paging?:
            guard let names = object(paging, at: "\(path).paging", known: ["limit", "offset"]) else { return nil }
            resource.paging = StubResource.Paging(
                limit: string(names["limit"], at: "\(path).paging.limit") ?? "limit",
                offset: string(names["offset"], at: "\(path).paging.offset") ?? "offset")
        }
        return resource
    }

    /// The seed's items: objects, each keyed by a string or a number, keys unique.
    private mutating func readItems(_ value: JSONValue, at path: String, key: String) -> [JSONValue]? {
        guard case .array(let items) = value else {
            report(path, "must be an array of objects, not \(value.kind)")
            return nil
        }
        var collection = ResourceCollection(StubResource(key: key))
        do {
            try collection.replaceAll(with: items)
        } catch {
            report(
                path + error.description.prefix { $0 != ":" }, String(error.description.drop { $0 != ":" }.dropFirst(2))
            )
            return nil
        }
        return items
    }
}
