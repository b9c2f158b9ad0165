#include "icmp/icmp_engine.h"

#include "common/own_handles.h"

#include <netinet/in.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <initializer_list>

namespace nettools::icmp {

namespace {

constexpr uint64_t kNsPerMs = 1000000;
// The timer's slack (Engine::Coalescing): from how many waiting sessions, how much, and the pace under
// which a session turns it off. A JSON ping's interval is at least 100 ms.
constexpr size_t kCoalesceFromSessions = 256;
constexpr uint64_t kCoalesceSlackMs = 3;
constexpr uint64_t kCoalesceBelowIntervalNs = 100 * kNsPerMs;
// Per wake-up, so a flood on a raw socket cannot starve the loop; poll is level-triggered and calls again.
constexpr int kMaxReadsPerWake = 4096;
constexpr int kMaxConsecutiveErrors = 16;
constexpr size_t kRxBufSize = 4096;

const uint8_t* AddrBytes(const sockaddr* sa, size_t* len) {
  if (sa->sa_family == AF_INET) {
    *len = 4;
    return reinterpret_cast<const uint8_t*>(&reinterpret_cast<const sockaddr_in*>(sa)->sin_addr);
  }
  if (sa->sa_family == AF_INET6) {
    *len = 16;
    return reinterpret_cast<const uint8_t*>(&reinterpret_cast<const sockaddr_in6*>(sa)->sin6_addr);
  }
  *len = 0;
  return nullptr;
}

const sockaddr* Generic(const sockaddr_storage& ss) { return reinterpret_cast<const sockaddr*>(&ss); }

bool SameAddress(const sockaddr_storage& a, const SocketAddress& b) {
  size_t la = 0, lb = 0;
  const uint8_t* pa = AddrBytes(Generic(a), &la);
  const uint8_t* pb = AddrBytes(&b.sa, &lb);
  return pa != nullptr && la == lb && std::memcmp(pa, pb, la) == 0;
}

bool SameAddress(const SocketAddress& a, const uint8_t* raw) {
  size_t la = 0;
  const uint8_t* pa = AddrBytes(&a.sa, &la);
  return pa != nullptr && std::memcmp(pa, raw, la) == 0;
}

IpBytes AddressBytes(const sockaddr_storage& ss) {
  size_t len = 0;
  const uint8_t* p = AddrBytes(Generic(ss), &len);
  return IpBytes::Of(p, len);
}

// Why a send failed, in the words the API uses for ICMP errors.
const char* SendFailureReason(int err) {
  switch (err) {
    case ENETUNREACH: return "net-unreachable";
    case EHOSTUNREACH: return "host-unreachable";
    case EACCES:
    case EPERM: return "admin-prohibited";
    case EMSGSIZE: return "packet-too-big";
    default: return "send-failed";
  }
}

double WallDiffMs(const timespec& later, const timespec& earlier) {
  return static_cast<double>(later.tv_sec - earlier.tv_sec) * 1e3 +
         static_cast<double>(later.tv_nsec - earlier.tv_nsec) / 1e6;
}

}  // namespace

Status SetAddress(Family family, const uint8_t* bytes, size_t length, PingOptions* opts) {
  opts->family = family;
  opts->address = SocketAddress{};
  if (family == Family::kV4) {
    if (length != sizeof(in_addr)) return Status::kInvalidAddress;
    auto* sin = &opts->address.v4;
    sin->sin_family = AF_INET;
    std::memcpy(&sin->sin_addr, bytes, sizeof(in_addr));
    return Status::kOk;
  }
  if (length != sizeof(in6_addr)) return Status::kInvalidAddress;
  auto* sin6 = &opts->address.v6;
  sin6->sin6_family = AF_INET6;
  std::memcpy(&sin6->sin6_addr, bytes, sizeof(in6_addr));
  // IPv6 datagram sockets refuse IPv4-mapped destinations (EINVAL); the caller pings those as IPv4.
  if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) return Status::kInvalidAddress;
  return Status::kOk;
}

