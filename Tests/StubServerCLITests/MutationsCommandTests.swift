// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import TestTurns
    import Testing

    /// `stub-server mutations`: the mutants of MockData's top albums, listed the same way twice, as lines or JSON;
    /// a stub or variant the folder lacks, and a missing `--stub`, are refused.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct MutationsCommandTests {
        @Test func theTopAlbums_haveMoreThan150Mutants_listedTheSameWayTwice() async throws {
            let first = try await CLIRunner.run(["mutations", "MockData", "--stub", "top-albums"])
            #expect(first.status == 0, "\(first.stderr)")
            let lines = first.stdout.split(separator: "\n").map(String.init)
            let ids = lines.map { String($0.prefix { $0 != " " }) }
            #expect(lines.count >= 150)
            #expect(Set(ids).count == ids.count, "unique IDs")
            #expect(ids.contains("feed.results[*].name:null") && ids.contains("status:503"))
            let second = try await CLIRunner.run(["mutations", "MockData", "--stub", "top-albums"])
            #expect(second.stdout == first.stdout)
            let json = try await CLIRunner.run(["mutations", "MockData", "--stub", "top-albums", "--json"])
            struct Listed: Decodable {
                var id, description: String
                var aliases: [String]?
            }
            let listed = try JSONDecoder().decode([Listed].self, from: Data(json.stdout.utf8))
            #expect(listed.map(\.id) == ids)
            #expect(listed.allSatisfy { !$0.description.isEmpty })
            // Twins are listed once, the others named on the line and in the JSON.
            let empty = try #require(listed.first { $0.id == "feed.id:empty" })
            #expect(empty.aliases == ["feed.id:url-empty"])
            #expect(!ids.contains("feed.id:url-empty"))
            #expect(
                lines.contains { $0.hasPrefix("feed.id:empty ") && $0.hasSuffix("(the same as feed.id:url-empty)") })
        }

        /// The TLS failures, in the order and with the IDs `serve --https --tls-failure` takes, as lines or JSON.
        @Test func tls_listsEveryTLSFailureByTheIDServeTakes() async throws {
            let lines = try await CLIRunner.run(["mutations", "--tls"])
            #expect(lines.status == 0, "\(lines.stderr)")
            let ids = lines.stdout.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
            #expect(
                ids == [
                    "expired", "not-yet-valid", "wrong-host", "self-signed", "unknown-authority", "other-key",
                    "old-protocol", "handshake-reset", "handshake-stall",
                ])
            #expect(lines.stdout.contains("other-key  a valid certificate from the authority with another key"))
            let json = try await CLIRunner.run(["mutations", "--tls", "--json"])
            struct Listed: Decodable {
                var id, description: String
            }
            let listed = try JSONDecoder().decode([Listed].self, from: Data(json.stdout.utf8))
            #expect(listed.map(\.id) == ids)
            #expect(listed.allSatisfy { !$0.description.isEmpty })
        }

        @Test(arguments: [
            (["mutations", "MockData", "--stub", "nope"], Int32(1), "no stub named"),
            (["mutations", "MockData", "--stub", "top-albums", "--variant", "nope"], 1, "has no variant"),
            (["mutations", "MockData"], 64, "needs --stub NAME"),
            (["mutations", "--stub", "top-albums"], 64, "takes one fixtures folder (or --tls)"),
            (["mutations", "MockData", "--tls"], 64, "it takes no folder, --stub or --variant"),
            (["mutations", "--tls", "--variant", "bad"], 64, "it takes no folder, --stub or --variant"),
        ])
        func whatTheFolderLacks_isRefused(_ arguments: [String], status: Int32, message: String) async throws {
            let result = try await CLIRunner.run(arguments)
            #expect(result.status == status)
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
    }
#endif
