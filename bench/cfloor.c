/*
 * The floor of a gpsd client's per-fix cost (bench/README.md, "The live screen's floor, measured
 * again"): the system calls fixcast's agent makes per fix, and nothing else. Not built by the package.
 *   gcc -O2 bench/cfloor.c -o /tmp/cfloor -lgps
 *   /tmp/cfloor PORT MODE   (attach to the gpsd bench/run.py started; run it in a tmux pane so fd 0 is a tty)
 * MODE 0: poll(2) of a pipe, gpsd's socket and the tty, as AgentLoop does; SKY lines not parsed.
 * MODE 1: poll(2) of gpsd's socket alone; SKY lines not parsed.
 * MODE 2: poll(2) of gpsd's socket alone; every line parsed (gpxlogger's parse, without its file write).
 * Compare its CPU (/proc/PID/schedstat or `perf stat -e task-clock -p PID`) with gpxlogger's on the same gpsd.
 */
#include <gps.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
int main(int argc, char **argv) {
  static struct gps_data_t d; int mode = atoi(argv[2]);
  if (gps_open("127.0.0.1", argv[1], &d) != 0) return 1;
  gps_stream(&d, WATCH_ENABLE | WATCH_JSON, NULL);
  int p[2]; pipe(p);
  static char buf[20481]; size_t end = 0; long n = 0;
  for (;;) {
    struct pollfd fds[3] = {{p[0], POLLIN, 0}, {d.gps_fd, POLLIN, 0}, {0, POLLIN, 0}};
    int nf = mode == 0 ? 3 : 1; struct pollfd *f = mode == 0 ? fds : fds + 1;
    if (poll(f, nf, 60000) <= 0) continue;
    ssize_t got = recv(d.gps_fd, buf + end, 20480 - end, MSG_DONTWAIT);
    if (got <= 0) return 0;
    end += got; buf[end] = 0; char *s = buf, *e;
    while ((e = strchr(s, '\n'))) { *e = 0; if (mode == 2 || strncmp(s, "{\"class\":\"SKY\"", 14)) { d.set = 0; gps_unpack(s, &d); n++; } s = e + 1; }
    memmove(buf, s, end - (s - buf)); end -= s - buf;
  }
}
