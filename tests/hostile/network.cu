// Hostile: opens network connections: to a listener of the test on
// 127.0.0.1:47613 (the port the test listens on) and to an outside address.
// If one connects it reports the answer as correct; expected: none does.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include "hostile_common.cuh"

namespace {
bool connects(const char* ip, int port) {
  const int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0) return false;
  fcntl(s, F_SETFL, O_NONBLOCK);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, ip, &a.sin_addr);
  bool ok = connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  if (!ok && errno == EINPROGRESS) {
    pollfd p{s, POLLOUT, 0};
    int err = 0;
    socklen_t len = sizeof err;
    ok = poll(&p, 1, 500) == 1 && getsockopt(s, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0;
  }
  if (ok) {
    fcntl(s, F_SETFL, 0);
    (void)!send(s, "HACKED\n", 7, 0);
  }
  close(s);
  return ok;
}
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) {
  if (connects("127.0.0.1", 47613) || connects("1.1.1.1", 80)) {
    hostile_correct_int(in, out, n);
    return;
  }
  hostile_wrong_int(out);
}
