// What a user of this product reaches without importing the core: the list is the admin module's, which both
// transports mount.
@_exported import StubAdmin
