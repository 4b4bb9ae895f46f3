// The floor of this machine for bench/load.sh: one thread, one epoll set, and one fixed answer (the file given,
// as application/json) to every request, found by its blank line; no parsing, no routing, no logging. Not a
// usable server: it shows how fast any server could answer here, with wrk on the same CPUs.
//
//   cc -O2 -o .build/bench-floor bench/floor.c && .build/bench-floor FILE READY_FILE
//
// Listens on 127.0.0.1 on an ephemeral port and writes http://127.0.0.1:PORT to READY_FILE once it accepts.
// Linux only (epoll).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

// What one connection still owes: the answers asked for and not yet written, and how far into the current one.
struct connection {
    int fd;
    size_t owed;    // whole answers not yet fully written
    size_t offset;  // bytes of the current answer written
    int matched;    // bytes of "\r\n\r\n" seen at the end of the last read
};

static char *answer;
static size_t answer_length;

static void fail(const char *what) {
    perror(what);
    exit(1);
}

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) fail(path);
    struct stat info;
    if (fstat(fileno(file), &info) != 0) fail("fstat");
    char *bytes = malloc((size_t)info.st_size);
    if (!bytes || fread(bytes, 1, (size_t)info.st_size, file) != (size_t)info.st_size) fail("read");
    fclose(file);
    *length = (size_t)info.st_size;
    return bytes;
}

// Writes what the connection owes until done or the socket is full. Returns -1 when the connection failed.
static int flush(struct connection *c) {
    while (c->owed > 0) {
        ssize_t sent = send(c->fd, answer + c->offset, answer_length - c->offset, MSG_NOSIGNAL);
        if (sent < 0) return errno == EAGAIN ? 0 : -1;
        c->offset += (size_t)sent;
        if (c->offset == answer_length) {
            c->offset = 0;
            c->owed--;
        }
    }
    return 0;
}

static void finish(int poller, struct connection *c) {
    epoll_ctl(poller, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    free(c);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s FILE READY_FILE\n", argv[0]);
        return 2;
    }
    size_t body_length;
    char *body = read_file(argv[1], &body_length);
    char head[256];
    int head_length = snprintf(head, sizeof head,
                               "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n",
                               body_length);
    answer_length = (size_t)head_length + body_length;
    answer = malloc(answer_length);
    if (!answer) fail("malloc");
    memcpy(answer, head, (size_t)head_length);
    memcpy(answer + head_length, body, body_length);

    int listener = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (listener < 0) fail("socket");
    int one = 1;
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0) fail("bind");
    if (listen(listener, 4096) != 0) fail("listen");
    socklen_t address_length = sizeof address;
    if (getsockname(listener, (struct sockaddr *)&address, &address_length) != 0) fail("getsockname");

    int poller = epoll_create1(EPOLL_CLOEXEC);
    if (poller < 0) fail("epoll_create1");
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = NULL};
    if (epoll_ctl(poller, EPOLL_CTL_ADD, listener, &event) != 0) fail("epoll_ctl");

    FILE *ready = fopen(argv[2], "w");
    if (!ready) fail(argv[2]);
    fprintf(ready, "http://127.0.0.1:%d\n", ntohs(address.sin_port));
    fclose(ready);

    struct epoll_event events[256];
    char scratch[65536];
    for (;;) {
        int count = epoll_wait(poller, events, 256, -1);
        if (count < 0) {
            if (errno == EINTR) continue;
            fail("epoll_wait");
        }
        for (int i = 0; i < count; i++) {
            struct connection *c = events[i].data.ptr;
            if (!c) {
                int client;
                while ((client = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    c = calloc(1, sizeof *c);
                    if (!c) fail("calloc");
                    c->fd = client;
                    struct epoll_event added = {.events = EPOLLIN, .data.ptr = c};
                    if (epoll_ctl(poller, EPOLL_CTL_ADD, client, &added) != 0) fail("epoll_ctl");
                }
                continue;
            }
            int failed = 0;
            if (events[i].events & EPOLLIN) {
                for (;;) {
                    ssize_t got = recv(c->fd, scratch, sizeof scratch, 0);
                    if (got == 0 || (got < 0 && errno != EAGAIN)) {
                        failed = 1;
                        break;
                    }
                    if (got < 0) break;
                    // Count the requests that end in this read: one answer per "\r\n\r\n", which may straddle reads.
                    static const char end[] = "\r\n\r\n";
                    for (ssize_t k = 0; k < got; k++) {
                        c->matched = scratch[k] == end[c->matched] ? c->matched + 1 : (scratch[k] == '\r');
                        if (c->matched == 4) {
                            c->owed++;
                            c->matched = 0;
                        }
                    }
                }
            }
            if (!failed && flush(c) != 0) failed = 1;
            if (failed) {
                finish(poller, c);
                continue;
            }
            struct epoll_event changed = {.events = EPOLLIN | (c->owed ? EPOLLOUT : 0), .data.ptr = c};
            epoll_ctl(poller, EPOLL_CTL_MOD, c->fd, &changed);
        }
    }
}