Status CheckOptions(const PingOptions& o) {
  const bool ok = limits::kCount.contains(o.count) && limits::kIntervalMs.contains(o.interval_ms) &&
                  limits::kTimeoutMs.contains(o.timeout_ms) && limits::kSize.contains(o.size) &&
                  (!o.has_ttl || limits::kTtl.contains(o.ttl));
  if (!ok || o.grant > o.count) return Status::kInvalidOptions;
  if (o.probes_per_ttl == 0) return Status::kOk;
  // A trace: whole TTLs only, and the last one still a TTL.
  const bool trace = limits::kProbesPerTtl.contains(o.probes_per_ttl) && limits::kPaceUs.contains(o.pace_us) &&
                     o.count % o.probes_per_ttl == 0 && limits::kTtl.contains(o.count / o.probes_per_ttl) && !o.has_ttl;
  return trace ? Status::kOk : Status::kInvalidOptions;
}

struct Engine::Socket {
  Engine* engine = nullptr;
  Family family = Family::kV4;
  OpenedSocket opened;
  uv_poll_t poll{};
  SeqTable seqs;
  uint32_t drops = 0;
  // Replies and errors that parsed but matched no echo of ours (other processes' traffic on a raw
  // socket, late or forged packets): dropped, and counted so an operator can see them.
  uint64_t stray = 0;
  uint64_t stray_errors = 0;  // of those, ICMP errors quoting no echo of ours (forged ones among them)
  uint64_t sent = 0;
  uint64_t trace_sent = 0;  // of those, the probes of trace sessions (counted apart for the traceroute metrics)
};

// A send that goes out writes only the first cache line of its echo (its state, stamps and deadline); a
// reply, or a send that fails, adds the second (what answered, or why). Aligned, an echo is those two
// lines and never straddles a third.
struct alignas(64) Engine::Echo {
  enum class State { kUnsent, kInFlight, kSettled };
  uint32_t index = 0;  // within the session
  uint16_t seq = 0;
  State state = State::kUnsent;
  timespec sent_wall{};
  uint64_t sent_mono_ns = 0;
  uint64_t deadline_ns = 0;
  EchoOutcome outcome;
};

// With 5,000 sessions each woken about once a second, every line of a session is a cold miss at its
// wake-up: what a wake-up and a reply read sits together at the front, the rest after it. (Not aligned to
// a line: glibc's aligned allocation cost a JSON ping some 600 instructions more than the session saves.)
struct Engine::Session {
  // Echo i is due at pace_ns + i * interval_ns: the start, moved on by a grant that came after its first
  // echo's place, so that the echoes the session waited for go out paced, not at once.
  uint64_t pace_ns = 0;
  uint64_t interval_ns = 0;  // IntervalNs(opts), once
  // Echo i at ring[i & mask], for i in [retired, granted): each holds its sequence until it is retired. A
  // ping's ring holds every echo; a metered one's, those since the last Extend's settled ones.
  std::vector<Echo> ring;
  uint32_t mask = 0;
  uint32_t retired = 0;
  uint32_t granted = 0;
  uint32_t next_send = 0;
  // Echoes before this one are all settled; it only moves forward (see FirstOpen).
  uint32_t first_open = 0;
  uint32_t settled = 0;
  Socket* socket = nullptr;
  uint32_t wake_slot = 0;  // in the engine's WakeHeap, held for the session's life
  bool metered = false;
  bool progress = false;   // report each echo's outcome as it is decided
  // Set by Drop. Every report is made under a frame, which keeps a dropped session's memory until it
  // returns: after a report, this says whether the session is still on, without a look-up by id.
  bool dropped = false;
  uint8_t cookie[kCookieLen] = {};
  uint64_t id = 0;
  PingOptions opts;
  uint32_t duplicates = 0;
  uint64_t start_ns = 0;

  Echo& echo(uint32_t i) { return ring[i & mask]; }
};

// Marks an engine frame (a poll or the timer firing) for as long as it is on the stack, and frees the
// sessions dropped meanwhile when the outermost one returns. The engine itself is freed only from a close
// callback, never under a frame.
class Engine::Frame {
 public:
  explicit Frame(Engine* engine) : engine_(engine) { ++engine_->depth_; }
  ~Frame() {
    if (engine_->depth_ == 1 && engine_->frame_end_) {
      // A copy: the call may close the engine, which clears frame_end_ while it runs. Still inside the
      // frame, so what it drops is freed below.
      const std::function<void()> end = engine_->frame_end_;
      end();
    }
    if (--engine_->depth_ == 0) engine_->FreeDropped();
  }
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;

 private:
  Engine* engine_;
};

