/// An X.509 v3 certificate of the local authority's, written as DER (RFC 5280 §4.1): the portable half of making
/// one. The key and the ECDSA signature over `toBeSigned()` are the platform's (OpenSSL on Linux).
struct CertificateDER {
    /// The serial number's bytes, big-endian; positive and at most 20 octets (RFC 5280 §4.1.2.2).
    var serialNumber: [UInt8]
    /// The issuer's Name, as DER (`name(commonName:)`, or the issuer certificate's subject as it was written).
    var issuer: [UInt8]
    var subjectCommonName: String
    /// Seconds since 1970 (UTC), either side of it.
    var notBefore: Int
    var notAfter: Int
    /// The certified key, as a SubjectPublicKeyInfo (DER).
    var subjectPublicKeyInfo: [UInt8]
    /// The signing key's SubjectPublicKeyInfo (the subject's own for a self-signed certificate).
    var issuerPublicKeyInfo: [UInt8]
    var isAuthority = false
    /// Host names and IP addresses for the subject alternative names; none for an authority.
    var hosts: [String] = []

    /// ecdsa-with-SHA256 (RFC 5758 §3.2), with no parameters: the signature of every certificate made here.
    static let signatureAlgorithm = DER.sequence([DER.oid([1, 2, 840, 10045, 4, 3, 2])])

    /// A Name of one common name (RFC 5280 §4.1.2.4), as a UTF8String.
    static func name(commonName: String) -> [UInt8] {
        DER.sequence([DER.set([DER.sequence([DER.oid([2, 5, 4, 3]), DER.tlv(0x0c, Array(commonName.utf8))])])])
    }

    /// The TBSCertificate, the bytes a signature covers.
    /// - Throws: `TLSError` when a key is not a SubjectPublicKeyInfo or an address does not parse.
    func toBeSigned() throws(TLSError) -> [UInt8] {
        DER.sequence([
            DER.tlv(0xa0, DER.integer([2])),  // [0] EXPLICIT version v3
            DER.integer(serialNumber),
            Self.signatureAlgorithm,
            issuer,
            DER.sequence([DER.time(notBefore), DER.time(notAfter)]),
            Self.name(commonName: subjectCommonName),
            subjectPublicKeyInfo,
            DER.tlv(0xa3, DER.sequence(try extensions())),  // [3] EXPLICIT extensions
        ])
    }

    /// The Certificate: `toBeSigned` and its signature (an ECDSA-Sig-Value, DER).
    static func certificate(toBeSigned: [UInt8], signature: [UInt8]) -> [UInt8] {
        DER.sequence([toBeSigned, signatureAlgorithm, DER.bitString(signature)])
    }

    /// The extensions Apple's and OpenSSL's checks ask of an authority and of a server's leaf (RFC 5280 §4.2).
    private func extensions() throws(TLSError) -> [[UInt8]] {
        var made = [
            Self.certificateExtension([2, 5, 29, 14], DER.octetString(try Self.keyIdentifier(subjectPublicKeyInfo))),
            // AuthorityKeyIdentifier: [0] IMPLICIT keyIdentifier.
            Self.certificateExtension(
                [2, 5, 29, 35], DER.sequence([DER.tlv(0x80, try Self.keyIdentifier(issuerPublicKeyInfo))])),
        ]
        if isAuthority {
            made += [
                // BasicConstraints: cA TRUE, pathLenConstraint 0.
                Self.certificateExtension(
                    [2, 5, 29, 19], DER.sequence([DER.boolean(true), DER.integer([0])]), critical: true),
                // KeyUsage: keyCertSign (bit 5) and cRLSign (bit 6); the last bit unused.
                Self.certificateExtension([2, 5, 29, 15], DER.tlv(0x03, [1, 0x06]), critical: true),
            ]
        } else {
            guard !hosts.isEmpty else { throw TLSError("a server's certificate names at least one host") }
            var names: [[UInt8]] = []
            for host in hosts {
                guard host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
                    throw TLSError("\(host) is not an ASCII host name: write it as IDNA does (xn--...)")
                }
                // GeneralName: [7] IMPLICIT iPAddress, or [2] IMPLICIT dNSName.
                names.append(
                    Self.isAddress(host) ? DER.tlv(0x87, try Self.address(host)) : DER.tlv(0x82, Array(host.utf8)))
            }
            made += [
                // BasicConstraints: cA FALSE (the default, so empty).
                Self.certificateExtension([2, 5, 29, 19], DER.sequence([]), critical: true),
                // KeyUsage: digitalSignature (bit 0); seven bits unused.
                Self.certificateExtension([2, 5, 29, 15], DER.tlv(0x03, [7, 0x80]), critical: true),
                // ExtKeyUsage: id-kp-serverAuth.
                Self.certificateExtension([2, 5, 29, 37], DER.sequence([DER.oid([1, 3, 6, 1, 5, 5, 7, 3, 1])])),
                Self.certificateExtension([2, 5, 29, 17], DER.sequence(names)),
            ]
        }
        return made
    }

    private static func certificateExtension(_ id: [UInt], _ value: [UInt8], critical: Bool = false) -> [UInt8] {
        DER.sequence([DER.oid(id)] + (critical ? [DER.boolean(true)] : []) + [DER.octetString(value)])
    }

    /// The SHA-1 of the key's subjectPublicKey bits, as RFC 5280 §4.2.1.2 (1) makes a key identifier.
    static func keyIdentifier(_ publicKeyInfo: [UInt8]) throws(TLSError) -> [UInt8] {
        // SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }
        guard let info = DER.element(publicKeyInfo, at: 0), info.tag == 0x30, info.end == publicKeyInfo.count,
            let algorithm = DER.element(publicKeyInfo, at: info.content.lowerBound), algorithm.tag == 0x30,
            let key = DER.element(publicKeyInfo, at: algorithm.end), key.tag == 0x03, key.end == info.end,
            key.content.count > 1, publicKeyInfo[key.content.lowerBound] == 0
        else { throw TLSError("the public key is not a SubjectPublicKeyInfo") }
        return SHA1.digest(Array(publicKeyInfo[(key.content.lowerBound + 1)..<key.content.upperBound]))
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber })
    }

    /// The 4 or 16 bytes of an IPv4 or IPv6 address.
    private static func address(_ host: String) throws(TLSError) -> [UInt8] {
        guard let bytes = Socket.addressBytes(host) else { throw TLSError("\(host) is not an IP address") }
        return bytes
    }
}

