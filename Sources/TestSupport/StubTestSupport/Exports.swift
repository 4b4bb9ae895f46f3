// What both sides' test support share: bounded waits (`waitUntil`, `Gate`) and `RefusingPort`.
@_exported import SharedTestSupport