Engine::Engine(uv_loop_t* loop, DoneFn done, EchoFn echo)
    : loop_(loop), done_(std::move(done)), echo_(std::move(echo)), v4_(new Socket()), v6_(new Socket()), rx_(new ReceiveBatch()) {
  v4_->engine = this;
  v4_->family = Family::kV4;
  v6_->engine = this;
  v6_->family = Family::kV6;
}

Engine::~Engine() {
  FreeDropped();
  for (auto& [id, session] : sessions_) delete session;
}

Status Engine::Create(uv_loop_t* loop, KindPreference pref, DoneFn done, Engine** out, EchoFn echo) {
  auto* e = new Engine(loop, std::move(done), std::move(echo));
  // A random identifier per engine: the pid would collide across processes and across engines.
  uint16_t raw_id = 0;
  if (!e->random_.U16(&raw_id)) {
    delete e;
    return Status::kRandomUnavailable;
  }
  uv_timer_init(loop, &e->timer_);
  e->timer_.data = e;
  ++e->open_handles_;
  e->OpenSocket(*e->v4_, pref, raw_id);
  e->OpenSocket(*e->v6_, pref, raw_id);
  *out = e;
  return Status::kOk;
}

void Engine::OpenSocket(Socket& s, KindPreference pref, uint16_t raw_id) {
  s.opened = OpenIcmpSocket(s.family, pref, raw_id);
  if (s.opened.fd < 0) return;
  if (uv_poll_init(loop_, &s.poll, s.opened.fd) != 0) {
    close(s.opened.fd);
    s.opened.fd = -1;
    s.opened.error = EBADF;
    return;
  }
  s.poll.data = &s;
  ClaimHandle(reinterpret_cast<uv_handle_t*>(&s.poll));
  ++open_handles_;
  uv_poll_start(&s.poll, UV_READABLE | UV_PRIORITIZED, &Engine::OnPoll);
  // An idle engine must not keep Node alive; the engine's timer does while a ping is in flight.
  uv_unref(reinterpret_cast<uv_handle_t*>(&s.poll));
}

Engine::Socket& Engine::socket(Family family) { return family == Family::kV4 ? *v4_ : *v6_; }

FamilyState Engine::state(Family family) const {
  const Socket& s = family == Family::kV4 ? *v4_ : *v6_;
  FamilyState st;
  st.open = s.opened.fd >= 0;
  st.kind = s.opened.kind;
  st.error = s.opened.error;
  st.id = s.opened.id;
  st.in_flight = s.seqs.in_use();
  st.drops = s.drops;
  st.stray = s.stray;
  st.stray_errors = s.stray_errors;
  st.sent = s.sent;
  st.trace_sent = s.trace_sent;
  return st;
}

Status Engine::Start(const PingOptions& opts, uint64_t* out, bool progress) {
  if (closing_) return Status::kEngineClosed;
  const Status check = CheckOptions(opts);
  if (check != Status::kOk) return check;
  Socket& s = socket(opts.family);
  if (s.opened.fd < 0) return Status::kNoSocket;
  uint8_t cookie[kCookieLen];
  if (!random_.Fill(cookie, sizeof(cookie))) return Status::kRandomUnavailable;
  const bool metered = opts.grant != 0 && opts.grant < opts.count;
  // Nobody would hear a metered session's echoes otherwise: its result does not list them.
  if (metered && !(progress && echo_ != nullptr)) return Status::kInvalidOptions;
  auto* session = new Session();
  session->id = next_session_++;
  session->opts = opts;
  session->interval_ns = IntervalNs(opts);
  session->progress = progress && echo_ != nullptr;
  session->socket = &s;
  session->metered = metered;
  if (!Hold(session, metered ? opts.grant : opts.count)) {
    delete session;
    return Status::kSeqExhausted;
  }
  std::memcpy(session->cookie, cookie, sizeof(cookie));
  session->wake_slot = wake_.Take();
  if (session->wake_slot >= wake_owner_.size()) wake_owner_.resize(session->wake_slot + 1);
  wake_owner_[session->wake_slot] = session;
  session->start_ns = uv_hrtime();
  session->pace_ns = session->start_ns;
  sessions_[session->id] = session;
  if (Tight(*session)) tight_sessions_++;
  // The first echo goes out when the timer fires, on a later loop turn, so done is never called from
  // inside Start (a Start inside Fire is due after the time Fire took, so it waits for the next fire too).
  Schedule(session);
  *out = session->id;
  return Status::kOk;
}

