// Linux calls the Swift toolchain's Glibc module does not bring in: epoll, and memfd_create (which glibc declares
// only under _GNU_SOURCE). Used by the engine's EpollPoller and FileBody. Elsewhere this header declares nothing.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

/// memfd_create(name, MFD_CLOEXEC) through its system call: an anonymous file in memory.
static inline int clinux_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1u);
}
#endif
