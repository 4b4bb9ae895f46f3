import StubCore
import XCTest

/// Attaches what a failed check saw to the running test, as the Swift Testing helpers do: the stubs' journal as
/// `journal.har` (an HTTP Archive) and the failure's text as `report.txt`, in an activity Xcode shows with the
/// test. On Apple platforms only: swift-corelibs-xctest has no attachments (there the failure's message is all).
func attachEvidence(of server: any StubControl, report: String) async {
    // XCTContext.runActivity(named:block:) is @MainActor, its block gets the activity:
    // developer.apple.com/documentation/xctest/xctcontext/runactivity(named:block:); XCTAttachment(string:), its
    // `name` and XCTActivity.add(_:): developer.apple.com/documentation/xctest/xctattachment/init(string:),
    // developer.apple.com/documentation/xctest/xctattachment/name, developer.apple.com/documentation/xctest/xctactivity/add(_:)
    #if canImport(Darwin)
        let files = [("journal.har", await JournalHAR.document(of: server)), ("report.txt", report)]
        await MainActor.run {
            XCTContext.runActivity(named: "Stub server evidence") { activity in
                for (name, text) in files {
                    let attachment = XCTAttachment(string: text)
                    attachment.name = name
                    activity.add(attachment)
                }
            }
        }
    #endif
}
