#include "dns/dns_engine.h"

#include <algorithm>
#include <memory>

#include "dns/dns_query_task.h"
#include "dns/dns_tls_channel.h"
#include "dns/dns_tls_context.h"
#include "dns/dns_udp_channel.h"

namespace nettools::dns {

namespace {

template <typename Handle>
void FreeHandle(uv_handle_t* handle) {
  delete static_cast<std::shared_ptr<void>*>(handle->data);
  delete reinterpret_cast<Handle*>(handle);
}

// The handle holds `teardown` until libuv is done with it; nothing reads `data` once it is closing.
template <typename Handle>
void CloseHandle(Handle*& h, const std::shared_ptr<void>& teardown) {
  if (h == nullptr) return;
  h->data = new std::shared_ptr<void>(teardown);
  uv_close(reinterpret_cast<uv_handle_t*>(h), FreeHandle<Handle>);
  h = nullptr;
}

// Leftover entries of settled queries beyond this many per live one are swept out in one pass.
constexpr size_t kDeadlineSlack = 4;

// A DoT connection's identity: the resolver's exact address and port, and the name it is checked against.
std::string TlsKey(const sockaddr_storage& server, const std::string& name) {
  std::string key;
  if (server.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&server);
    key.append(reinterpret_cast<const char*>(&a->sin_addr), sizeof a->sin_addr);
    key.append(reinterpret_cast<const char*>(&a->sin_port), sizeof a->sin_port);
  } else {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&server);
    key.append(reinterpret_cast<const char*>(&a->sin6_addr), sizeof a->sin6_addr);
    key.append(reinterpret_cast<const char*>(&a->sin6_port), sizeof a->sin6_port);
    key.append(reinterpret_cast<const char*>(&a->sin6_scope_id), sizeof a->sin6_scope_id);
  }
  key.push_back('/');
  key.append(name);
  return key;
}

}  // namespace

Status StatusFromUv(int err) {
  if (err == UV_ECONNREFUSED) return Status::kConnectionRefused;
  if (err == UV_EOF || err == UV_ECONNRESET || err == UV_EPIPE) return Status::kConnectionClosed;
  return Status::kNetworkError;
}

EngineCore::EngineCore(uv_loop_t* loop, Done done, std::shared_ptr<void> teardown, uint32_t window, std::string tls_ca_file)
    : loop_(loop), done_(std::move(done)), teardown_(std::move(teardown)), window_(window), tls_ca_file_(std::move(tls_ca_file)) {}

EngineCore::~EngineCore() {
  Shutdown();
  SSL_CTX_free(tls_ctx_);  // each connection holds its own reference until it is freed
}

Status EngineCore::Start(const QuerySpec& spec, uint32_t* id) {
  if (shut_down_) return Status::kEngineClosed;
  if (!EnsureHandles()) return Status::kNetworkError;
  uint32_t qid = next_id_++;
  if (next_id_ == 0) next_id_ = 1;
  auto* task = new QueryTask(shared_from_this(), qid);
  Status s = task->Begin(spec);
  if (s != Status::kOk) {
    task->Close();
    return s;
  }
  counters_.queries++;
  active_[qid] = task;
  *id = qid;
  Schedule(qid, task->deadline_ms());
  return Status::kOk;
}

// Made on first use, so an engine that never queries holds nothing; closed at shutdown. Handles on the
// heap: libuv may call their close callbacks after this object is gone.
bool EngineCore::EnsureHandles() {
  if (timer_ != nullptr) return true;
  auto timer = std::make_unique<uv_timer_t>();
  auto prepare = std::make_unique<uv_prepare_t>();
  auto check = std::make_unique<uv_check_t>();
  if (uv_timer_init(loop_, timer.get()) != 0) return false;
  timer_ = timer.release();
  if (uv_prepare_init(loop_, prepare.get()) != 0) {
    CloseHandle(timer_, teardown_);
    return false;
  }
  prepare_ = prepare.release();
  if (uv_check_init(loop_, check.get()) != 0) {
    CloseHandle(timer_, teardown_);
    CloseHandle(prepare_, teardown_);
    return false;
  }
  check_ = check.release();
  timer_->data = this;
  prepare_->data = this;
  check_->data = this;
  // Never what keeps Node running: in-flight queries do that through the timer.
  uv_unref(reinterpret_cast<uv_handle_t*>(timer_));
  uv_unref(reinterpret_cast<uv_handle_t*>(prepare_));
  uv_unref(reinterpret_cast<uv_handle_t*>(check_));
  return true;
}

