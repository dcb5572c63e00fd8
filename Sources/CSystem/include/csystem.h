#ifndef CSYSTEM_H
#define CSYSTEM_H
/*
 * Shim for the few POSIX calls Swift cannot make safely by itself: a signal handler must be a C function
 * that does nothing but async-signal-safe work. Prefixed csystem_.
 */
#ifdef __cplusplus
extern "C" {
#endif

/* Routes `sig` to the self-pipe `write_fd`: the handler writes the signal number as one byte (and
   nothing else; write(2) is async-signal-safe). SA_RESTART, so other threads' system calls are not cut
   short. Returns 0, or -1 with errno set. All signals share one pipe: call with the same fd. */
int csystem_route_signal_to_pipe(int sig, int write_fd);

/* Puts `sig` back to its default action (SIG_DFL). */
int csystem_default_signal(int sig);

/* Ignores `sig` (SIG_IGN). */
int csystem_ignore_signal(int sig);

/* An inotify descriptor (close-on-exec, blocking) watching the folder `dir` for files written
   (IN_MODIFY), closed after writing (IN_CLOSE_WRITE), created, moved in, deleted or moved out, and
   for the folder itself, or one above it, going (moved or deleted): the way to learn that a SQLite
   store or its -wal changed without polling (the -wal may not exist yet, so the folder is watched).
   Returns the descriptor, or -1 with errno set (ENOTDIR when `dir` is not a folder). */
int csystem_watch_folder_writes(const char *dir);

/* Blocks on `fd` (from csystem_watch_folder_writes) until an event names a file whose name starts with
   `prefix` (the store's file name: the store, its -wal, -shm and -journal); drains the events of that
   one read. `until_ms` is a moment on the wall clock (milliseconds since 1970), < 0 for none: a timer
   on CLOCK_REALTIME, so a machine's sleep counts and a clock set anew ends the wait (to be measured
   again). `output_fd` >= 0 is watched for its reader going (POLLERR, POLLHUP: a pipe's read end closed,
   a terminal hung up). Returns 1 for such an event, 0 when `until_ms` came (or the clock was set), 2
   when the folder itself, or one above it, was deleted or moved (the watch is gone: nothing will come
   again), 3 when the output's reader went, or -1 with errno set (EINTR included). */
int csystem_wait_for_write(int fd, const char *prefix, long long until_ms, int output_fd);

/* Until csystem_forget_unlink_on_signal: SIGINT, SIGTERM or SIGHUP first unlinks `path` (an export's
   hidden partial file), then takes its default action as if it had not been caught. One path at a time
   per process: while another export holds it, -1 with EBUSY and nothing is armed. Returns 0 (then call
   csystem_forget_unlink_on_signal from the same thread), or -1 with errno set (then do not). */
int csystem_unlink_on_signal(const char *path);

/* Puts back the three signals' previous actions; the path is no longer removed. */
void csystem_forget_unlink_on_signal(void);

/* Blocks the agent's signals (SIGUSR1, SIGHUP, SIGINT, SIGTERM) in the calling thread, and in every
   thread it starts after: first thing in main, so a signal that comes before `fixcast run`'s loop
   handles it waits (pending) instead of taking its default action. Returns 0 or an errno value. */
int csystem_hold_agent_signals(void);

/* Unblocks them in the calling thread: the agent's loop, once it handles them (then every signal
   sent to the process is delivered to it), or any other command, which keeps the default actions. */
int csystem_release_agent_signals(void);

/* 1 when `sig` is ignored (SIG_IGN, as `nohup` leaves SIGHUP), else 0. */
int csystem_signal_is_ignored(int sig);

/* Waits up to `timeout_ms` for the child `pid` to end and reaps it (its wait status in `*status`),
   sleeping in poll(2) on a pidfd until it ends or the time is up: no wake-up meanwhile (on a kernel
   without pidfd_open, before 5.3, it looks every 20 ms). Returns 1 when it was reaped, 0 when the time
   passed first (the child still runs), or -1 with errno set. */
int csystem_wait_child(int pid, int timeout_ms, int *status);

/* While the live screen holds the terminal: a crash (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT:
   a Swift runtime trap is SIGILL or SIGTRAP) or Ctrl-\ (SIGQUIT) first leaves the alternate screen,
   shows the cursor on `output_fd` and puts the termios saved in `saved` (a `struct termios`, copied)
   back on `input_fd`, then goes on as if not caught: the previous action (the Swift runtime's
   backtracer, or the default) takes the signal. atexit(3) does not run on those. Returns 0 or -1. */
int csystem_restore_terminal_on_fatal(int input_fd, int output_fd, const void *saved, unsigned long size);

/* mkostemp(3) with O_CLOEXEC: a temporary file from `template` (ending in XXXXXX, filled in) that no
   child started meanwhile inherits. Returns the descriptor, or -1 with errno set. */
int csystem_temporary_file(char *template_path);

/* The terminal is given back: the signals' previous actions are put back. */
void csystem_forget_terminal_on_fatal(void);

#ifdef __cplusplus
}
#endif
#endif
