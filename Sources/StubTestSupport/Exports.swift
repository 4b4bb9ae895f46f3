// Bounded waits for tests (`waitUntil`, `Gate`), shared with the app side's test support.
@_exported import TestWaiting
