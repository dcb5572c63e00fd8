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

/* Until csystem_forget_unlink_on_signal: SIGINT, SIGTERM or SIGHUP first unlinks `path` (an export's
   hidden partial file), then takes its default action as if it had not been caught. One path at a time.
   Returns 0, or -1 with errno set. */
int csystem_unlink_on_signal(const char *path);

/* Puts back the three signals' previous actions; the path is no longer removed. */
void csystem_forget_unlink_on_signal(void);

#ifdef __cplusplus
}
#endif
#endif
