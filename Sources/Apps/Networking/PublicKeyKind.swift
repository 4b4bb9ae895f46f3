/// The kinds of server key whose pin an app computes from the key's bytes as Apple's Security framework gives them
/// (`SecKeyCopyExternalRepresentation`), which lack the SubjectPublicKeyInfo a pin hashes.
package enum PublicKeyKind: Sendable, CaseIterable {
    case ecP256, ecP384, rsa2048, rsa4096

    /// The kind of an elliptic-curve key of `bits` bits, or of an RSA key of `bits` bits; nil for another size.
    package init?(elliptic: Bool, bits: Int) {
        switch (elliptic, bits) {
        case (true, 256): self = .ecP256
        case (true, 384): self = .ecP384
        case (false, 2048): self = .rsa2048
        case (false, 4096): self = .rsa4096
        default: return nil
        }
    }

    /// How many bytes the key itself has as Security writes it: an EC point of both coordinates, or an RSA key's
    /// `RSAPublicKey` with exponent 65537 (another exponent changes the lengths the header gives).
    package var keyByteCount: Int {
        switch self {
        case .ecP256: 65
        case .ecP384: 97
        case .rsa2048: 270
        case .rsa4096: 526
        }
    }

    /// The DER a SubjectPublicKeyInfo of this kind starts with (RFC 5280 §4.1: the algorithm, for EC its curve,
    /// and the head of the key's bit string). What follows is the key as Security writes it: an EC point
    /// (`04 || X || Y`, RFC 5480 §2.2) or an RSA key's `RSAPublicKey` (RFC 8017 §A.1.1).
    package var subjectPublicKeyInfoHeader: [UInt8] {
        // SEQUENCE { SEQUENCE { id-ecPublicKey, curve }, BIT STRING (no unused bits) }; SEQUENCE { SEQUENCE {
        // rsaEncryption, NULL }, BIT STRING }: the lengths count the key's bytes that follow.
        let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]
        let rsaEncryption: [UInt8] = [0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00]
        switch self {
        case .ecP256:
            // 1 + 2 × 32 bytes of point; prime256v1 is 1.2.840.10045.3.1.7.
            return [0x30, 0x59, 0x30, 0x13] + ecPublicKey
                + [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00]
        case .ecP384:
            // 1 + 2 × 48 bytes of point; secp384r1 is 1.3.132.0.34.
            return [0x30, 0x76, 0x30, 0x10] + ecPublicKey + [
                0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00,
            ]
        case .rsa2048:
            // RSAPublicKey of a 2048-bit modulus and exponent 65537: 270 bytes.
            return [0x30, 0x82, 0x01, 0x22, 0x30, 0x0d] + rsaEncryption + [0x03, 0x82, 0x01, 0x0f, 0x00]
        case .rsa4096:
            // RSAPublicKey of a 4096-bit modulus and exponent 65537: 526 bytes.
            return [0x30, 0x82, 0x02, 0x22, 0x30, 0x0d] + rsaEncryption + [0x03, 0x82, 0x02, 0x0f, 0x00]
        }
    }
}
