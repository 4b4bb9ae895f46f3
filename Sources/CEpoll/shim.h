// epoll is Linux's and not part of the Swift toolchain's Glibc module: this header brings it in for the
// engine's EpollPoller. Elsewhere it declares nothing.
#ifdef __linux__
#include <sys/epoll.h>
#endif