std::vector<uint8_t>& EngineCore::ReceiveBuffer() {
  constexpr size_t kSlice = 64 * 1024;  // libuv's UV__UDP_DGRAM_MAXSIZE
  constexpr size_t kSlices = 20;        // libuv's UV__MMSG_MAXWIDTH
  if (receive_buffer_.empty()) receive_buffer_.resize(kSlice * kSlices);
  return receive_buffer_;
}

void EngineCore::ChannelQueued(UdpChannel* ch) {
  WantFlush();
  queued_.push_back(ch);
}

void EngineCore::WantFlush() {
  if (prepare_ == nullptr || shut_down_) return;
  uv_prepare_start(prepare_, [](uv_prepare_t* p) { static_cast<EngineCore*>(p->data)->FlushAll(); });
  uv_check_start(check_, [](uv_check_t* c) { static_cast<EngineCore*>(c->data)->FlushAll(); });
}

void EngineCore::SlotFreed(uint64_t server) {
  if (shut_down_) return;
  window_.Leave(server);
  if (window_.has_admissible()) WantFlush();
}

void EngineCore::AdmitWaiting() {
  while (window_.has_admissible() && !shut_down_) {
    for (const auto& [server, qid] : window_.Admit()) {
      if (shut_down_) return;
      auto it = active_.find(qid);
      if (it == active_.end() || !it->second->waiting()) {
        window_.Leave(server);  // settled while it waited: the slot is free again
        continue;
      }
      QueryTask* task = it->second;
      Status s = task->Launch();
      if (s != Status::kOk) {
        task->Fail(s);  // calls into JS; gives the slot back
        continue;
      }
      Schedule(qid, task->deadline_ms());
    }
  }
}

void EngineCore::FlushAll() {
  // Keeps this object alive through callbacks into JS (a failed send settles its query).
  std::shared_ptr<EngineCore> self = shared_from_this();
  AdmitWaiting();
  while (!queued_.empty() && !shut_down_) {
    UdpChannel* ch = queued_.back();
    queued_.pop_back();
    ch->Flush();
  }
  while (!tls_queued_.empty() && !shut_down_) {
    TlsChannel* ch = tls_queued_.back();
    tls_queued_.pop_back();
    ch->WriteUnsent();  // a failure tells its queries, which may call into JS
  }
  if (queued_.empty() && tls_queued_.empty() && !window_.has_admissible() && prepare_ != nullptr) {
    uv_prepare_stop(prepare_);
    uv_check_stop(check_);
  }
}

UdpChannel* EngineCore::ChannelFor(int family, Status* status) {
  UdpChannel*& current = family == AF_INET6 ? current_v6_ : current_v4_;
  if (current != nullptr && current->Exhausted(uv_now(loop_))) {
    UdpChannel* old = current;
    current = nullptr;
    old->Retire();
  }
  if (current == nullptr) {
    current = UdpChannel::Open(this, loop_, family, status);
    if (current == nullptr) return nullptr;
    channels_.push_back(current);
  }
  *status = Status::kOk;
  return current;
}

TlsChannel* EngineCore::TlsChannelFor(const sockaddr_storage& server, const std::string& name, Status* status) {
  const std::string key = TlsKey(server, name);
  auto it = tls_channels_.find(key);
  if (it != tls_channels_.end()) {
    *status = Status::kOk;
    return it->second;
  }
  // Made again after a failure: the trust anchors may be readable by the next query.
  if (tls_ctx_ == nullptr) tls_ctx_ = NewTlsContext(tls_ca_file_, status);
  if (tls_ctx_ == nullptr) return nullptr;
  TlsChannel* ch = TlsChannel::Open(this, loop_, tls_ctx_, server, name, status);
  if (ch == nullptr) return nullptr;
  counters_.tls_connections++;
  tls_channels_.emplace(key, ch);
  return ch;
}