/// The few DER encodings (ITU-T X.690 §8, §10) a certificate needs, and reading one element's bounds.
enum DER {
    /// Tag, definite length (short form under 128, else long form) and content.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var length: [UInt8] = []
        if content.count < 0x80 {
            length = [UInt8(content.count)]
        } else {
            var count = content.count
            while count > 0 {
                length.insert(UInt8(count & 0xff), at: 0)
                count >>= 8
            }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return [tag] + length + content
    }

    static func sequence(_ elements: [[UInt8]]) -> [UInt8] { tlv(0x30, elements.flatMap { $0 }) }

    /// A SET OF: its elements in ascending order of their encodings, as DER asks (X.690 §11.6).
    static func set(_ elements: [[UInt8]]) -> [UInt8] {
        tlv(0x31, elements.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }

    /// A non-negative INTEGER from its big-endian magnitude, in the fewest octets (a 0 first when the top bit is
    /// set, so it stays positive).
    static func integer(_ magnitude: [UInt8]) -> [UInt8] {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.first.map({ $0 & 0x80 != 0 }) ?? true { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    static func boolean(_ value: Bool) -> [UInt8] { tlv(0x01, [value ? 0xff : 0]) }

    static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }

    /// A BIT STRING of whole octets.
    static func bitString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x03, [0] + bytes) }

    /// An OBJECT IDENTIFIER: the first two arcs in one octet, every arc base 128, high bit on all but its last.
    static func oid(_ arcs: [UInt]) -> [UInt8] {
        var content: [UInt8] = []
        for arc in [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2) {
            var septets = [UInt8(arc & 0x7f)]
            var rest = arc >> 7
            while rest > 0 {
                septets.insert(UInt8(rest & 0x7f) | 0x80, at: 0)
                rest >>= 7
            }
            content += septets
        }
        return tlv(0x06, content)
    }

    /// A Time as RFC 5280 §4.1.2.5 asks: UTCTime `YYMMDDHHMMSSZ` through 2049, GeneralizedTime
    /// `YYYYMMDDHHMMSSZ` from 2050.
    static func time(_ seconds: Int) -> [UInt8] {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let second = seconds - days * 86_400
        let (year, month, day) = civil(days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let rest = two(month) + two(day) + two(second / 3600) + two(second / 60 % 60) + two(second % 60) + "Z"
        if (1950...2049).contains(year) { return tlv(0x17, Array((two(year % 100) + rest).utf8)) }
        return tlv(0x18, Array((String(year) + rest).utf8))
    }

    /// The proleptic Gregorian year, month and day `days` after 1970-01-01 (Hinnant's days-to-civil).
    static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The element starting at `offset` in `bytes`: its tag, its content's range and where it ends; nil when the
    /// bytes there are not one whole element with a single-octet tag and a definite length in the fewest octets
    /// (X.690 §10.1), under 16 MiB.
    static func element(_ bytes: [UInt8], at offset: Int) -> (tag: UInt8, content: Range<Int>, end: Int)? {
        guard offset >= 0, offset < bytes.count - 1, bytes[offset] & 0x1f != 0x1f else { return nil }
        var start = offset + 2
        var length = Int(bytes[offset + 1])
        if length & 0x80 != 0 {
            let octets = length & 0x7f
            guard octets > 0, octets <= 3, octets <= bytes.count - start, bytes[start] != 0 else { return nil }
            length = bytes[start..<(start + octets)].reduce(0) { $0 << 8 | Int($1) }
            guard length >= 0x80 else { return nil }
            start += octets
        }
        guard length <= bytes.count - start else { return nil }
        return (bytes[offset], start..<(start + length), start + length)
    }
}
