import Foundation
import TestTurns
import Testing

@testable import HTTPEngine

#if canImport(COpenSSL)
    import COpenSSL

    /// The PKCS #12 file an Apple platform imports its server identity from, written by the package: each primitive
    /// against OpenSSL's own, and the whole file as OpenSSL reads it (MAC, decryption, the key tied to its leaf).
    @Suite(.takesTurns, .timeLimit(.minutes(1)))
    struct PKCS12Tests {
        static func bytes(_ count: Int, _ seed: Int) -> [UInt8] {
            (0..<count).map { UInt8(truncatingIfNeeded: $0 * 31 + seed) }
        }

        @Test(arguments: [0, 1, 32, 64, 65, 131], [0, 3, 200])
        func hmac_isOpenSSLs(keyLength: Int, messageLength: Int) throws {
            let (key, message) = (Self.bytes(keyLength, 1), Self.bytes(messageLength, 2))
            var expected = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            #expect(HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &expected, &length) != nil)
            #expect(try PKCS12.hmacSHA256(key: key, message) == expected)
        }

        @Test(arguments: [(1, 32), (2, 32), (1000, 32), (3, 64), (2, 20)])
        func pbkdf2_isOpenSSLs(iterations: Int, count: Int) throws {
            let (password, salt) = (Array("a password".utf8), Self.bytes(16, 5))
            var expected = [UInt8](repeating: 0, count: count)
            #expect(
                PKCS5_PBKDF2_HMAC(
                    password.map { CChar(bitPattern: $0) }, Int32(password.count), salt, Int32(salt.count),
                    Int32(iterations), EVP_sha256(), Int32(count), &expected) == 1)
            #expect(try PKCS12.pbkdf2(password: password, salt: salt, iterations: iterations, count: count) == expected)
        }

        @Test(arguments: ["", "x", "a longer password of some 40 characters!"], [1, 2048])
        func theMACKey_isOpenSSLsPKCS12KeyWithID3(password: String, iterations: Int) throws {
            var salt = Self.bytes(16, 9)
            let saltCount = Int32(salt.count)
            var expected = [UInt8](repeating: 0, count: 32)
            #expect(
                PKCS12_key_gen_utf8(
                    password, Int32(password.utf8.count), &salt, saltCount, 3, Int32(iterations), 32,
                    &expected, EVP_sha256()) == 1)
            #expect(try PKCS12.pkcs12Key(password: password, salt: salt, iterations: iterations) == expected)
        }

        @Test(arguments: [0, 15, 16, 17, 100])
        func aes256CBC_padsToWholeBlocks_andDecryptsBack(count: Int) throws {
            let (plaintext, key, iv) = (Self.bytes(count, 4), Self.bytes(32, 7), Self.bytes(16, 8))
            let ciphertext = try SigningKey.encryptAES256CBC(plaintext, key: key, iv: iv)
            #expect(ciphertext.count == (count / 16 + 1) * 16)
            let context = try #require(EVP_CIPHER_CTX_new())
            defer { EVP_CIPHER_CTX_free(context) }
            var output = [UInt8](repeating: 0, count: ciphertext.count + 16)
            var (written, last): (Int32, Int32) = (0, 0)
            let ok = output.withUnsafeMutableBufferPointer { buffer in
                EVP_DecryptInit_ex(context, EVP_aes_256_cbc(), nil, key, iv) == 1
                    && EVP_DecryptUpdate(context, buffer.baseAddress, &written, ciphertext, Int32(ciphertext.count))
                        == 1
                    && EVP_DecryptFinal_ex(context, buffer.baseAddress! + Int(written), &last) == 1
            }
            #expect(ok)
            #expect(Array(output.prefix(Int(written + last))) == plaintext)
        }

        @Test(arguments: [(33, 16), (31, 16), (32, 15), (32, 17)])
        func aes256CBC_refusesAKeyOrIVOfAnotherSize(keyLength: Int, ivLength: Int) {
            #expect(throws: TLSError("AES-256-CBC takes a 32-byte key, a 16-byte IV")) {
                try SigningKey.encryptAES256CBC([1], key: Self.bytes(keyLength, 0), iv: Self.bytes(ivLength, 0))
            }
        }

        /// A server's identity as the Apple side makes it: OpenSSL checks its MAC with the password (and not with
        /// another), decrypts the key, finds the leaf by the key's localKeyId, and the authority beside it.
        @Test func aServersIdentity_readsInOpenSSL_keyTiedToItsLeaf() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let authority = try LocalAuthority.loadOrCreate(in: folder)
            let identity = try authority.issue()
            let chain =
                try PEMText.decode(identity.certificateChainPEM, label: "CERTIFICATE")
                + PEMText.decode(authority.certificatePEM, label: "CERTIFICATE")
            let keyInfo = try #require(try PEMText.decode(identity.privateKeyPEM, label: "PRIVATE KEY").first)
            let file = try PKCS12(certificates: chain, privateKeyInfo: keyInfo, password: "pass-1234").der()

            let p12 = try file.withUnsafeBufferPointer { buffer in
                var start = buffer.baseAddress
                return try #require(d2i_PKCS12(nil, &start, buffer.count))
            }
            defer { PKCS12_free(p12) }
            #expect(PKCS12_verify_mac(p12, "pass-1234", -1) == 1)
            #expect(PKCS12_verify_mac(p12, "pass-1235", -1) == 0)
            var key: OpaquePointer?
            var certificate: OpaquePointer?
            var others: OpaquePointer?
            #expect(PKCS12_parse(p12, "pass-1234", &key, &certificate, &others) == 1)
            defer {
                EVP_PKEY_free(key)
                X509_free(certificate)
                copenssl_free_certificates(others)
            }
            let leaf = try #require(certificate)
            #expect(X509_check_private_key(leaf, key) == 1)
            var der: UnsafeMutablePointer<UInt8>?
            let count = i2d_X509(leaf, &der)
            defer { copenssl_free(der) }
            #expect(Array(UnsafeBufferPointer(start: der, count: Int(count))) == chain[0], "the leaf by its key's id")
            #expect(copenssl_certificate_count(others) == 1, "the authority beside it")
            #expect(try SigningKey(pem: identity.privateKeyPEM).publicKeyInfo() == Self.publicKeyInfo(key))
        }

        static func publicKeyInfo(_ key: OpaquePointer?) -> [UInt8] {
            var der: UnsafeMutablePointer<UInt8>?
            let count = i2d_PUBKEY(key, &der)
            defer { copenssl_free(der) }
            return Array(UnsafeBufferPointer(start: der, count: Int(max(0, count))))
        }
    }
#endif
