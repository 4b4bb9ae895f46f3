// Linux calls the Swift toolchain's Glibc module does not bring in: epoll, memfd_create and two posix_spawn file
// actions (which glibc declares only under _GNU_SOURCE). Used by the engine's EpollPoller and FileBody, and by the
// tests' ChildProcess. Elsewhere this header declares nothing.
#ifdef __linux__
#include <spawn.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

/// glibc 2.29 (spawn.h, under __USE_GNU; /usr/include/spawn.h:204 in Debian 12): the child changes to `path`
/// before it runs its program.
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *__restrict actions, const char *__restrict path);

/// glibc 2.34 (spawn.h, under __USE_GNU; /usr/include/spawn.h:219 in Debian 12): the child closes every
/// descriptor from `from` up.
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// memfd_create(name, MFD_CLOEXEC) through its system call: an anonymous file in memory.
static inline int clinux_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1u);
}
#endif