// Makes room in the ring for echoes [granted, end) and holds a sequence for each, all or nothing; first
// retires the echoes all settled before them, whose sequences go back to the socket. The ring grows to a
// power of two when it must, keeping every echo at its index.
bool Engine::Hold(Session* session, uint32_t end) {
  static_assert(sizeof(Echo) == 128, "an echo is two cache lines");
  // A round or a short ping (ten echoes or so) needs no allocation for its sequences.
  const size_t n = end - session->granted;
  uint16_t few[32];
  std::vector<uint16_t> many(n > sizeof(few) / sizeof(few[0]) ? n : 0);
  uint16_t* const seqs = many.empty() ? few : many.data();
  if (!session->socket->seqs.Allocate(session, session->granted, n, seqs)) return false;
  for (const uint32_t open = FirstOpen(session); session->retired < open; ++session->retired) {
    session->socket->seqs.Release(session->echo(session->retired).seq);
  }
  const size_t need = end - session->retired;
  if (need > session->ring.size()) {
    size_t size = 1;
    while (size < need) size <<= 1;
    std::vector<Echo> ring(size);
    const uint32_t mask = static_cast<uint32_t>(size - 1);
    for (uint32_t i = session->retired; i < session->granted; ++i) ring[i & mask] = session->echo(i);
    session->ring = std::move(ring);
    session->mask = mask;
  }
  for (uint32_t i = session->granted; i < end; ++i) {
    Echo& e = session->echo(i);
    e = Echo();
    e.index = i;
    e.seq = seqs[i - session->granted];
  }
  session->granted = end;
  return true;
}

Status Engine::Extend(uint64_t id, uint32_t n) {
  if (closing_) return Status::kEngineClosed;
  auto it = sessions_.find(id);
  if (it == sessions_.end()) return Status::kOk;
  Session* session = it->second;
  if (!session->metered || n == 0 || n > session->opts.count - session->granted) return Status::kInvalidOptions;
  const bool waited = session->next_send == session->granted;
  if (!Hold(session, session->granted + n)) return Status::kSeqExhausted;
  const uint64_t now = uv_hrtime();
  const uint64_t place = static_cast<uint64_t>(session->next_send) * session->interval_ns;
  if (waited && session->pace_ns + place < now) session->pace_ns = now - place;
  Schedule(session);
  return Status::kOk;
}

void Engine::OnTimer(uv_timer_t* handle) { static_cast<Engine*>(handle->data)->Fire(); }

// Advances every session whose wake-up is due by the time the timer fired. Sessions started, cancelled
// or rescheduled by the callbacks meanwhile only change the heap; the timer is armed once, at the end.
void Engine::Fire() {
  const Frame frame(this);
  armed_ns_ = UINT64_MAX;  // a one-shot that just fired
  firing_ = true;
  const uint64_t now = uv_hrtime();
  while (!closing_ && !wake_.empty() && wake_.top_due() <= now) {
    const uint32_t slot = wake_.top_slot();
    wake_.Clear(slot);
    Advance(wake_owner_[slot], now);
  }
  firing_ = false;
  if (!closing_) Arm();
}

// Whether the timer takes slack. Many sessions at a slow pace (thousands of streamed pings a second
// apart) would otherwise wake the loop every millisecond for a few echoes each: with slack, one wake-up
// serves those due over a few milliseconds (bench/README.md, Streams). An echo then goes out up to the
// slack after its place in the pace, never before it; its RTT runs from its own send stamp all the same.
// Never while a session with a tight pace (a trace's probes) is live: its echoes would bunch.
// Counted in tight_sessions_ from Start to Drop: one test for both, so the count cannot drift.
bool Engine::Tight(const Session& session) { return session.interval_ns < kCoalesceBelowIntervalNs; }

bool Engine::Coalescing() const {
  return tight_sessions_ == 0 && wake_.size() >= kCoalesceFromSessions;
}

