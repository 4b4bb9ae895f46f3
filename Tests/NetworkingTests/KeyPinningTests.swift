import Networking
import TestTurns
import Testing

@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct KeyPinningTests {
    static let pinning = KeyPinning(pins: ["sha256//good", "sha256//backup"])

    @Test(
        arguments: [
            (nil, "sha256//good", KeyPinning.Decision.accept),
            (nil, "sha256//backup", .accept),
            (nil, "sha256//other", .refuse("the server's key sha256//other is not one the app pins")),
            (
                "certificate has expired", "sha256//good",
                .refuse("the server's certificate is not trusted: certificate has expired")
            ),
            (
                "hostname mismatch", "sha256//other",
                .refuse("the server's certificate is not trusted: hostname mismatch")
            ),
        ] as [(String?, String, KeyPinning.Decision)])
    func aServer_isAcceptedOnlyWithATrustedChainAndAPinnedKey(
        _ chainFailure: String?, _ keyPin: String, _ expected: KeyPinning.Decision
    ) {
        #expect(Self.pinning.decide(ServerTrustFacts(chainFailure: chainFailure, keyPin: keyPin)) == expected)
    }
}
