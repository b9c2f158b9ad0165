// The reference for the tcp bench: what a plain program measures as connect time, and the listener both
// sides connect to. Compiled by the bench with cc at run time.
//
//   connect-loop listen ADDR K        K IPv4 listeners on ADDR, ports chosen by the kernel, printed on one
//                                     line; accepts every connection and resets it once the client has
//                                     closed it, until killed
//   connect-loop connect ADDR PORT N  N blocking connect() calls, one after another, each timed with
//                                     CLOCK_MONOTONIC around the call alone; prints the nanoseconds, one a line
//
// Both clients close right after connecting. The listener answers that close with a reset (SO_LINGER 0),
// which leaves no TIME_WAIT on either end, so tens of thousands of checks do not run the client out of
// ephemeral ports. It waits for the client's close first: a reset before the client has read its
// connect's outcome would reach it as ECONNRESET instead of a connection.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_LISTENERS 64
#define MAX_OPEN 4096

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void reset(int fd) {
  const struct linger now = {1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &now, sizeof now);
  close(fd);
}

static int address(const char *text, int port, struct sockaddr_in *sa) {
  memset(sa, 0, sizeof *sa);
  sa->sin_family = AF_INET;
  sa->sin_port = htons((unsigned short)port);
  return inet_pton(AF_INET, text, &sa->sin_addr) == 1 ? 0 : -1;
}

// Accepts what `listener` has waiting into fds[*n] and on; a connection beyond MAX_OPEN is reset at once.
static void accept_all(int listener, struct pollfd *fds, nfds_t *n, nfds_t cap) {
  for (;;) {
    int c = accept4(listener, NULL, NULL, SOCK_NONBLOCK);
    if (c < 0) return;
    if (*n == cap) {
      reset(c);
      continue;
    }
    fds[*n].fd = c;
    fds[*n].events = POLLIN;
    fds[*n].revents = 0;
    (*n)++;
  }
}

static int listen_on(const char *addr, int k) {
  static struct pollfd fds[MAX_LISTENERS + MAX_OPEN];
  nfds_t n = (nfds_t)k;
  if (k < 1 || k > MAX_LISTENERS) return 2;
  for (int i = 0; i < k; i++) {
    struct sockaddr_in sa;
    socklen_t len = sizeof sa;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (fd < 0 || address(addr, 0, &sa) != 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 4096) != 0 ||
        getsockname(fd, (struct sockaddr *)&sa, &len) != 0) {
      perror("listen");
      return 1;
    }
    fds[i].fd = fd;
    fds[i].events = POLLIN;
    printf("%s%d", i == 0 ? "" : " ", ntohs(sa.sin_port));
  }
  printf("\n");
  fflush(stdout);
  for (;;) {
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      return 1;
    }
    for (nfds_t i = n; i-- > (nfds_t)k;) {
      if (fds[i].revents == 0) continue;
      char buf[512];
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got > 0 || (got < 0 && errno == EAGAIN)) continue;
      reset(fds[i].fd);
      fds[i] = fds[--n];
    }
    for (int i = 0; i < k; i++)
      if (fds[i].revents & POLLIN) accept_all(fds[i].fd, fds, &n, (nfds_t)(MAX_LISTENERS + MAX_OPEN));
  }
}

static int connect_loop(const char *addr, int port, int n) {
  struct sockaddr_in sa;
  if (address(addr, port, &sa) != 0 || n < 1) return 2;
  for (int i = 0; i < n; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
      perror("socket");
      return 1;
    }
    long long t0 = now_ns();
    int rc = connect(fd, (struct sockaddr *)&sa, sizeof sa);
    long long t1 = now_ns();
    if (rc != 0) {
      printf("error %s\n", strerror(errno));
      return 1;
    }
    printf("%lld\n", t1 - t0);
    close(fd);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && strcmp(argv[1], "listen") == 0) return listen_on(argv[2], atoi(argv[3]));
  if (argc == 5 && strcmp(argv[1], "connect") == 0) return connect_loop(argv[2], atoi(argv[3]), atoi(argv[4]));
  fprintf(stderr, "usage: connect-loop listen ADDR K | connect-loop connect ADDR PORT N\n");
  return 2;
}
