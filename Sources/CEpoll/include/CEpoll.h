// What Swift's Glibc module lacks for the daemon's event loop: epoll, eventfd and naming a thread.
// `struct epoll_event` is packed on x86_64, which Swift cannot import faithfully, so the calls that take one are
// wrapped here with plain arguments.
#ifndef CEPOLL_H
#define CEPOLL_H

#include <stdint.h>

/// `epoll_create1(EPOLL_CLOEXEC)`.
int cepoll_create(void);

/// `epoll_ctl(epfd, op, fd, {events, token})`; `op` is one of the CEPOLL_CTL_ constants.
int cepoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token);

/// `epoll_wait` into two arrays of `capacity`: each ready descriptor's events and token.
int cepoll_wait(int epfd, uint32_t *events, uint64_t *tokens, int capacity, int timeout);

/// `eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)`.
int cepoll_eventfd(void);

/// Names the calling thread (at most 15 bytes are kept), as `top -H` and `perf` show it.
void cepoll_name_thread(const char *name);

extern const int CEPOLL_CTL_ADD;
extern const int CEPOLL_CTL_MOD;
extern const int CEPOLL_CTL_DEL;
extern const uint32_t CEPOLL_IN;
extern const uint32_t CEPOLL_OUT;
extern const uint32_t CEPOLL_RDHUP;
extern const uint32_t CEPOLL_ERR;
extern const uint32_t CEPOLL_HUP;

#endif