// Arms the timer for the earliest wake-up unless it already fires by then, or stops it when no session
// waits: a stopped timer does not keep Node alive, an armed one does. A wake-up that is due already,
// such as a new session's first echo, takes no slack.
void Engine::Arm() {
  if (wake_.empty()) {
    if (armed_ns_ != UINT64_MAX) uv_timer_stop(&timer_);
    armed_ns_ = UINT64_MAX;
    return;
  }
  const uint64_t wake = wake_.top_due();
  if (wake >= armed_ns_) return;
  // libuv timers count from the loop's cached time: refresh it so the timer does not fire early.
  uv_update_time(loop_);
  const uint64_t now = uv_hrtime();
  uint64_t delay_ms = wake <= now ? 0 : (wake - now + kNsPerMs - 1) / kNsPerMs;
  if (delay_ms > 0 && Coalescing()) delay_ms += kCoalesceSlackMs;
  uv_timer_start(&timer_, &Engine::OnTimer, delay_ms, 0);
  armed_ns_ = wake;
}

uint64_t Engine::IntervalNs(const PingOptions& o) {
  return o.probes_per_ttl > 0 ? static_cast<uint64_t>(o.pace_us) * 1000 : static_cast<uint64_t>(o.interval_ms) * kNsPerMs;
}

// `now`: when the timer fired, read once for every session it advances (a clock read costs a VM tens of
// ns, and there were three per session). Later than that only means a little later: an echo due since
// goes out at the next fire, a deadline passed since is settled then, never early.
void Engine::Advance(Session* session, uint64_t now) {
  const uint64_t interval_ns = session->interval_ns;
  while (session->next_send < session->granted &&
         now >= session->pace_ns + static_cast<uint64_t>(session->next_send) * interval_ns) {
    if (!SendNext(session)) return;
  }
  if (HasDue(session, now)) {
    // libuv runs timers before it polls: on a busy loop a reply that came in time may sit unread while
    // its deadline passes. Read first; the kernel's receive stamp then says whether it was in time.
    Socket& s = *session->socket;
    if (s.opened.kind == SocketKind::kDgram) Drain(s, true);
    if (!closing_) Drain(s, false);
    // What was read may have finished this session (its callback may even have closed the engine).
    if (closing_ || session->dropped) return;
  }
  if (!SettleTimeouts(session, now)) return;
  if (session->next_send == session->opts.count && session->settled == session->opts.count) {
    Finish(session);
  } else {
    Schedule(session);
  }
}

// Echoes go out in order and share one timeout, so their deadlines rise with their index: the first echo
// still in flight has the earliest, and none after the first not yet due is due either.
bool Engine::SettleTimeouts(Session* session, uint64_t now_ns) {
  for (uint32_t i = FirstOpen(session); i < session->next_send; ++i) {
    Echo& e = session->echo(i);
    if (e.state != Echo::State::kInFlight) continue;
    if (now_ns < e.deadline_ns) break;
    e.state = Echo::State::kSettled;
    e.outcome.status = ReplyStatus::kTimeout;
    if (!Settled(session, e)) return false;
  }
  return true;
}

// The first echo not settled yet: in flight when below next_send. Each echo settles once, so the index
// only moves forward and a session's scans cost its count in all.
uint32_t Engine::FirstOpen(Session* session) {
  uint32_t& i = session->first_open;
  while (i < session->next_send && session->echo(i).state == Echo::State::kSettled) ++i;
  return i;
}

bool Engine::HasDue(Session* session, uint64_t now_ns) {
  const uint32_t i = FirstOpen(session);
  return i < session->next_send && now_ns >= session->echo(i).deadline_ns;
}

// The next send or the earliest deadline, whichever comes first.
uint64_t Engine::NextWake(Session* session) {
  uint64_t wake = UINT64_MAX;
  if (session->next_send < session->granted) {
    wake = session->pace_ns + static_cast<uint64_t>(session->next_send) * session->interval_ns;
  }
  const uint32_t open = FirstOpen(session);
  if (open < session->next_send && session->echo(open).deadline_ns < wake) wake = session->echo(open).deadline_ns;
  return wake;
}

