// libFuzzer target for the local authority's files as the engine reads them back: PEM blocks (PEMText) and a
// certificate's subject (CertificateMaker.subject), compiled with Sources/Stubs/HTTPEngine by Fuzz/run.sh. Byte 0
// chooses the label; the rest is the file, read as text and as DER. Blocks that decode encode to text that decodes
// to the same blocks; a subject read is one whole SEQUENCE found in the certificate's bytes.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCertificateFiles(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let labels = ["CERTIFICATE", "PRIVATE KEY", "EC PRIVATE KEY"]
    let label = labels[Int(bytes[0]) % labels.count]
    let file = Array(bytes.dropFirst())
    if let blocks = try? PEMText.decode(String(decoding: file, as: UTF8.self), label: label) {
        let again = blocks.map { PEMText.encode($0, label: label) }.joined()
        precondition((try? PEMText.decode(again, label: label)) == blocks, "\(blocks)")
    }
    if let subject = try? CertificateMaker.subject(of: file) {
        precondition(subject.first == 0x30 && DER.element(subject, at: 0)?.end == subject.count)
        precondition(file.firstRange(of: subject) != nil)
    }
    return 0
}
