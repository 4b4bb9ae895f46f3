// These tests run the built `stub-server` as a process: compiled only where a test can start one.
#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import TestTurns
    import Testing

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// `stub-server import openapi` and `validate --openapi` on a document of our own, with a schema in a file beside
    /// it: import, validate, serve `good` at its path; a corrupted answer and a broken document are reported with
    /// their key paths.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct OpenAPICommandTests {
        static let document = """
            openapi: 3.0.3
            info: {title: Catalog, version: "1"}
            servers:
              - url: https://catalog.example.com/v2
            paths:
              /albums:
                get:
                  operationId: listAlbums
                  parameters:
                    - {name: limit, in: query, required: true, schema: {type: integer, minimum: 1}}
                  responses:
                    "200":
                      description: Albums
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [results]
                            properties:
                              results: {type: array, items: {$ref: 'schemas.yaml#/Album'}}
                    "503":
                      description: Down
                      content:
                        text/plain:
                          example: Service Unavailable
              /albums/{albumId}:
                get:
                  operationId: album
                  parameters:
                    - {name: albumId, in: path, required: true, schema: {type: string}}
                  responses:
                    "200":
                      description: One album
                      content:
                        application/json:
                          schema: {$ref: 'schemas.yaml#/Album'}
                          example: {id: 1440857781, name: In Between Dreams, releaseDate: "2005-03-01"}
            """

        static let schemas = """
            Album:
              type: object
              required: [id, name]
              properties:
                id: {type: integer, format: int64}
                name: {type: string}
                releaseDate: {type: string, format: date}
            """

        /// A folder with the document, its schemas beside it, and an empty fixtures folder.
        static func workspace() throws -> TemporaryFixtures {
            let workspace = try TemporaryFixtures(["catalog.yaml": document, "schemas.yaml": schemas])
            try FileManager.default.createDirectory(at: workspace.url("fixtures"), withIntermediateDirectories: true)
            return workspace
        }

        @Test func import_validate_andServeGoodAtItsPath() async throws {
            let workspace = try Self.workspace()
            defer { workspace.remove() }
            let folder = workspace.root
            let fixtures = folder.appendingPathComponent("fixtures").path
            let imported = try await CLIRunner.run([
                "import", "openapi", folder.appendingPathComponent("catalog.yaml").path, "--fixtures", fixtures,
            ])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(
                imported.stdout == """
                    GET /albums -> catalog/listAlbums: good, 503, bad, nil
                    GET /albums/{albumId} -> catalog/album: good, bad, nil

                    """)
            let validated = try await CLIRunner.run(["validate", fixtures])
            #expect(validated.status == 0)
            #expect(
                validated.stdout
                    == "\(fixtures): 2 stubs, no problems; OpenAPI: 3 variants of 2 operations checked, 0 problems\n")

            let server = try RunningServer(["--fixtures", fixtures, "--port", "0"])
            let first = try #require(await server.nextLine())
            let address = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
            let session = URLSession.bounded()
            let (data, response) = try await session.data(from: address.appendingPathComponent("/v2/albums/7"))
            #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Stub-Name") == "album")
            let album = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            #expect(album?["name"] as? String == "In Between Dreams")
            var list = URLRequest(url: URL(string: "\(address.absoluteString)/v2/albums?limit=2")!)
            list.setValue("503", forHTTPHeaderField: "X-Stub-Variant")
            let (text, down) = try await session.data(for: list)
            #expect((down as? HTTPURLResponse)?.statusCode == 503)
            #expect(String(decoding: text, as: UTF8.self) == "Service Unavailable")
            #expect(await server.stop().status == 0)
        }

        /// `serve` checks requests to imported stubs against their operation and logs each problem under the request.
        @Test func serve_logsWhatTheContractRefuses_andAnswersAnyway() async throws {
            let workspace = try Self.workspace()
            defer { workspace.remove() }
            let folder = workspace.root
            let fixtures = folder.appendingPathComponent("fixtures").path
            let spec = folder.appendingPathComponent("catalog.yaml").path
            #expect(try await CLIRunner.run(["import", "openapi", spec, "--fixtures", fixtures]).status == 0)
            let server = try RunningServer(["--fixtures", fixtures, "--port", "0"])
            let first = try #require(await server.nextLine())
            let address = try #require(first.components(separatedBy: " at ").last.flatMap(URL.init(string:)))
            #expect(
                await server.line(containing: "Checking requests")
                    == "Checking requests to 2 stubs against their OpenAPI operations (--no-contracts: off)")
            let url = URL(string: "\(address.absoluteString)/v2/albums?limit=ten")!
            let (_, response) = try await URLSession.bounded().data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(
                await server.line(containing: "contract:") == #"  contract: query.limit: expected integer, got "ten""#)
            #expect(await server.stop().status == 0)
        }

        @Test func aCorruptedAnswer_failsValidation_namingFileStubVariantAndKeyPath() async throws {
            let workspace = try Self.workspace()
            defer { workspace.remove() }
            let folder = workspace.root
            let fixtures = folder.appendingPathComponent("fixtures")
            let spec = folder.appendingPathComponent("catalog.yaml").path
            #expect(try await CLIRunner.run(["import", "openapi", spec, "--fixtures", fixtures.path]).status == 0)
            try workspace.write(
                "fixtures/catalog/listAlbums.good.json", #"{"results": [{"id": 1, "name": "a"}, {"id": "2"}]}"#)
            let result = try await CLIRunner.run(["validate", fixtures.path])
            #expect(result.status == 1)
            #expect(
                result.stdout == """
                    catalog/stubs.json: listAlbums good (200 application/json): results[1].name: missing (required)
                    catalog/stubs.json: listAlbums good (200 application/json): results[1].id: expected integer, got string

                    """)
            #expect(result.stderr.contains("OpenAPI: 3 variants of 2 operations checked, 2 problems"))
        }

        /// A stub written by hand (no `openapi` key) is checked against the operation with its method and path.
        @Test func validateWithOpenAPI_checksStubsThatNameNoOperation() async throws {
            let workspace = try Self.workspace()
            defer { workspace.remove() }
            let folder = workspace.root
            let stubs = """
                {"stubs": [{"name": "one", "request": {"method": "GET", "path": "/v2/albums/{id}"},
                  "variants": {"good": {"status": 200, "body": "{\\"id\\": 1}"}, "bad": {"status": 200, "body": "{"},
                  "nil": {"status": 200, "body": ""}}}]}
                """
            try workspace.write("fixtures/hand/stubs.json", stubs)
            let result = try await CLIRunner.run([
                "validate", folder.appendingPathComponent("fixtures").path, "--openapi",
                folder.appendingPathComponent("catalog.yaml").path,
            ])
            #expect(result.status == 1)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.contains("hand/stubs.json: one good (200 application/json): name: missing (required)"))
            #expect(lines.contains("hand/stubs.json: one bad (200 application/json): (the body): not JSON") == false)
            #expect(
                lines.contains { $0.hasPrefix("hand/stubs.json: one bad (200 application/json): (the body): not JSON") }
            )
        }

        @Test(arguments: [
            (
                "paths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Nope'}\n",
                "paths./a.get.responses.200.$ref: #/components/responses/Nope names nothing: no \"components\" in the document"
            ),
            (
                "paths:\n  /a:\n    get:\n      parameters: [{$ref: '../outside.yaml#/P'}]\n",
                "paths./a.get.parameters[0].$ref: ../outside.yaml#/P is outside the document's folder; it is not read"
            ),
            (
                "paths: {/a: {get: {responses: {200: {description: x}}}}\n  bad: [\n",
                "line 3, column 3: expected , or } in the flow collection"
            ),
        ])
        func aBrokenDocument_writesNothing_andNamesTheKeyPath(_ body: String, _ expected: String) async throws {
            let workspace = try Self.workspace()
            defer { workspace.remove() }
            let folder = workspace.root
            try workspace.write("broken.yaml", "openapi: 3.1.0\n" + body)
            let spec = workspace.url("broken.yaml")
            let fixtures = folder.appendingPathComponent("fixtures")
            let result = try await CLIRunner.run(["import", "openapi", spec.path, "--fixtures", fixtures.path])
            #expect(result.status == 1)
            #expect(result.stderr.contains(expected), "\(result.stderr)")
            #expect(result.stderr.hasSuffix("(nothing was written)\n"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: fixtures.path) == [])
        }
    }
#endif