bool Engine::SendNext(Session* session) {
  const PingOptions& o = session->opts;
  Socket& s = *session->socket;
  Echo& e = session->echo(session->next_send++);
  uint8_t pkt[kMaxEchoLen];
  const EchoSpec spec{o.family, s.opened.id, e.seq, session->cookie, o.size};
  const size_t len = BuildEcho(spec, pkt, sizeof(pkt));
  // Both clocks right before the send: the wall clock to compare with the kernel's receive stamp,
  // the monotonic one as the fallback when the wall clock jumps.
  clock_gettime(CLOCK_REALTIME, &e.sent_wall);
  e.sent_mono_ns = uv_hrtime();
  const uint32_t index = session->next_send - 1;
  const int ttl = o.probes_per_ttl > 0 ? static_cast<int>(1 + index / o.probes_per_ttl) : o.has_ttl ? static_cast<int>(o.ttl) : -1;
  const int err = SendEcho(s.opened.fd, o.family, &o.address.sa, pkt, len, ttl);
  if (err != 0) {
    e.state = Echo::State::kSettled;
    e.outcome.status = ReplyStatus::kUnreachable;
    e.outcome.reason = SendFailureReason(err);
    return Settled(session, e);
  }
  ++s.sent;
  if (o.probes_per_ttl > 0) ++s.trace_sent;
  e.state = Echo::State::kInFlight;
  e.deadline_ns = e.sent_mono_ns + static_cast<uint64_t>(o.timeout_ms) * kNsPerMs;
  return true;
}

bool Engine::Settled(Session* session, const Echo& e) {
  ++session->settled;
  if (!session->progress) return true;
  // A session dropped under an engine frame is freed only when the frame returns, so it can be checked after
  // (Session::dropped). A copy of the function: the call may close the engine, which clears echo_ while it runs.
  const EchoFn echo = echo_;
  echo(session->id, e.index, e.outcome);
  return !closing_ && !session->dropped;
}

void Engine::Schedule(Session* session) {
  // Nothing to wait for: a metered session that sent and settled all it was granted, until Extend.
  const uint64_t wake = NextWake(session);
  if (wake == UINT64_MAX) {
    wake_.Clear(session->wake_slot);
  } else {
    wake_.Set(session->wake_slot, wake);
  }
  if (!firing_) Arm();
}

void Engine::Finish(Session* session) {
  PingResult result;
  // A metered session reported every echo as it was decided and kept only its latest.
  if (!session->metered) {
    result.echoes.reserve(session->opts.count);
    for (uint32_t i = 0; i < session->opts.count; ++i) result.echoes.push_back(std::move(session->echo(i).outcome));
  }
  result.duplicates = session->duplicates;
  result.duration_ms = static_cast<double>(uv_hrtime() - session->start_ns) / 1e6;
  const uint64_t id = session->id;
  Drop(session);
  // Last: the callback may start new pings or close the engine.
  if (done_) done_(id, std::move(result));
}

void Engine::Drop(Session* session) {
  session->dropped = true;
  if (Tight(*session)) tight_sessions_--;
  for (uint32_t i = session->retired; i < session->granted; ++i) session->socket->seqs.Release(session->echo(i).seq);
  sessions_.erase(session->id);
  wake_.Free(session->wake_slot);
  wake_owner_[session->wake_slot] = nullptr;
  // The last session gone stops the timer at once, so the process need not wait for its wake-up.
  if (!firing_) Arm();
  if (depth_ > 0) {
    dropped_.push_back(session);
  } else {
    delete session;
  }
}

void Engine::FreeDropped() {
  for (Session* session : dropped_) delete session;
  dropped_.clear();
}

void Engine::Cancel(uint64_t id) {
  auto it = sessions_.find(id);
  if (it != sessions_.end()) Drop(it->second);
}

void Engine::Close(std::function<void()> closed) {
  if (closing_) return;
  closing_ = true;
  done_ = nullptr;
  echo_ = nullptr;
  frame_end_ = nullptr;
  closed_ = std::move(closed);
  while (!sessions_.empty()) Drop(sessions_.begin()->second);
  armed_ns_ = UINT64_MAX;
  uv_close(reinterpret_cast<uv_handle_t*>(&timer_), [](uv_handle_t* h) { static_cast<Engine*>(h->data)->HandleClosed(); });
  for (Socket* s : {v4_.get(), v6_.get()}) {
    if (s->opened.fd < 0) continue;
    ReleaseHandle(reinterpret_cast<uv_handle_t*>(&s->poll));
    uv_close(reinterpret_cast<uv_handle_t*>(&s->poll), [](uv_handle_t* h) {
      static_cast<Socket*>(h->data)->engine->HandleClosed();
    });
    // uv_close has stopped watching the descriptor, so it can go now.
    close(s->opened.fd);
    s->opened.fd = -1;
  }
  if (open_handles_ == 0) Destroy();
}