void EngineCore::TlsChannelIdle() {
  if (!shut_down_) ArmTimer();
}

void EngineCore::TlsChannelQueued(TlsChannel* ch) {
  WantFlush();
  tls_queued_.push_back(ch);
}

void EngineCore::TlsChannelClosing(TlsChannel* ch) {
  tls_queued_.erase(std::remove(tls_queued_.begin(), tls_queued_.end(), ch), tls_queued_.end());
  for (auto it = tls_channels_.begin(); it != tls_channels_.end(); ++it) {
    if (it->second != ch) continue;
    tls_channels_.erase(it);
    return;
  }
}

bool EngineCore::TlsIdleExpiry(uint64_t* due) const {
  bool have = false;
  for (const auto& entry : tls_channels_) {
    const TlsChannel* ch = entry.second;
    if (!ch->idle() || !ch->established()) continue;
    if (!have || ch->expires_ms() < *due) *due = ch->expires_ms();
    have = true;
  }
  return have;
}

void EngineCore::CloseIdleTls(uint64_t now) {
  std::vector<TlsChannel*> expired;
  for (const auto& entry : tls_channels_) {
    TlsChannel* ch = entry.second;
    if (ch->idle() && ch->established() && ch->expires_ms() <= now) expired.push_back(ch);
  }
  for (TlsChannel* ch : expired) ch->Close(Status::kCancelled);
}

void EngineCore::AgeSockets(uint64_t ms) {
  if (shut_down_) return;
  for (UdpChannel* ch : channels_) ch->Age(ms);
  for (const auto& entry : tls_channels_) entry.second->Age(ms);
  // The idle sockets' expiry moved: the timer is re-armed for it (at once for one already past it).
  timer_armed_ = false;
  ArmTimer();
}

// An idle current socket stays open (unreferenced) for the next burst until its age runs out.
void EngineCore::ChannelIdle(UdpChannel*) {
  if (active_.empty()) ArmTimer();
}

void EngineCore::ChannelClosing(UdpChannel* ch) {
  if (current_v4_ == ch) current_v4_ = nullptr;
  if (current_v6_ == ch) current_v6_ = nullptr;
  channels_.erase(std::remove(channels_.begin(), channels_.end(), ch), channels_.end());
  queued_.erase(std::remove(queued_.begin(), queued_.end(), ch), queued_.end());
}

bool EngineCore::Cancel(uint32_t id, uint8_t* sends) {
  auto it = active_.find(id);
  if (it == active_.end()) return false;
  QueryTask* task = it->second;
  active_.erase(it);
  counters_.cancelled++;
  uint8_t sent = task->Cancel();
  if (sends != nullptr) *sends = sent;
  if (active_.empty()) ArmTimer();
  return true;
}

void EngineCore::Shutdown() {
  if (shut_down_) return;
  shut_down_ = true;
  done_ = nullptr;
  std::vector<uint32_t> ids;
  ids.reserve(active_.size());
  for (const auto& entry : active_) ids.push_back(entry.first);
  for (uint32_t id : ids) Cancel(id);
  deadlines_.Clear();
  window_.Clear();
  std::vector<UdpChannel*> open = channels_;
  for (UdpChannel* ch : open) ch->Close();
  std::vector<TlsChannel*> connections;
  for (const auto& entry : tls_channels_) connections.push_back(entry.second);
  for (TlsChannel* ch : connections) ch->Close(Status::kCancelled);
  queued_.clear();
  tls_queued_.clear();
  CloseHandle(timer_, teardown_);
  CloseHandle(prepare_, teardown_);
  CloseHandle(check_, teardown_);
  // From here only handles still closing hold it.
  teardown_.reset();
}

