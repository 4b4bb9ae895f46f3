import StubCore
import Testing

/// Attaches what a failed check saw to the running test: the stubs' journal as `journal.har` (an HTTP Archive:
/// `JournalHAR`) and the failure's text as `report.txt`. Swift Testing's attachments come with Swift 6.2's
/// compiler; `swift test --attachments-path DIR` writes them to DIR, and Xcode shows them with the test.
func attachEvidence(of server: any StubControl, report: String, sourceLocation: SourceLocation) async {
    #if compiler(>=6.2)
        Attachment.record(await JournalHAR.document(of: server), named: "journal.har", sourceLocation: sourceLocation)
        Attachment.record(report, named: "report.txt", sourceLocation: sourceLocation)
    #endif
}
