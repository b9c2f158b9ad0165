// Reads that know when their bytes arrived. The kernel stamps each received segment (SO_TIMESTAMPNS;
// TCP reports the stamp of the last segment a read took). A loop callback notes when it began; bytes
// that arrived before that waited for this process (its JavaScript, other callbacks of the turn, the
// scheduler) that long before it looked. A phase that ends in the callback on those bytes is stamped that
// much earlier: at their arrival plus the work done since the callback began, so a busy server does not
// lengthen the target's times, and its own work (a handshake's crypto) still counts. The last read
// counts: in TLS a record read before (a session ticket) may have waited longer than the answer after it.
#pragma once

#include <openssl/bio.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace nettools::http {

uint64_t MonotonicNs();

// What the reads of one loop callback learnt: how long the last bytes read had waited for it to begin;
// and what such waits have delayed the exchange's own sends so far. A send made late makes every later
// byte of the peer come late by as much, so once this process sends, the callback's wait is kept for
// every stamp after it, not only this callback's.
struct RxClock {
  uint64_t lag_ns = 0;         // this callback's
  uint64_t shift_ns = 0;       // the waits that delayed a send, over the whole exchange
  uint64_t began_real_ns = 0;  // CLOCK_REALTIME, the kernel stamps' clock; 0: no correction to learn
  // A loop callback begins (nothing read yet).
  void Begin();
  // Outside a callback (a timer): nothing to learn.
  void Pause() {
    lag_ns = 0;
    began_real_ns = 0;
  }
  // Bytes are sent: whatever this callback waited delayed them, and all that follows.
  void Sent() {
    shift_ns += lag_ns;
    Pause();
  }
  // The time now, less the waits: when this would have happened had every byte been read on arrival.
  uint64_t Now() const { return MonotonicNs() - shift_ns - lag_ns; }
};

// Asks the kernel to stamp what `fd` receives; a socket it refuses is read unstamped (no correction).
void EnableRxTimestamps(int fd);

// recv() through recvmsg(), reading the arrival stamp of what it took into `clock`.
ssize_t TimedRecv(int fd, void* buf, size_t len, RxClock* clock);

// A socket BIO for OpenSSL whose reads are TimedRecv (writes are send() without SIGPIPE), so that TLS
// records carry the same correction. The BIO does not own `fd`; `clock` must outlive it.
BIO* NewTimedSocketBio(int fd, RxClock* clock);

}  // namespace nettools::http
