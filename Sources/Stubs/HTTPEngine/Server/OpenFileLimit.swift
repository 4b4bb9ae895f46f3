#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open descriptors, and how many connections it leaves room for.
package enum OpenFileLimit {
    /// The soft `RLIMIT_NOFILE` of this process; nil when unlimited or unreadable.
    package static func current() -> Int? {
        var limit = rlimit()
        guard getrlimit(resourceNoFile, &limit) == 0, limit.rlim_cur < unlimited else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Connections a server may hold under a file limit: the limit less a margin for the listener, the loop's
    /// own descriptors, fixture files, databases and a test's client sockets (a quarter, at most 256), at least 1.
    /// Without a limit: 1,048,576.
    package static func connections(underFileLimit fileLimit: Int?) -> Int {
        guard let fileLimit else { return 1 << 20 }
        let margin = min(256, fileLimit / 4)
        return min(max(1, fileLimit - margin), 1 << 20)
    }

    /// Raises the soft limit to the hard one (on Apple platforms at most `OPEN_MAX`, which is what the kernel
    /// accepts there). For a program's start-up, not a library's: the limit is the whole process's.
    /// - Returns: the soft limit before and after; equal when it was already at the hard limit or raising failed.
    @discardableResult
    package static func raiseToHardLimit() -> (before: Int?, after: Int?) {
        var limit = rlimit()
        guard getrlimit(resourceNoFile, &limit) == 0 else { return (nil, nil) }
        let before = current()
        var target = limit.rlim_max
        // xnu bsd/sys/syslimits.h:108 `#define OPEN_MAX 10240`; bsd/man/man2/getrlimit.2:217-219: setrlimit no
        // longer accepts RLIM_INFINITY for RLIMIT_NOFILE, "Use rlim_cur = min(OPEN_MAX, rlim_max)".
        #if canImport(Darwin)
            target = min(target, rlim_t(OPEN_MAX))
        #endif
        guard target > limit.rlim_cur else { return (before, before) }
        limit.rlim_cur = target
        _ = setrlimit(resourceNoFile, &limit)
        return (before, current())
    }

    // The C library's no-limit value is a compound macro on both systems, which Swift's importer drops, so it is
    // written here as a number.
    #if canImport(Glibc)
        private static let resourceNoFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        /// glibc's no-limit value, `((__rlim_t) -1)` (glibc, `bits/resource.h`).
        private static let unlimited = rlim_t.max
    #else
        /// `#define RLIMIT_NOFILE 8`, a plain number, which Swift imports (xnu `bsd/sys/resource.h:515`).
        private static let resourceNoFile = RLIMIT_NOFILE
        /// Darwin's no-limit value, `(((__uint64_t)1 << 63) - 1)` (xnu `bsd/sys/resource.h:496`; `rlim_t` is
        /// `__uint64_t`, line 95). A local module defining that macro the same way is not imported by this
        /// toolchain, so a Darwin build naming it would not compile.
        private static let unlimited = rlim_t(Int64.max)
    #endif
}
