import StubCore
import StubServer
import StubServerRemote
import Testing

/// Attaches what a failed check saw to the running test: the stubs' journal as `journal.har` (an HTTP Archive:
/// `JournalHAR`) and the failure's text as `report.txt`. Swift Testing's attachments come with Swift 6.2's
/// compiler; `swift test --attachments-path DIR` writes them to DIR, and Xcode shows them with the test.
func attachEvidence(of server: any StubControl, report: String, sourceLocation: SourceLocation) async {
    #if compiler(>=6.2)
        let entries = (try? await server.journal(JournalQuery())) ?? []
        let origin =
            switch server {
            case let server as StubServer: server.baseURL.absoluteString
            case let remote as RemoteStubs: remote.url.absoluteString
            default: "http://127.0.0.1"
            }
        Attachment.record(
            JournalHAR.document(entries, origin: origin), named: "journal.har", sourceLocation: sourceLocation)
        Attachment.record(report, named: "report.txt", sourceLocation: sourceLocation)
    #endif
}
