import JSONModel

/// Reading body matchers and scenarios.
extension StubFileReader {
    /// `{"equals": TEXT}`, `{"matches": REGEX}`, `{"json": VALUE, "exact": BOOL}`, `{"jsonPath": {PATH: MATCHER}}`,
    /// `{"form": {FIELD: MATCHER}}`; several keys must all hold.
    mutating func readBodyMatcher(_ value: JSONValue, at path: String) -> BodyMatcher? {
        let known = ["equals", "matches", "json", "exact", "jsonPath", "form"]
        guard let fields = object(value, at: path, known: known) else { return nil }
        let before = problems.count
        var conditions: [BodyMatcher.Condition] = []
        if let text = string(fields["equals"], at: "\(path).equals") { conditions.append(.equals(text)) }
        if let pattern = string(fields["matches"], at: "\(path).matches") {
            if let compiled = try? ValueMatcher.Pattern(pattern) {
                conditions.append(.matches(compiled))
            } else {
                report("\(path).matches", "invalid regular expression \(pattern.debugDescription)")
            }
        }
        var exact = false
        if let flag = fields["exact"] {
            if case .bool(let value) = flag, fields["json"] != nil {
                exact = value
            } else {
                report("\(path).exact", "must be true or false, next to \"json\"")
            }
        }
        if let expected = fields["json"] { conditions.append(.json(expected, exact: exact)) }
        if let paths = fields["jsonPath"], let entries = object(paths, at: "\(path).jsonPath", known: nil) {
            if entries.isEmpty { report("\(path).jsonPath", "must name at least one path") }
            for key in entries.keys.sorted() {
                let keyPath = Self.child("\(path).jsonPath", key)
                do {
                    let address = try JSONPath(key)
                    if let matcher = matcher(entries[key]!, at: keyPath) {
                        conditions.append(.jsonPath(address, matcher))
                    }
                } catch {
                    report(keyPath, "invalid path: \(error.message) (write user.name or items[0].id)")
                }
            }
        }
        if let form = fields["form"] {
            let matchers = matchers(form, at: "\(path).form")
            if matchers.isEmpty, problems.count == before { report("\(path).form", "must name at least one field") }
            conditions += matchers.map { .form($0.name, $0.matcher) }
        }
        if fields.isEmpty { report(path, "must hold equals, matches, json, jsonPath or form") }
        return problems.count == before ? BodyMatcher(conditions) : nil
    }

    /// `{"operationName": MATCHER, "variables": {...}, "query": MATCHER, "persistedQuery": MATCHER}`: at least one.
    mutating func readGraphQLMatcher(_ value: JSONValue, at path: String) -> GraphQLMatcher? {
        let known = ["operationName", "variables", "query", "persistedQuery"]
        guard let fields = object(value, at: path, known: known) else { return nil }
        let before = problems.count
        if fields.isEmpty { report(path, "must hold operationName, variables, query or persistedQuery") }
        var matcher = GraphQLMatcher()
        matcher.operationName = fields["operationName"].flatMap { self.matcher($0, at: "\(path).operationName") }
        matcher.query = fields["query"].flatMap { self.matcher($0, at: "\(path).query") }
        matcher.persistedQuery = fields["persistedQuery"].flatMap { self.matcher($0, at: "\(path).persistedQuery") }
        if let variables = fields["variables"] {
            if case .object = variables {
                matcher.variables = variables
            } else {
                report("\(path).variables", "must be an object the operation's variables contain")
            }
        }
        return problems.count == before ? matcher : nil
    }

    /// `{"name": "cart", "when": "empty", "then": "has-item"}`: `when` and `then` are optional.
    mutating func readScenario(_ value: JSONValue, at path: String) -> StubScenario? {
        guard let fields = object(value, at: path, known: ["name", "when", "then"]) else { return nil }
        let before = problems.count
        let name = string(fields["name"], at: "\(path).name", required: true)
        let when = string(fields["when"], at: "\(path).when")
        let then = string(fields["then"], at: "\(path).then")
        for (key, text) in [("name", name), ("when", when), ("then", then)] {
            if let text, !StubCatalog.isValidName(text) {
                report("\(path).\(key)", "\(text.debugDescription) must be letters, digits, '.', '_' or '-'")
            }
        }
        guard let name, problems.count == before else { return nil }
        return StubScenario(name: name, when: when, then: then)
    }
}