void Engine::HandleClosed() {
  --open_handles_;
  if (closing_ && open_handles_ == 0) Destroy();
}

void Engine::Destroy() {
  std::function<void()> closed = std::move(closed_);
  delete this;
  if (closed) closed();
}

void Engine::OnPoll(uv_poll_t* handle, int status, int /*events*/) {
  auto* s = static_cast<Socket*>(handle->data);
  Engine* engine = s->engine;
  const Frame frame(engine);
  if (status < 0) {
    // libuv stops a handle that saw POLLERR; watch again, the queue is drained below.
    uv_poll_start(handle, UV_READABLE | UV_PRIORITIZED, &Engine::OnPoll);
  }
  // Poll may wake spuriously or for either queue: read both until EAGAIN.
  if (s->opened.kind == SocketKind::kDgram) engine->Drain(*s, true);
  if (!engine->closing_) engine->Drain(*s, false);
}

void Engine::Drain(Socket& s, bool errqueue) {
  if (!errqueue) return DrainReplies(s);
  uint8_t buf[kRxBufSize];
  int errors = 0;
  for (int i = 0; i < kMaxReadsPerWake && !closing_; ++i) {
    Received rx;
    const int err = ReceiveOne(s.opened.fd, s.family, errqueue, buf, sizeof(buf), &rx);
    if (err == EAGAIN || err == EWOULDBLOCK) return;
    if (err != 0) {
      // A datagram socket reports a pending ICMP error once on the normal path too; the error
      // queue already carries it with the details, so skip it and read on.
      if (++errors >= kMaxConsecutiveErrors) return;
      continue;
    }
    errors = 0;
    if (rx.has_drops) s.drops = rx.drops;
    const size_t len = rx.len < sizeof(buf) ? rx.len : sizeof(buf);
    if (errqueue) {
      HandleQueuedError(s, buf, rx);
    } else {
      Received sized = rx;
      sized.len = len;
      HandlePacket(s, buf, sized);
    }
  }
}

// The normal queue, a batch of datagrams per system call (recvmmsg) rather than one each: under load a
// wake-up finds many replies waiting. A batch that comes back short found the queue empty, so no call is
// spent on learning that; poll is level-triggered and wakes the loop for whatever comes after.
void Engine::DrainReplies(Socket& s) {
  ReceiveBatch& batch = *rx_;
  int errors = 0;
  for (int read = 0; read < kMaxReadsPerWake && !closing_;) {
    unsigned count = 0;
    const int err = ReceiveMany(s.opened.fd, s.family, &batch, &count);
    if (err == EAGAIN || err == EWOULDBLOCK) return;
    if (err != 0) {
      // As in Drain: a pending socket error surfaces once here too; the error queue has its details.
      if (++errors >= kMaxConsecutiveErrors) return;
      continue;
    }
    errors = 0;
    // Nothing a report calls reads this socket again before it returns: the batch is not reused under us.
    for (unsigned i = 0; i < count && !closing_; ++i) {
      const Received& rx = batch.got[i];
      if (rx.has_drops) s.drops = rx.drops;
      HandlePacket(s, batch.bufs[i], rx);
    }
    read += static_cast<int>(count);
    if (count < ReceiveBatch::kBatch) return;
  }
}

// The session an echo packet (reply, or one quoted in an error) belongs to: our identifier, and a
// sequence in flight. Null for anyone else's packet.
Engine::Session* Engine::Owner(Socket& s, const ParsedPacket& p, uint32_t* index) {
  if (p.id != s.opened.id) return nullptr;
  const SeqOwner* owner = s.seqs.Lookup(p.seq);
  if (owner == nullptr) return nullptr;
  // Only Allocate(session) put it there, and the session is alive while it holds the sequence, whose echo
  // keeps its place in the ring until it is retired and lets the sequence go.
  auto* session = static_cast<Session*>(const_cast<void*>(owner->session));
  if (owner->index < session->retired || owner->index >= session->granted) return nullptr;
  *index = owner->index;
  return session;
}

void Engine::Stray(Socket& s, bool error) {
  ++s.stray;
  if (error) ++s.stray_errors;
}

