// Bounded waits for tests (`waitUntil`, `Gate`), shared with the stub side's test support.
@_exported import TestWaiting
