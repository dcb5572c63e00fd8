/* mkostemp(3) */
#define _GNU_SOURCE
#include "csystem.h"
#include <fcntl.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/inotify.h>
#include <sys/timerfd.h>
#include <poll.h>
#include <time.h>
#include <limits.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>

/* Lock-free atomic: written by the loop's thread, read by the handler on whichever thread the signal
   lands (SIGWINCH, SIGTSTP and SIGCONT are not held, so any thread may take them). */
static atomic_int csystem_signal_fd = -1;

static void csystem_signal_handler(int sig) {
    int saved = errno;
    int fd = atomic_load_explicit(&csystem_signal_fd, memory_order_relaxed);
    if (fd >= 0) {
        unsigned char byte = (unsigned char)sig;
        ssize_t ignored = write(fd, &byte, 1);  /* a full pipe drops the byte: the loop is awake anyway */
        (void)ignored;
    }
    errno = saved;
}

int csystem_route_signal_to_pipe(int sig, int write_fd) {
    atomic_store_explicit(&csystem_signal_fd, write_fd, memory_order_relaxed);
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

int csystem_watch_folder_writes(const char *dir) {
    int fd = inotify_init1(IN_CLOEXEC);
    if (fd < 0) return -1;
    uint32_t mask = IN_MODIFY | IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM
        | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;  /* a file where the folder should be: ENOTDIR */
    if (inotify_add_watch(fd, dir, mask) < 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    /* The folders above it, for themselves going: `mv data old` moves the store's folder off its path
       without an event on the folder. Best effort: one that cannot be watched is left out. */
    char resolved[PATH_MAX];
    if (realpath(dir, resolved) != NULL) {
        for (char *slash = strrchr(resolved, '/'); slash != NULL && slash != resolved; slash = strrchr(resolved, '/')) {
            *slash = '\0';
            (void)inotify_add_watch(fd, resolved, IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
        }
    }
    return fd;
}

static long long csystem_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int csystem_wait_for_write(int fd, const char *prefix, long long until_ms, int output_fd) {
    /* Aligned for struct inotify_event; room for many events with names up to NAME_MAX. */
    char buffer[16 * (sizeof(struct inotify_event) + 256)] __attribute__((aligned(__alignof__(struct inotify_event))));
    size_t prefix_length = strlen(prefix);
    int timer = -1;
    if (until_ms >= 0) {
        timer = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
        if (timer < 0) return -1;
        struct itimerspec when;
        memset(&when, 0, sizeof when);
        when.it_value.tv_sec = (time_t)(until_ms / 1000);
        when.it_value.tv_nsec = (long)(until_ms % 1000) * 1000000L;
        /* A moment already past (or 0, which would disarm the timer) fires at once. */
        if (when.it_value.tv_sec <= 0 && when.it_value.tv_nsec <= 0) when.it_value.tv_nsec = 1;
        if (timerfd_settime(timer, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &when, NULL) != 0) {
            int saved = errno;
            close(timer);
            errno = saved;
            return -1;
        }
    }
    int result;
    for (;;) {
        struct pollfd p[3] = {
            { .fd = fd, .events = POLLIN },
            { .fd = timer, .events = POLLIN },   /* a negative fd is skipped by poll(2) */
            { .fd = output_fd, .events = 0 },    /* POLLERR and POLLHUP are reported whatever is asked */
        };
        if (poll(p, 3, -1) < 0) { result = -1; break; }
        if (p[2].revents & (POLLERR | POLLHUP | POLLNVAL)) { result = 3; break; }
        if (p[1].revents) { result = 0; break; } /* expired, or ECANCELED: the clock was set */
        if (!(p[0].revents & POLLIN)) continue;
        ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0) { result = -1; break; }
        int matched = 0, gone = 0;
        for (char *q = buffer; q < buffer + n;) {
            struct inotify_event *event = (struct inotify_event *)q;
            if (event->mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED)) gone = 1;
            if (event->len > 0 && strncmp(event->name, prefix, prefix_length) == 0) matched = 1;
            q += sizeof(struct inotify_event) + event->len;
        }
        if (gone) { result = 2; break; }
        if (matched) { result = 1; break; }
    }
    if (timer >= 0) {
        int saved = errno;
        close(timer);
        errno = saved;
    }
    return result;
}

/* The one file an interrupted export must not leave behind (see csystem.h). */
static char csystem_partial_path[4096];
/* Set (release) after the path is written, read (acquire) by the handler on any thread. */
static atomic_int csystem_partial_armed = 0;
/* Held by the one export that armed the handler, from csystem_unlink_on_signal to
   csystem_forget_unlink_on_signal (the same thread: replaceAtomically is synchronous). Another export
   in the same process meanwhile gets -1 (EBUSY) and no handler, instead of overwriting the path and the
   saved actions of the first. */
static pthread_mutex_t csystem_partial_owner = PTHREAD_MUTEX_INITIALIZER;
static const int csystem_partial_signals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction csystem_partial_previous[3];
/* Which of them this file's handler was put on (a signal ignored, as SIGHUP under nohup, is left so). */
static int csystem_partial_installed[3];

static void csystem_partial_handler(int sig) {
    if (atomic_load_explicit(&csystem_partial_armed, memory_order_acquire)) unlink(csystem_partial_path); /* unlink(2) is async-signal-safe */
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(sig, &action, NULL);
    raise(sig); /* delivered when this handler returns: the default action, as if never caught */
}

int csystem_unlink_on_signal(const char *path) {
    size_t n = strlen(path);
    if (n >= sizeof csystem_partial_path) { errno = ENAMETOOLONG; return -1; }
    if (pthread_mutex_trylock(&csystem_partial_owner) != 0) { errno = EBUSY; return -1; } /* another export's */
    memcpy(csystem_partial_path, path, n + 1);
    atomic_store_explicit(&csystem_partial_armed, 1, memory_order_release);
    for (int i = 0; i < 3; i++) {
        csystem_partial_installed[i] = 0;
        struct sigaction before;
        if (sigaction(csystem_partial_signals[i], NULL, &before) != 0) goto failed;
        /* An ignored signal does not end the export (`nohup fixcast export`): no file to remove. */
        if (before.sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = csystem_partial_handler;
        sigemptyset(&action.sa_mask);
        for (int j = 0; j < 3; j++) sigaddset(&action.sa_mask, csystem_partial_signals[j]);
        if (sigaction(csystem_partial_signals[i], &action, &csystem_partial_previous[i]) != 0) goto failed;
        csystem_partial_installed[i] = 1;
    }
    return 0;
failed: {
        int saved = errno;
        csystem_forget_unlink_on_signal(); /* puts back what was installed and lets go of the slot */
        errno = saved;
        return -1;
    }
}

void csystem_forget_unlink_on_signal(void) {
    atomic_store_explicit(&csystem_partial_armed, 0, memory_order_release);
    for (int i = 0; i < 3; i++) {
        if (csystem_partial_installed[i]) sigaction(csystem_partial_signals[i], &csystem_partial_previous[i], NULL);
        csystem_partial_installed[i] = 0;
    }
    pthread_mutex_unlock(&csystem_partial_owner);
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

/* 1 reaped, 0 still running, -1 failed (errno set). */
static int csystem_reap(int pid, int *status) {
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid) return 1;
        if (r == 0) return 0;
        if (errno != EINTR) return -1;
    }
}

int csystem_wait_child(int pid, int timeout_ms, int *status) {
    long long deadline = csystem_now_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
    int pidfd = -1;
#ifdef SYS_pidfd_open
    pidfd = (int)syscall(SYS_pidfd_open, pid, 0); /* close-on-exec by default */
#endif
    for (;;) {
        int reaped = csystem_reap(pid, status);
        if (reaped != 0) {
            int saved = errno;
            if (pidfd >= 0) close(pidfd);
            errno = saved;
            return reaped;
        }
        long long left = deadline - csystem_now_ms();
        if (left <= 0) {
            if (pidfd >= 0) close(pidfd);
            return 0;
        }
        if (pidfd >= 0) {
            struct pollfd p = {.fd = pidfd, .events = POLLIN, .revents = 0};
            if (poll(&p, 1, left > INT_MAX ? INT_MAX : (int)left) < 0 && errno != EINTR) {
                int saved = errno;
                close(pidfd);
                errno = saved;
                return -1;
            }
        } else {
            struct timespec step = {.tv_sec = 0, .tv_nsec = 20 * 1000 * 1000};
            nanosleep(&step, NULL);
        }
    }
}

/* The terminal to give back on a fatal signal (see csystem.h). Static: a handler may touch nothing else. */
static struct termios csystem_terminal_saved;
static int csystem_terminal_input = -1;
static int csystem_terminal_output = -1;
static volatile sig_atomic_t csystem_terminal_armed = 0;
static const int csystem_fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT, SIGQUIT};
#define CSYSTEM_FATAL_COUNT ((int)(sizeof csystem_fatal_signals / sizeof csystem_fatal_signals[0]))
static struct sigaction csystem_fatal_previous[CSYSTEM_FATAL_COUNT];
static int csystem_fatal_installed = 0;
/* A stack of its own: a crash from running out of stack still gets the terminal back. */
static char csystem_fatal_stack[64 * 1024];

