import Foundation
import TestTurns
import Testing

@testable import HTTPEngine

#if canImport(COpenSSL)
    import COpenSSL
#endif

/// PEM written and read without a TLS library, and a certificate's subject read from its DER: what lets the local
/// authority's files be made on a platform without OpenSSL.
@Suite(.takesTurns, .timeLimit(.minutes(1)))
struct PEMTextTests {
    @Test(arguments: [0, 1, 47, 48, 49, 200])
    func aBlock_isWrittenIn64CharacterLines_andReadsBackTheSame(count: Int) throws {
        let der = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 37) }
        let text = PEMText.encode(der, label: "CERTIFICATE")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "-----BEGIN CERTIFICATE-----")
        #expect(lines.dropLast().last == "-----END CERTIFICATE-----")
        #expect(lines.last == "", "the text ends with a newline")
        #expect(lines.dropFirst().dropLast(2).allSatisfy { $0.count <= 64 })
        #expect(lines.dropFirst().dropLast(3).allSatisfy { $0.count == 64 })
        #expect(try PEMText.decode(text, label: "CERTIFICATE") == [der])
    }

    @Test func blocksOfTheLabel_areReadInOrder_pastTextAndOtherLabels_andCRLFLines() throws {
        let text =
            "Subject: the first\r\n" + PEMText.encode([1, 2, 3], label: "CERTIFICATE")
            + PEMText.encode([9], label: "PRIVATE KEY") + "between\n"
            + PEMText.encode([4, 5], label: "CERTIFICATE").replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try PEMText.decode(text, label: "CERTIFICATE") == [[1, 2, 3], [4, 5]])
        #expect(try PEMText.decode(text, label: "PRIVATE KEY") == [[9]])
        #expect(try PEMText.decode(text, label: "EC PRIVATE KEY") == [])
    }

    @Test(arguments: [
        ("x\n-----BEGIN CERTIFICATE-----\nAQID\n", "the CERTIFICATE at line 2 has no END line"),
        (
            "-----BEGIN CERTIFICATE-----\nAQID\n-----BEGIN CERTIFICATE-----\n",
            "the CERTIFICATE at line 1 has no END line"
        ),
        (
            "\n\n-----BEGIN CERTIFICATE-----\nAQ!D\n-----END CERTIFICATE-----\n",
            "the CERTIFICATE at line 3 is not Base64"
        ),
        ("-----BEGIN CERTIFICATE-----\nAQI\n-----END CERTIFICATE-----\n", "the CERTIFICATE at line 1 is not Base64"),
    ])
    func aBrokenBlock_isAnErrorThatNamesItsLine(text: String, message: String) {
        #expect(throws: TLSError(message)) { try PEMText.decode(text, label: "CERTIFICATE") }
    }

    @Test(
        arguments: [
            ([], "empty"),
            ([0x30, 0x03, 0x02, 0x01, 0x01], "a sequence of an integer"),
            ([0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x01], "a TBSCertificate of a serial only"),
            ([0x31, 0x02, 0x30, 0x00], "a set"),
        ] as [([UInt8], String)])
    func bytesThatAreNoCertificate_haveNoSubject(bytes: [UInt8], what: String) {
        #expect(throws: TLSError("the authority's certificate is not an X.509 certificate"), "\(what)") {
            try CertificateMaker.subject(of: bytes)
        }
    }

    #if canImport(COpenSSL)
        /// The subject read from the DER is the Name OpenSSL reads, byte for byte, with and without the [0] version.
        @Test(arguments: [true, false])
        func theSubject_isOpenSSLs(withVersion: Bool) throws {
            let key = try SigningKey.make()
            var certificate = try CertificateMaker.certificate(
                .init(commonName: "subject of its own", isAuthority: true, validUntil: 3600), key: key,
                issuer: nil, now: 1_800_000_000)
            if !withVersion {
                // The TBSCertificate without its [0] version (a v1 certificate): the reader starts at the serial.
                let outer = try #require(DER.element(certificate, at: 0))
                let tbs = try #require(DER.element(certificate, at: outer.content.lowerBound))
                let version = try #require(DER.element(certificate, at: tbs.content.lowerBound))
                #expect(version.tag == 0xa0)
                let tbsV1 = DER.tlv(0x30, Array(certificate[version.end..<tbs.end]))
                certificate = DER.sequence([tbsV1, Array(certificate[tbs.end..<outer.end])])
            }
            let name = try CertificateMaker.subject(of: certificate)
            if withVersion {
                var start: UnsafePointer<UInt8>? = nil
                let x509 = try certificate.withUnsafeBufferPointer { buffer in
                    start = buffer.baseAddress
                    return try #require(d2i_X509(nil, &start, buffer.count))
                }
                defer { X509_free(x509) }
                var der: UnsafeMutablePointer<UInt8>?
                let count = i2d_X509_NAME(X509_get_subject_name(x509), &der)
                defer { copenssl_free(der) }
                #expect(name == Array(UnsafeBufferPointer(start: der, count: Int(count))))
            }
            #expect(name == CertificateDER.name(commonName: "subject of its own"))
        }
    #endif
}