void EngineCore::SendFailed(uint32_t id, Status s) {
  auto it = active_.find(id);
  if (it != active_.end()) it->second->Fail(s);
}

void EngineCore::Schedule(uint32_t id, uint64_t when_ms) {
  deadlines_.Push(when_ms, id);
  if (deadlines_.size() > kDeadlineSlack * active_.size() + 1024) {
    deadlines_.Prune([this](const Deadline& d) {
      auto it = active_.find(d.query);
      return it != active_.end() && it->second->deadline_ms() == d.when_ms;
    });
  }
  // Same-budget queries come due in the order they started: the timer rarely needs moving.
  if (!timer_armed_ || when_ms < timer_due_ || !timer_refd_) ArmTimer();
}

// Armed for the earliest query deadline and referenced while queries are in flight; when none are,
// armed unreferenced for the idle sockets' expiry, so an idle engine never keeps Node running.
void EngineCore::ArmTimer() {
  if (timer_ == nullptr) return;
  auto* handle = reinterpret_cast<uv_handle_t*>(timer_);
  uint64_t due = 0;
  bool have = false;
  bool busy = !active_.empty();
  if (busy) {
    due = deadlines_.top().when_ms;
    have = true;
  } else {
    deadlines_.Clear();
    for (UdpChannel* ch : channels_) {
      if (!ch->idle()) continue;
      if (!have || ch->expires_ms() < due) due = ch->expires_ms();
      have = true;
    }
  }
  // Idle DoT connections end on time even while other queries keep the engine busy.
  uint64_t tls_due = 0;
  if (TlsIdleExpiry(&tls_due) && (!have || tls_due < due)) {
    due = tls_due;
    have = true;
  }
  if (busy != timer_refd_) {
    if (busy) uv_ref(handle);
    else uv_unref(handle);
    timer_refd_ = busy;
  }
  if (!have) {
    if (timer_armed_) uv_timer_stop(timer_);
    timer_armed_ = false;
    return;
  }
  if (timer_armed_ && due == timer_due_) return;
  uint64_t now = uv_now(loop_);
  uv_timer_start(timer_, [](uv_timer_t* t) { static_cast<EngineCore*>(t->data)->OnTimer(); },
                 due > now ? due - now : 0, 0);
  timer_due_ = due;
  timer_armed_ = true;
}

void EngineCore::OnTimer() {
  timer_armed_ = false;
  // Keeps this object alive through callbacks into JS, which may drop the engine.
  std::shared_ptr<EngineCore> self = shared_from_this();
  uint64_t now = uv_now(loop_);
  if (!deadlines_.empty() && deadlines_.top().when_ms <= now) {
    // A copy: answers call into JS, which may open sockets; closed ones are freed only by libuv, later.
    std::vector<UdpChannel*> open = channels_;
    for (UdpChannel* ch : open) {
      if (shut_down_) return;
      ch->Drain();
    }
  }
  while (!shut_down_ && !deadlines_.empty() && deadlines_.top().when_ms <= now) {
    Deadline d = deadlines_.top();
    deadlines_.Pop();
    auto it = active_.find(d.query);
    if (it == active_.end() || it->second->deadline_ms() != d.when_ms) continue;
    it->second->OnDeadline();  // may settle the query and call into JS
  }
  if (shut_down_) return;
  std::vector<UdpChannel*> expired;
  for (UdpChannel* ch : channels_) {
    if (ch->idle() && ch->expires_ms() <= now) expired.push_back(ch);
  }
  for (UdpChannel* ch : expired) ch->Close();
  CloseIdleTls(now);
  ArmTimer();
}

void EngineCore::Finished(uint32_t id, QueryOutcome& outcome) {
  active_.erase(id);
  if (outcome.status == Status::kOk) {
    counters_.answered++;
  } else if (outcome.status == Status::kTimeout) {
    counters_.timeouts++;
  } else {
    counters_.errors++;
  }
  if (active_.empty()) ArmTimer();
  // A copy: the callback may run JS that shuts the engine down while it runs.
  Done done = done_;
  if (done) done(id, outcome);
}

}  // namespace nettools::dns
