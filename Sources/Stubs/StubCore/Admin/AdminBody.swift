/// The bodies of the admin API's answers (`AdminEndpoint`), declared once: `AdminAPI` encodes them and
/// `RemoteStubs` decodes them.
package enum AdminBody {
    /// What `GET /__stub` answers a client that is not a browser.
    package struct Index: Codable, Sendable {
        package var page: String
        package var endpoints: [String]

        package init(page: String, endpoints: [String]) { (self.page, self.endpoints) = (page, endpoints) }
    }

    /// What `GET /__stub/health` and a successful `POST /__stub/reload` answer.
    package struct Health: Codable, Sendable {
        package var status: String
        package var stubs: Int
        package var fixtures: String?
        /// The seed of random faults and chaos, as text: JSON numbers lose 64-bit precision.
        package var seed: String?
        package var chaos: Double?
        package var lastReload: ReloadReport?
        package var stalledConnections: Int?
        /// Times accepting stopped for want of file descriptors.
        package var acceptPauses: Int?

        package init(
            status: String, stubs: Int, fixtures: String?, seed: String? = nil, chaos: Double? = nil,
            lastReload: ReloadReport?, stalledConnections: Int? = nil, acceptPauses: Int? = nil
        ) {
            (self.status, self.stubs, self.fixtures, self.seed, self.chaos) = (status, stubs, fixtures, seed, chaos)
            (self.lastReload, self.stalledConnections, self.acceptPauses) =
                (lastReload, stalledConnections, acceptPauses)
        }
    }

    /// What `GET /__stub/stubs` and the calls that choose a variant or a mutant answer.
    package struct StubList: Codable, Sendable {
        package var serverVariant: String?
        package var stubs: [Item]

        package init(serverVariant: String?, stubs: [Item]) {
            (self.serverVariant, self.stubs) = (serverVariant, stubs)
        }

        package struct Item: Codable, Sendable {
            package var name, api, method, path: String
            /// The path with its query, header and body conditions.
            package var route: String
            package var variants: [String]
            package var sequence: [String]?
            package var choice: String?
            /// The mutant chosen for the stub, by ID, if any.
            package var mutation: String?
            package var sequenceCalls: Int
            /// Answers of each variant, as written, since the server started (0 for one never served).
            package var served: [String: Int]
            /// Answers that were a mutant of one of the variants, since the server started.
            package var servedMutants: Int
            /// True for a resource stub, whose items `GET /__stub/resources/NAME` answers.
            package var resource: Bool?
            package var scenario: Scenario?

            package init(
                name: String, api: String, method: String, path: String, route: String, variants: [String],
                sequence: [String]?, choice: String?, mutation: String?, sequenceCalls: Int, served: [String: Int],
                servedMutants: Int, resource: Bool?, scenario: Scenario?
            ) {
                (self.name, self.api, self.method, self.path, self.route) = (name, api, method, path, route)
                (self.variants, self.sequence, self.choice, self.mutation) = (variants, sequence, choice, mutation)
                (self.sequenceCalls, self.served, self.servedMutants) = (sequenceCalls, served, servedMutants)
                (self.resource, self.scenario) = (resource, scenario)
            }
        }

        package struct Scenario: Codable, Sendable {
            package var name: String
            package var when, then: String?
            /// The scenario's current state.
            package var state: String

            package init(name: String, when: String?, then: String?, state: String) {
                (self.name, self.when, self.then, self.state) = (name, when, then, state)
            }
        }
    }

    /// One mutant of a stub's variant, as `GET /__stub/stubs/NAME/mutations` and `stub-server mutations --json`
    /// list it.
    package struct MutantItem: Codable, Sendable {
        package var id, description: String
        /// The IDs of mutants that serve the same answer, listed once under `id`; each still resolves.
        package var aliases: [String]?

        package init(id: String, description: String, aliases: [String]?) {
            (self.id, self.description, self.aliases) = (id, description, aliases)
        }
    }

    /// What `GET /__stub/journal` and `GET /__stub/unmatched` answer.
    package struct JournalPage: Codable, Sendable {
        package var count: Int
        package var entries: [JournalEntry]

        package init(entries: [JournalEntry]) { (count, self.entries) = (entries.count, entries) }
    }

    /// What `GET /__stub/journal/count` and `DELETE /__stub/journal` answer.
    package struct Count: Codable, Sendable {
        package var count: Int

        package init(_ count: Int) { self.count = count }
    }

    /// What `GET /__stub/scenarios` and the calls that move a scenario answer.
    package struct ScenarioList: Codable, Sendable {
        package var scenarios: [Item]

        package init(scenarios: [Item]) { self.scenarios = scenarios }

        package struct Item: Codable, Sendable {
            package var name, state: String
            package var states, stubs: [String]

            package init(name: String, state: String, states: [String], stubs: [String]) {
                (self.name, self.state, self.states, self.stubs) = (name, state, states, stubs)
            }
        }
    }

    /// A failed `POST /__stub/reload` (`422`): the previous catalog stays in service.
    package struct ReloadFailure: Codable, Sendable {
        package var error: String
        /// The folder that was loaded.
        package var fixtures: String?
        package var problems: [FixtureProblem]

        package init(error: String, fixtures: String?, problems: [FixtureProblem]) {
            (self.error, self.fixtures, self.problems) = (error, fixtures, problems)
        }
    }

    /// A refused control call: the message, and the error itself for a `RemoteStubs` to throw again.
    package struct ControlFailure: Codable, Sendable {
        package var error: String
        package var kind: StubServerError

        package init(_ error: StubServerError) { (self.error, kind) = (error.description, error) }
    }

    /// Any other refusal: the message, and for a path that is no endpoint, the endpoints there are.
    package struct Failure: Codable, Sendable {
        package var error: String
        package var endpoints: [String]?

        package init(error: String, endpoints: [String]? = nil) { (self.error, self.endpoints) = (error, endpoints) }
    }
}