// The round trip of an answer to echo e: the kernel stamp excludes our own wake-up latency; trust it
// unless the wall clock moved.
double Engine::RttMs(const Echo& e, const Received& rx) {
  const double mono_ms = static_cast<double>(uv_hrtime() - e.sent_mono_ns) / 1e6;
  if (!rx.has_stamp) return mono_ms;
  const double wall = WallDiffMs(rx.stamp, e.sent_wall);
  return wall >= 0 && wall <= mono_ms + 1.0 ? wall : mono_ms;
}

void Engine::HandlePacket(Socket& s, const uint8_t* data, const Received& rx) {
  const ParsedPacket p = ParsePacket(s.family, s.opened.kind, data, rx.len);
  if (p.kind == PacketKind::kIgnore) return;
  const bool error = p.kind == PacketKind::kError;
  uint32_t index = 0;
  Session* session = Owner(s, p, &index);
  if (session == nullptr) return Stray(s, error);
  Echo& e = session->echo(index);
  if (e.state == Echo::State::kUnsent || !CookieMatches(p, session->cookie, session->opts.size)) return Stray(s, error);
  if (p.kind == PacketKind::kEchoReply) {
    if (!SameAddress(rx.from, session->opts.address)) return Stray(s);
    if (e.state == Echo::State::kSettled) {
      if (e.outcome.status == ReplyStatus::kReply) ++session->duplicates;
      return;
    }
    const double rtt = RttMs(e, rx);
    e.state = Echo::State::kSettled;
    if (rtt > session->opts.timeout_ms) {
      e.outcome.status = ReplyStatus::kTimeout;
    } else {
      e.outcome.status = ReplyStatus::kReply;
      e.outcome.rtt_ms = rtt;
      e.outcome.ttl = p.has_ttl ? p.ttl : rx.ttl;
      e.outcome.bytes = p.icmp_len;
      e.outcome.from = AddressBytes(rx.from);
      e.outcome.icmp_type = s.family == Family::kV4 ? 0 : 129;  // echo reply
      e.outcome.icmp_code = 0;
    }
    if (!Settled(session, e)) return;
  } else {
    // An error quoting our echo: the quoted destination must be this session's target.
    if (e.state != Echo::State::kInFlight || !p.has_quoted_dst || !SameAddress(session->opts.address, p.quoted_dst)) {
      return Stray(s, true);
    }
    if (!SettleWithError(session, e, rx, p.err_type, p.err_code, AddressBytes(rx.from))) return;
  }
  FinishIfDone(session);
}

void Engine::HandleQueuedError(Socket& s, const uint8_t* data, const Received& rx) {
  if (!rx.is_icmp_error) return;
  const size_t len = rx.len < kRxBufSize ? rx.len : kRxBufSize;
  const ParsedPacket p = ParseSentEcho(s.family, data, len);
  if (p.kind == PacketKind::kIgnore) return;
  uint32_t index = 0;
  Session* session = Owner(s, p, &index);
  if (session == nullptr) return Stray(s, true);
  Echo& e = session->echo(index);
  // The error queue names the original destination in msg_name.
  if (e.state != Echo::State::kInFlight || !SameAddress(rx.from, session->opts.address) ||
      !CookieMatches(p, session->cookie, session->opts.size)) {
    return Stray(s, true);
  }
  if (!SettleWithError(session, e, rx, rx.err_type, rx.err_code, rx.has_offender ? AddressBytes(rx.offender) : IpBytes())) {
    return;
  }
  FinishIfDone(session);
}

// Whoever settles an echo with an ICMP error (a quoted packet on a raw socket, or the error queue of a
// datagram one) reports it the same way.
bool Engine::SettleWithError(Session* session, Echo& e, const Received& rx, uint8_t type, uint8_t code, const IpBytes& from) {
  const ErrorMeaning m = ClassifyError(session->socket->family, type, code);
  e.state = Echo::State::kSettled;
  e.outcome.status = m.status;
  e.outcome.reason = m.reason;
  e.outcome.rtt_ms = RttMs(e, rx);
  e.outcome.icmp_type = type;
  e.outcome.icmp_code = code;
  if (!from.empty()) e.outcome.from = from;
  return Settled(session, e);
}

void Engine::FinishIfDone(Session* session) {
  if (session->next_send == session->opts.count && session->settled == session->opts.count) Finish(session);
}

}  // namespace nettools::icmp
