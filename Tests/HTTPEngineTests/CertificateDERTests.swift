import Foundation
import TestTurns
import Testing

@testable import HTTPEngine

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// Certificates written as DER by the package itself: each encoding as X.690 spells it, and the authority's
/// certificates as OpenSSL reads and checks them.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct CertificateDERTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    @Test(arguments: [
        (0, "0400"),
        (127, "047f"),
        (128, "048180"),
        (255, "0481ff"),
        (256, "04820100"),
        (65_536, "0483010000"),
    ])
    func lengths_takeTheShortFormUnder128_andTheFewestOctetsAbove(count: Int, head: String) {
        let encoded = DER.octetString([UInt8](repeating: 7, count: count))
        #expect(Self.hex(Array(encoded.prefix(head.count / 2))) == head)
        #expect(encoded.count == head.count / 2 + count)
    }

    @Test(
        arguments: [
            ([], "020100"),
            ([0], "020100"),
            ([0, 0, 1], "020101"),
            ([0x7f], "02017f"),
            ([0x80], "02020080"),
            ([0, 0x80, 0], "0203008000"),
            ([0x01, 0x00], "02020100"),
        ] as [([UInt8], String)])
    func integers_areMinimalAndPositive(magnitude: [UInt8], encoded: String) {
        #expect(Self.hex(DER.integer(magnitude)) == encoded)
    }

    @Test(
        arguments: [
            ([1, 2, 840, 10045, 4, 3, 2], "06082a8648ce3d040302"),
            ([2, 5, 29, 17], "0603551d11"),
            ([1, 3, 6, 1, 5, 5, 7, 3, 1], "06082b06010505070301"),
            ([2, 999, 3], "0603883703"),
        ] as [([UInt], String)])
    func objectIdentifiers_areBase128(arcs: [UInt], encoded: String) {
        #expect(Self.hex(DER.oid(arcs)) == encoded)
    }

    @Test(arguments: [
        (0, "UTC 700101000000Z"),
        (-1, "UTC 691231235959Z"),
        (-86_400, "UTC 691231000000Z"),
        (951_782_400 + 3_723, "UTC 000229010203Z"),
        (2_524_607_999, "UTC 491231235959Z"),
        (2_524_608_000, "Generalized 20500101000000Z"),
        (-631_152_001, "Generalized 19491231235959Z"),
        (253_402_300_799, "Generalized 99991231235959Z"),
    ])
    func times_areUTCTimeFrom1950Through2049_andGeneralizedTimeOtherwise(seconds: Int, expected: String) {
        let encoded = DER.time(seconds)
        let kind = encoded[0] == 0x17 ? "UTC" : encoded[0] == 0x18 ? "Generalized" : "tag \(encoded[0])"
        #expect(Int(encoded[1]) == encoded.count - 2)
        #expect("\(kind) \(String(decoding: encoded.dropFirst(2), as: UTF8.self))" == expected)
    }

    @Test func setsOf_areInTheOrderOfTheirEncodings() {
        #expect(
            Self.hex(DER.set([[0x02, 0x01, 0x05], [0x01, 0x01, 0xff], [0x02, 0x01, 0x01]])) == "3109"
                + "0101ff020101020105")
    }

    @Test(
        arguments: [
            ([], 0),
            ([0x30, 0x00], 0),
            ([0x30, 0x81, 0x80] + [UInt8](repeating: 0, count: 128), 0),
            ([0x30, 0x82, 0x01, 0x00] + [UInt8](repeating: 0, count: 256), 0),
            ([0x30, 0x03, 0x02, 0x01, 0x05], 0),
        ] as [([UInt8], Int)])
    func elements_thatAreWhole_areRead(bytes: [UInt8], offset: Int) {
        let element = DER.element(bytes, at: offset)
        #expect((element?.end == bytes.count) == !bytes.isEmpty)
    }

    @Test(
        arguments: [
            [0x30, 0x05, 0x02, 0x01],  // shorter than it says
            [0x1f, 0x01, 0x00],  // a tag of more than one octet
            [0x30, 0x80, 0x00, 0x00],  // indefinite length
            [0x30, 0x85, 1, 0, 0, 0, 0],  // a length of five octets
            [0x30],  // no length
            [0x30, 0x81, 0x05, 0, 0, 0, 0, 0],  // a long form for a length under 128
            [0x30, 0x82, 0x00, 0x80] + [UInt8](repeating: 0, count: 128),  // a length with a leading zero octet
            [0x30, 0x84, 0x7f, 0xff, 0xff, 0xff],  // 2 GiB: more than any certificate here
        ] as [[UInt8]])
    func elements_thatAreCutOrNotDER_areNil(bytes: [UInt8]) {
        #expect(DER.element(bytes, at: 0) == nil)
    }

    @Test func aKeyIdentifier_isTheSHA1OfTheKeyBits_andAnythingElseIsAnError() throws {
        // A SubjectPublicKeyInfo of a made-up algorithm holding the bits 01 02 03.
        let info = DER.sequence([DER.sequence([DER.oid([1, 2, 3])]), DER.bitString([1, 2, 3])])
        #expect(try CertificateDER.keyIdentifier(info) == SHA1.digest([1, 2, 3]))
        for broken in [Array(info.dropLast()), info + [0], DER.sequence([DER.oid([1, 2, 3])]), [UInt8]()] {
            #expect(throws: TLSError("the public key is not a SubjectPublicKeyInfo")) {
                try CertificateDER.keyIdentifier(broken)
            }
        }
    }

    @Test(arguments: [
        (["localhost", "1.2.3"], "1.2.3 is not an IP address"),
        (["localhost", "::1::"], "::1:: is not an IP address"),
        (["bücher.example"], "bücher.example is not an ASCII host name: write it as IDNA does (xn--...)"),
        (["a b"], "a b is not an ASCII host name: write it as IDNA does (xn--...)"),
        ([], "a server's certificate names at least one host"),
    ])
    func aLeafWithAHostNoCertificateCanName_isAnErrorThatNamesIt(hosts: [String], message: String) throws {
        let info = DER.sequence([DER.sequence([DER.oid([1, 2, 3])]), DER.bitString([1])])
        var leaf = CertificateDER(
            serialNumber: [1], issuer: CertificateDER.name(commonName: "a"), subjectCommonName: "b", notBefore: 0,
            notAfter: 1, subjectPublicKeyInfo: info, issuerPublicKeyInfo: info, hosts: hosts)
        #expect(throws: TLSError(message)) { try leaf.toBeSigned() }
        leaf.hosts = ["xn--bcher-kva.example", "10.0.0.1", "fe80::1"]
        #expect(try leaf.toBeSigned().count > 100)
    }

    #if canImport(COpenSSL)
        /// The certificate's text as OpenSSL prints it (`X509_print`).
        static func printed(_ certificate: OpaquePointer) -> String {
            let bio = BIO_new(BIO_s_mem())!
            defer { BIO_free(bio) }
            X509_print(bio, certificate)
            var bytes = [UInt8](repeating: 0, count: 16_384)
            let count = BIO_read(bio, &bytes, Int32(bytes.count))
            return String(decoding: bytes.prefix(Int(max(count, 0))), as: UTF8.self)
        }

        /// OpenSSL's verdict on `certificate` with `authority` the one trusted root: `X509_V_OK`, or its error.
        static func verification(
            of certificate: OpaquePointer, trusting authority: OpaquePointer, purpose: Int32? = nil
        ) throws -> Int32 {
            let store = try #require(X509_STORE_new())
            defer { X509_STORE_free(store) }
            #expect(X509_STORE_add_cert(store, authority) == 1)
            let context = try #require(X509_STORE_CTX_new())
            defer { X509_STORE_CTX_free(context) }
            #expect(X509_STORE_CTX_init(context, store, certificate, nil) == 1)
            if let purpose { #expect(X509_STORE_CTX_set_purpose(context, purpose) == 1) }
            let verified = X509_verify_cert(context)
            let error = X509_STORE_CTX_get_error(context)
            #expect((verified == 1) == (error == X509_V_OK))
            return error
        }

        @Test func theAuthorityAndItsLeaf_readInOpenSSL_asAServersChain() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let authority = try LocalAuthority.loadOrCreate(in: folder)
            let identity = try authority.issue(hosts: ["api.example.com", "10.0.0.7"])
            let authorityCertificate = try #require(try PEM.certificates(authority.certificatePEM).first)
            defer { X509_free(authorityCertificate) }
            let leaf = try #require(try PEM.certificates(identity.certificateChainPEM).first)
            defer { X509_free(leaf) }

            #expect(X509_check_ca(authorityCertificate) != 0)
            #expect(X509_check_ca(leaf) == 0)
            #expect(X509_check_purpose(leaf, X509_PURPOSE_SSL_SERVER, 0) == 1)
            for host in ["localhost", "api.example.com"] {
                #expect(X509_check_host(leaf, host, host.utf8.count, 0, nil) == 1)
            }
            #expect(X509_check_host(leaf, "example.com", 11, 0, nil) == 0)
            for address in ["127.0.0.1", "::1", "10.0.0.7"] { #expect(X509_check_ip_asc(leaf, address, 0) == 1) }
            #expect(X509_check_ip_asc(leaf, "10.0.0.8", 0) == 0)
            #expect(X509_get_version(leaf) == 2)

            let authorityKey = try #require(X509_get0_pubkey(authorityCertificate))
            #expect(X509_verify(leaf, authorityKey) == 1)
            #expect(X509_verify(authorityCertificate, authorityKey) == 1)
            let printed = Self.printed(leaf)
            #expect(printed.contains("Signature Algorithm: ecdsa-with-SHA256"))
            #expect(printed.contains("Issuer: CN=\(LocalAuthority.commonName)"))
            #expect(printed.contains("Subject: CN=localhost"))
            #expect(printed.contains("X509v3 Basic Constraints: critical\n                CA:FALSE"))
            #expect(printed.contains("X509v3 Key Usage: critical\n                Digital Signature"))
            #expect(printed.contains("X509v3 Extended Key Usage: \n                TLS Web Server Authentication"))
            #expect(
                printed.contains(
                    "DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:api.example.com, "
                        + "IP Address:10.0.0.7"))
            let authorityPrinted = Self.printed(authorityCertificate)
            #expect(authorityPrinted.contains("CA:TRUE, pathlen:0"))
            #expect(authorityPrinted.contains("Certificate Sign, CRL Sign"))

            // The leaf's authority key identifier is the authority's subject key identifier, as OpenSSL finds it.
            let subjectKeyID = try #require(X509_get0_subject_key_id(authorityCertificate))
            let authorityKeyID = try #require(X509_get0_authority_key_id(leaf))
            #expect(ASN1_OCTET_STRING_cmp(subjectKeyID, authorityKeyID) == 0)

            // The chain verifies for a TLS server, now; the leaf is valid from an hour ago for a year.
            let verified = try Self.verification(
                of: leaf, trusting: authorityCertificate, purpose: X509_PURPOSE_SSL_SERVER)
            #expect(verified == X509_V_OK, "\(String(cString: X509_verify_cert_error_string(Int(verified))))")
            var days: Int32 = 0
            var seconds: Int32 = 0
            #expect(ASN1_TIME_diff(&days, &seconds, nil, X509_get0_notBefore(leaf)) == 1)
            #expect(days == 0 && (-3_700 ... -3_500).contains(seconds))
            #expect(ASN1_TIME_diff(&days, &seconds, nil, X509_get0_notAfter(leaf)) == 1)
            #expect(days == 364 || days == 365)
        }

        @Test(arguments: [
            (LocalAuthority.Leaf.expired, Int32(X509_V_ERR_CERT_HAS_EXPIRED)),
            (.notYetValid, Int32(X509_V_ERR_CERT_NOT_YET_VALID)),
            (.selfSigned, Int32(X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT)),
            (.unknownAuthority, Int32(X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY)),
        ])
        func eachBrokenLeaf_failsOpenSSLsCheck_withItsOwnError(leaf: LocalAuthority.Leaf, error: Int32) throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("authority-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let authority = try LocalAuthority.loadOrCreate(in: folder)
            let authorityCertificate = try #require(try PEM.certificates(authority.certificatePEM).first)
            defer { X509_free(authorityCertificate) }
            let certificate = try #require(try PEM.certificates(authority.issue(leaf: leaf).certificateChainPEM).first)
            defer { X509_free(certificate) }
            #expect(try Self.verification(of: certificate, trusting: authorityCertificate) == error)
        }
    #endif
}
