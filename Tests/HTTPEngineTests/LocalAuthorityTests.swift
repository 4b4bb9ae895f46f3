import Foundation
import TestTurns
import Testing

@testable import HTTPEngine

/// The local certificate authority: made once per folder, its key the user's alone, the same for every process
/// that asks at once.
#if canImport(COpenSSL)
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct LocalAuthorityTests {
        private func withFolder(_ body: (String) async throws -> Void) async throws {
            let parent = FileManager.default.temporaryDirectory.appendingPathComponent("authorities-\(UUID())")
            defer { try? FileManager.default.removeItem(at: parent) }
            try await body(parent.appendingPathComponent("nested/authority").path)
        }

        private func permissions(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }

        @Test func theFirstUse_makesTheAuthority_keyReadableByTheUserAlone_andLaterUsesLoadIt() async throws {
            try await withFolder { folder in
                let made = try LocalAuthority.loadOrCreate(in: folder)
                #expect(made.certificatePath == folder + "/ca.pem")
                #expect(made.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
                #expect(try permissions(folder + "/ca-key.pem") == 0o600)
                #expect(try permissions(folder + "/ca.pem") == 0o644)
                let loaded = try LocalAuthority.loadOrCreate(in: folder)
                #expect(loaded.certificatePEM == made.certificatePEM)
                #expect(try permissions(folder + "/server-key.pem") == 0o600)
                let first = try made.issue()
                let second = try loaded.issue()
                #expect(
                    first.privateKeyPEM == second.privateKeyPEM, "every valid leaf has the server key, to be pinned")
                #expect(
                    first.certificateChainPEM != second.certificateChainPEM, "each leaf is a certificate of its own")
                #expect(try made.issue(leaf: .otherKey).privateKeyPEM != first.privateKeyPEM)
                try first.validate()
            }
        }

        @Test func processesMakingItAtOnce_allEndWithTheSameAuthority() async throws {
            try await withFolder { folder in
                let made = try await withThrowingTaskGroup(of: String.self) { group in
                    for _ in 0..<6 { group.addTask { try LocalAuthority.loadOrCreate(in: folder).certificatePEM } }
                    return try await group.reduce(into: Set<String>()) { $0.insert($1) }
                }
                #expect(made.count == 1)
                let parent = (folder as NSString).deletingLastPathComponent
                #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["authority"], "no staging left")
            }
        }

        @Test func aFolderUnderAFile_isAnErrorThatNamesIt() async throws {
            try await withFolder { folder in
                // `…/authorities-ID/nested/authority`, where `authorities-ID` is a file.
                let parent = (folder as NSString).deletingLastPathComponent
                let file = (parent as NSString).deletingLastPathComponent
                try Data("not a folder".utf8).write(to: URL(fileURLWithPath: file))
                let error = #expect(throws: TLSError.self) { try LocalAuthority.loadOrCreate(in: folder + "/") }
                #expect(error?.description == "cannot make \(parent): Not a directory")
            }
        }

        #if !os(macOS)
            @Test(arguments: [
                (["STUB_SERVER_AUTHORITY": "/x/ca", "XDG_DATA_HOME": "/data", "HOME": "/home/me"], "/x/ca"),
                (
                    ["STUB_SERVER_AUTHORITY": "", "XDG_DATA_HOME": "/data", "HOME": "/home/me"],
                    "/data/stub-server/authority"
                ),
                (["HOME": "/home/me"], "/home/me/.local/share/stub-server/authority"),
                ([:], "./.local/share/stub-server/authority"),
            ])
            func theDefaultFolder_followsTheEnvironment(_ environment: [String: String], _ folder: String) {
                #expect(LocalAuthority.defaultFolder { environment[$0] } == folder)
            }
        #endif

        @Test func anIdentityWithItsAuthorityInTheChain_validates_andOneWithoutAKeyDoesNot() async throws {
            try await withFolder { folder in
                let authority = try LocalAuthority.loadOrCreate(in: folder)
                var identity = try authority.issue()
                identity.certificateChainPEM += authority.certificatePEM
                try identity.validate()
                identity.privateKeyPEM = "no key"
                let error = #expect(throws: TLSError.self) { try identity.validate() }
                #expect(error?.description.hasPrefix("no PEM private key in the text") == true)
            }
        }

        @Test func aMissingKey_isAnErrorThatSaysHowToStartOver() async throws {
            try await withFolder { folder in
                _ = try LocalAuthority.loadOrCreate(in: folder)
                try FileManager.default.removeItem(atPath: folder + "/ca-key.pem")
                let error = #expect(throws: TLSError.self) { try LocalAuthority.loadOrCreate(in: folder) }
                #expect(
                    error?.description
                        == "\(folder)/ca-key.pem is missing or unreadable: remove \(folder) to make a new authority")
            }
        }

        @Test func anIdentityWhoseKeyIsNotTheCertificates_doesNotValidate() async throws {
            try await withFolder { folder in
                let authority = try LocalAuthority.loadOrCreate(in: folder)
                let one = try authority.issue()
                let other = try authority.issue(leaf: .otherKey)
                let mixed = TLSIdentity(
                    certificateChainPEM: one.certificateChainPEM, privateKeyPEM: other.privateKeyPEM)
                let error = #expect(throws: TLSError.self) { try mixed.validate() }
                #expect(error?.description.hasPrefix("the private key does not match the certificate") == true)
                let garbage = TLSIdentity(certificateChainPEM: "not PEM", privateKeyPEM: one.privateKeyPEM)
                #expect(throws: TLSError("no PEM certificate in the text")) { try garbage.validate() }
            }
        }
    }
#endif
