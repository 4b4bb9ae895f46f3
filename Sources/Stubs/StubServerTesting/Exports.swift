// The servers, the transports and what they hand on: `StubHarness` says what a test reaches with this one import.
@_exported import StubHarness
