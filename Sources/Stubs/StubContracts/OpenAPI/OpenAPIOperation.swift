package import StubCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One operation of an OpenAPI document: a method on a path, with its parameters, request body and responses.
package struct OpenAPIOperation: Sendable {
    package var method: String
    /// The path template as the document writes it, such as `/pets/{petId}`.
    package var path: String
    package var operationId: String?
    /// The path of the first server that applies (operation, path item, then document), such as `/v1`; empty for
    /// none or `/`.
    package var serverPath: String
    /// The hosts of the servers that apply, as `stubs.json`'s `hosts` holds them.
    package var hosts: [String]
    /// The operation's node, such as `paths./pets.get`.
    package var node: OpenAPIDocument.Node
    /// The parameters, path item's and operation's merged (the operation's win), each resolved.
    package var parameters: [Parameter]
    /// The request body, resolved; nil when the operation takes none.
    package var requestBody: OpenAPIDocument.Node?
    /// The responses by status key (`200`, `2XX`, `default`), each resolved.
    package var responses: [(status: String, node: OpenAPIDocument.Node)]

    /// A parameter: `in` is `path`, `query`, `header` or `cookie`.
    package struct Parameter: Sendable {
        package var name: String
        package var location: String
        package var required: Bool
        /// The schema node, when the parameter has one.
        package var schema: OpenAPIDocument.Node?
        package var node: OpenAPIDocument.Node
    }

    /// `GET /pets/{petId}`.
    package var route: String { "\(method) \(path)" }

    /// How a stub names this operation: by `operationId`, else by route.
    package var reference: Stub.Contract.Operation {
        operationId.map { .id($0) } ?? .route(method: method, path: path)
    }

    /// The path a request has: the server's path, then the template.
    package var fullPath: String { serverPath + path }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
}

extension [OpenAPIOperation] {
    /// The operation a stub's `openapi` names: by `operationId`, or by method and path (which also names an
    /// operation that has an id).
    func first(named name: Stub.Contract.Operation) -> OpenAPIOperation? {
        first { $0.reference == name || $0.route == name.description }
    }
}

extension OpenAPIDocument {
    /// Every operation under `paths`, in the document's order of paths (sorted) and methods.
    /// - Throws: for a `$ref` that names nothing, or a malformed `paths`, with its key path.
    package func operations() throws(ContractError) -> [OpenAPIOperation] {
        let root = self.root
        let documentServers = root["servers"]
        var operations: [OpenAPIOperation] = []
        guard let paths = root["paths"] else { return [] }
        guard case .object = paths.value else { throw ContractError("", "paths", "must be an object") }
        for (path, itemNode) in paths.members {
            guard path.hasPrefix("/") else {
                throw ContractError("", itemNode.keyPath, "a path must start with /")
            }
            let item = try resolve(itemNode)
            let shared = try parameters(of: item)
            for method in OpenAPIOperation.methods {
                guard let node = item[method] else { continue }
                guard case .object = node.value else {
                    throw ContractError(node.file, node.keyPath, "must be an object")
                }
                var merged = shared
                for parameter in try parameters(of: node) {
                    merged.removeAll { $0.name == parameter.name && $0.location == parameter.location }
                    merged.append(parameter)
                }
                let servers = node["servers"] ?? item["servers"] ?? documentServers
                var responses: [(String, OpenAPIDocument.Node)] = []
                for (status, response) in node["responses"]?.members ?? [] {
                    responses.append((status, try resolve(response)))
                }
                let body = try node["requestBody"].map { (body) throws(ContractError) in try resolve(body) }
                operations.append(
                    OpenAPIOperation(
                        method: method.uppercased(), path: path, operationId: node["operationId"]?.string,
                        serverPath: Self.serverPath(servers), hosts: Self.hosts(servers), node: node,
                        parameters: merged, requestBody: body, responses: responses))
            }
        }
        return operations
    }

    private func parameters(of node: OpenAPIDocument.Node) throws(ContractError) -> [OpenAPIOperation.Parameter] {
        var list: [OpenAPIOperation.Parameter] = []
        for item in node["parameters"]?.items ?? [] {
            let parameter = try resolve(item)
            guard let name = parameter["name"]?.string, let location = parameter["in"]?.string else {
                throw ContractError(parameter.file, parameter.keyPath, "a parameter needs \"name\" and \"in\"")
            }
            var schema = parameter["schema"]
            if schema == nil, let content = parameter["content"]?.members.first?.node {
                schema = content["schema"]
            }
            let required = location == "path" || parameter["required"]?.value == .bool(true)
            list.append(
                OpenAPIOperation.Parameter(
                    name: name, location: location, required: required, schema: schema, node: parameter))
        }
        return list
    }

    /// A server's URL, its variables filled with their defaults.
    private static func url(of server: OpenAPIDocument.Node) -> String? {
        guard var url = server["url"]?.string else { return nil }
        for (name, variable) in server["variables"]?.members ?? [] {
            if let value = variable["default"]?.string { url = url.replacing("{\(name)}", with: value) }
        }
        return url
    }

    /// The first server's path without a trailing `/`: `https://api.example.com/v1/` gives `/v1`.
    static func serverPath(_ servers: OpenAPIDocument.Node?) -> String {
        guard let server = servers?.items.first, let url = url(of: server) else { return "" }
        var path = url
        if let scheme = url.firstRange(of: "://") {
            let rest = url[scheme.upperBound...]
            path = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        }
        while path.hasSuffix("/") { path.removeLast() }
        return path.hasPrefix("/") || path.isEmpty ? path : "/" + path
    }

    /// The hosts of every server with an absolute URL, lowercased, without port; variables take their defaults.
    static func hosts(_ servers: OpenAPIDocument.Node?) -> [String] {
        var hosts: [String] = []
        for server in servers?.items ?? [] {
            guard let url = url(of: server), let scheme = url.firstRange(of: "://") else { continue }
            var host = String(url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" })
            if let at = host.lastIndex(of: "@") { host = String(host[host.index(after: at)...]) }
            if !host.hasPrefix("["), let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
            host = host.lowercased()
            if Stub.isValidHost(host), !hosts.contains(host) { hosts.append(host) }
        }
        return hosts
    }
}
