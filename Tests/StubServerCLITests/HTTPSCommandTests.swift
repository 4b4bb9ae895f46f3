#if os(macOS) || os(Linux)
    import Foundation
    import StubTestSupport
    import TestTurns
    import Testing

    /// `serve --https` and `trust` as a user runs them: the address printed, the authority's file, curl with and
    /// without it.
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct HTTPSCommandTests {
        // Linux: the server's TLS on macOS is not served (Secure Transport cannot sign with an in-memory P-256 key
        // there); on macOS `serve --https` fails saying so.
        #if os(Linux)
            @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")))
            func serveHTTPS_printsItsAddress_andCurlTrustingTheAuthorityGetsFixtures() async throws {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())")
                defer { try? FileManager.default.removeItem(at: folder) }
                let server = try RunningServer([
                    "serve", "--port", "0", "--https", "--authority", folder.path, "--certificate-host", "stub.test",
                    "--http-port", "0",
                ])
                let first = try #require(await server.nextLine())
                let address = try #require(first.components(separatedBy: " at ").last)
                #expect(address.hasPrefix("https://127.0.0.1:"))
                let authority = folder.appendingPathComponent("ca.pem").path
                #expect(
                    await server.nextLine()
                        == "Certificate signed by the local authority \(authority) (stub-server trust: how to trust it)"
                )
                let plainLine = try #require(await server.nextLine())
                #expect(plainLine.hasPrefix("Plain HTTP beside it at http://127.0.0.1:"))
                let plain = try #require(plainLine.components(separatedBy: " at ").last)
                #expect(plain != address.replacingOccurrences(of: "https", with: "http"), "a port of its own")
                let target = "/api/v1/us/apple-music/top-albums/all/100/explicit.json"
                let overPlainHTTP = try await CLIRunner.run(
                    ["-sS", "--max-time", "60", "-o", "/dev/null", "-w", "%{http_code}", plain + target],
                    tool: URL(fileURLWithPath: "/usr/bin/curl"))
                #expect(overPlainHTTP.stdout == "200")
                let trusted = try await CLIRunner.run(
                    [
                        "-sS", "--max-time", "60", "--cacert", authority, "-o", "/dev/null", "-w", "%{http_code}",
                        address + target,
                    ],
                    tool: URL(fileURLWithPath: "/usr/bin/curl"))
                #expect(trusted.stdout == "200")
                let untrusted = try await CLIRunner.run(
                    ["-sS", "--max-time", "60", address + target], tool: URL(fileURLWithPath: "/usr/bin/curl"))
                #expect(untrusted.status == 60)
                #expect(untrusted.stderr.contains("unable to get local issuer certificate"))
                #expect(await server.stop().status == 0)
            }
        #endif

        @Test func trust_makesTheAuthority_andPrintsTheCommandsForEachClient() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority \(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("ca.pem").path
            let trust = try await CLIRunner.run(["trust"], environment: ["STUB_SERVER_AUTHORITY": folder.path])
            #expect(trust.status == 0)
            #expect(FileManager.default.fileExists(atPath: path))
            let lines = trust.stdout.split(separator: "\n").map(String.init)
            #expect(lines.first == "The local authority's certificate: \(path)")
            #expect(
                lines.contains("    xcrun simctl keychain booted add-root-cert '\(path)'"),
                "quoted: the folder has a space")
            #expect(lines.contains { $0.hasPrefix("    security add-trusted-cert -r trustRoot") })
            #expect(lines.contains { $0.contains("update-ca-certificates") })
            #expect(lines.last?.hasPrefix("  sha256//") == true, "the server key's pin")
            let remove = try await CLIRunner.run(["trust", "--remove", "--authority", folder.path])
            #expect(remove.stdout.contains("    xcrun simctl keychain booted reset\n"))
            #expect(remove.stdout.contains("    security remove-trusted-cert '\(path)'\n"))
            let misuse = try await CLIRunner.run(["serve", "--authority", folder.path])
            #expect(misuse.status == 64)
            #expect(
                misuse.stderr.hasPrefix(
                    "stub-server: --authority, --certificate-host, --tls-failure and --http-port need --https"))
        }
    }
#endif
