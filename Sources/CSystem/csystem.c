#include "csystem.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t csystem_signal_fd = -1;

static void csystem_signal_handler(int sig) {
    int saved = errno;
    int fd = csystem_signal_fd;
    if (fd >= 0) {
        unsigned char byte = (unsigned char)sig;
        ssize_t ignored = write(fd, &byte, 1);  /* a full pipe drops the byte: the loop is awake anyway */
        (void)ignored;
    }
    errno = saved;
}

int csystem_route_signal_to_pipe(int sig, int write_fd) {
    csystem_signal_fd = write_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = csystem_signal_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(sig, &action, NULL);
}

int csystem_default_signal(int sig) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    return sigaction(sig, &action, NULL);
}

int csystem_ignore_signal(int sig) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_IGN;
    sigemptyset(&action.sa_mask);
    return sigaction(sig, &action, NULL);
}

static void csystem_agent_signal_set(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGUSR1);
    sigaddset(set, SIGHUP);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
}

int csystem_hold_agent_signals(void) {
    sigset_t set;
    csystem_agent_signal_set(&set);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int csystem_release_agent_signals(void) {
    sigset_t set;
    csystem_agent_signal_set(&set);
    return pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

int csystem_signal_is_ignored(int sig) {
    struct sigaction current;
    if (sigaction(sig, NULL, &current) != 0) return 0;
    return current.sa_handler == SIG_IGN;
}
