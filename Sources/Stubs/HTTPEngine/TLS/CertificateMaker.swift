/// X.509 certificates for P-256 keys: an authority, and leaves it signs for host names and addresses, as Apple's
/// trust rules for servers ask (subject alternative names, `serverAuth`, SHA-256, at most 825 days). Written by
/// `CertificateDER`, signed by the platform's `SigningKey`.
enum CertificateMaker {
    /// What a certificate says.
    struct Request {
        var commonName: String
        /// Host names and IP addresses (subject alternative names); none for an authority.
        var hosts: [String] = []
        var isAuthority = false
        /// Seconds from `now` the certificate starts being valid (negative: in the past).
        var validFrom: Int = -3600
        /// Seconds from `now` it stops being valid.
        var validUntil: Int
    }

    /// A certificate (DER) for `key` as `request` says, valid from `now` (seconds since 1970) plus the request's
    /// offsets, signed by `issuer` (its certificate, DER, and key), or by `key` itself when there is none.
    /// - Throws: `TLSError` when the issuer's certificate does not read, a host does not parse, or signing fails.
    static func certificate(
        _ request: Request, key: SigningKey, issuer: (certificate: [UInt8], key: SigningKey)?, now: Int
    ) throws(TLSError) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var serial = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        serial[0] = serial[0] & 0x7f | 0x40  // positive, 127 bits (RFC 5280 §4.1.2.2: at most 20 octets)
        let publicKeyInfo = try key.publicKeyInfo()
        var issuerName = CertificateDER.name(commonName: request.commonName)
        var issuerKeyInfo = publicKeyInfo
        if let issuer {
            issuerName = try subject(of: issuer.certificate)
            issuerKeyInfo = try issuer.key.publicKeyInfo()
        }
        let written = CertificateDER(
            serialNumber: serial, issuer: issuerName, subjectCommonName: request.commonName,
            notBefore: now + request.validFrom, notAfter: now + request.validUntil,
            subjectPublicKeyInfo: publicKeyInfo, issuerPublicKeyInfo: issuerKeyInfo,
            isAuthority: request.isAuthority, hosts: request.hosts)
        let toBeSigned = try written.toBeSigned()
        return CertificateDER.certificate(toBeSigned: toBeSigned, signature: try (issuer?.key ?? key).sign(toBeSigned))
    }

    /// The subject Name of `certificate` (DER) as it was written: a leaf's issuer, byte for byte (RFC 5280
    /// §4.1: Certificate, TBSCertificate, then the optional [0] version, serial, signature, issuer, validity,
    /// subject).
    /// - Throws: `TLSError` when the bytes are not a certificate's.
    static func subject(of certificate: [UInt8]) throws(TLSError) -> [UInt8] {
        let notOne = TLSError("the authority's certificate is not an X.509 certificate")
        guard let outer = DER.element(certificate, at: 0), outer.tag == 0x30,
            let tbs = DER.element(certificate, at: outer.content.lowerBound), tbs.tag == 0x30
        else { throw notOne }
        var offset = tbs.content.lowerBound
        guard let first = DER.element(certificate, at: offset) else { throw notOne }
        if first.tag == 0xa0 { offset = first.end }
        // The serial, the signature's algorithm, the issuer and the validity, then the subject.
        for tag: UInt8 in [0x02, 0x30, 0x30, 0x30] {
            guard let element = DER.element(certificate, at: offset), element.tag == tag, element.end <= tbs.end
            else { throw notOne }
            offset = element.end
        }
        guard let subject = DER.element(certificate, at: offset), subject.tag == 0x30, subject.end <= tbs.end else {
            throw notOne
        }
        return Array(certificate[offset..<subject.end])
    }
}