static void csystem_fatal_handler(int sig) {
    if (csystem_terminal_armed) {
        csystem_terminal_armed = 0;
        static const char back[] = "\033[?25h\033[?1049l";
        /* write(2) and tcsetattr(3) are async-signal-safe. */
        ssize_t ignored = write(csystem_terminal_output, back, sizeof back - 1);
        (void)ignored;
        tcsetattr(csystem_terminal_input, TCSANOW, &csystem_terminal_saved);
    }
    for (int i = 0; i < CSYSTEM_FATAL_COUNT; i++) {
        if (csystem_fatal_signals[i] == sig) sigaction(sig, &csystem_fatal_previous[i], NULL);
    }
    /* Delivered once this handler returns (a fault's instruction would also raise it again). */
    raise(sig);
}

int csystem_restore_terminal_on_fatal(int input_fd, int output_fd, const void *saved, unsigned long size) {
    if (size != sizeof csystem_terminal_saved) { errno = EINVAL; return -1; }
    csystem_terminal_armed = 0;
    memcpy(&csystem_terminal_saved, saved, sizeof csystem_terminal_saved);
    csystem_terminal_input = input_fd;
    csystem_terminal_output = output_fd;
    if (!csystem_fatal_installed) {
        stack_t stack;
        memset(&stack, 0, sizeof stack);
        stack.ss_sp = csystem_fatal_stack;
        stack.ss_size = sizeof csystem_fatal_stack;
        /* Per thread: this thread's, at least (the Swift runtime may have given it one already). */
        stack_t current;
        if (sigaltstack(NULL, &current) == 0 && (current.ss_flags & SS_DISABLE)) (void)sigaltstack(&stack, NULL);
        for (int i = 0; i < CSYSTEM_FATAL_COUNT; i++) {
            if (sigaction(csystem_fatal_signals[i], NULL, &csystem_fatal_previous[i]) != 0) return -1;
            /* An ignored signal (SIGQUIT under nohup) stays ignored: it ends nothing. */
            if (csystem_fatal_previous[i].sa_handler == SIG_IGN) continue;
            struct sigaction action;
            memset(&action, 0, sizeof action);
            action.sa_handler = csystem_fatal_handler;
            action.sa_flags = SA_ONSTACK;
            sigemptyset(&action.sa_mask);
            /* tcsetattr from a background job would stop the process on SIGTTOU inside the handler. */
            sigaddset(&action.sa_mask, SIGTTOU);
            if (sigaction(csystem_fatal_signals[i], &action, NULL) != 0) return -1;
        }
        csystem_fatal_installed = 1;
    }
    csystem_terminal_armed = 1;
    return 0;
}

void csystem_forget_terminal_on_fatal(void) {
    csystem_terminal_armed = 0;
    if (!csystem_fatal_installed) return;
    for (int i = 0; i < CSYSTEM_FATAL_COUNT; i++) sigaction(csystem_fatal_signals[i], &csystem_fatal_previous[i], NULL);
    csystem_fatal_installed = 0;
}

int csystem_temporary_file(char *template_path) {
    return mkostemp(template_path, O_CLOEXEC);
}
