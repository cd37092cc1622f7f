#define _GNU_SOURCE
#include "CEpoll.h"

#include <pthread.h>

#include <sys/epoll.h>
#include <sys/eventfd.h>

const int CEPOLL_CTL_ADD = EPOLL_CTL_ADD;
const int CEPOLL_CTL_MOD = EPOLL_CTL_MOD;
const int CEPOLL_CTL_DEL = EPOLL_CTL_DEL;
const uint32_t CEPOLL_IN = EPOLLIN;
const uint32_t CEPOLL_OUT = EPOLLOUT;
const uint32_t CEPOLL_RDHUP = EPOLLRDHUP;
const uint32_t CEPOLL_ERR = EPOLLERR;
const uint32_t CEPOLL_HUP = EPOLLHUP;

int cepoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int cepoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event = {.events = events, .data = {.u64 = token}};
    return epoll_ctl(epfd, op, fd, &event);
}

int cepoll_wait(int epfd, uint32_t *events, uint64_t *tokens, int capacity, int timeout) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epfd, ready, capacity, timeout);
    for (int k = 0; k < count; k++) {
        events[k] = ready[k].events;
        tokens[k] = ready[k].data.u64;
    }
    return count;
}

int cepoll_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

void cepoll_name_thread(const char *name) { pthread_setname_np(pthread_self(), name); }
