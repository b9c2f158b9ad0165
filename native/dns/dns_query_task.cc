#include "dns/dns_query_task.h"

#include <netinet/in.h>

#include <cmath>
#include <cstring>

#include "dns/dns_answer.h"
#include "dns/dns_query.h"
#include "dns/dns_random.h"

namespace nettools::dns {

namespace {

// Off-path spoofers can send from anywhere: only the resolver's exact address and port may answer.
bool SameEndpoint(const sockaddr* from, const sockaddr_storage& server) {
  if (from == nullptr || from->sa_family != server.ss_family) return false;
  if (from->sa_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(from);
    const auto* b = reinterpret_cast<const sockaddr_in*>(&server);
    return a->sin_port == b->sin_port && a->sin_addr.s_addr == b->sin_addr.s_addr;
  }
  if (from->sa_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(from);
    const auto* b = reinterpret_cast<const sockaddr_in6*>(&server);
    return a->sin6_port == b->sin6_port && std::memcmp(&a->sin6_addr, &b->sin6_addr, sizeof(in6_addr)) == 0;
  }
  return false;
}

Status FromUv(int err) {
  if (err == UV_ECONNREFUSED) return Status::kConnectionRefused;
  if (err == UV_EOF || err == UV_ECONNRESET || err == UV_EPIPE) return Status::kConnectionClosed;
  return Status::kNetworkError;
}

}  // namespace

QueryTask::QueryTask(std::shared_ptr<EngineCore> core, uint32_t id) : core_(std::move(core)), id_(id) {
  udp_.data = this;
  timer_.data = this;
  tcp_.data = this;
  connect_req_.data = this;
  write_req_.data = this;
  for (auto& req : send_reqs_) req.data = this;
}

Status QueryTask::Begin(const QuerySpec& spec) {
  if (spec.server.ss_family != AF_INET && spec.server.ss_family != AF_INET6) return Status::kInvalidAddress;
  Status s = NameFromText(spec.name, &qname_);
  if (s != Status::kOk) return s;
  s = RandomId(&txid_);
  if (s != Status::kOk) return s;
  server_ = spec.server;
  qtype_ = spec.type;
  timeout_ms_ = spec.timeout_ms == 0 ? 1 : spec.timeout_ms;
  packet_ = BuildQuery(txid_, qname_, qtype_);
  tcp_out_.reserve(packet_.size() + 2);
  tcp_out_.push_back(static_cast<uint8_t>(packet_.size() >> 8));
  tcp_out_.push_back(static_cast<uint8_t>(packet_.size() & 0xFF));
  tcp_out_.insert(tcp_out_.end(), packet_.begin(), packet_.end());

  uv_loop_t* loop = core_->loop_;
  if (uv_timer_init(loop, &timer_) != 0) return Status::kNetworkError;
  timer_open_ = true;
  if (uv_udp_init(loop, &udp_) != 0) return Status::kNetworkError;
  udp_open_ = true;
  // A new socket bound to port 0 per query: the kernel picks a fresh ephemeral port, which a spoofer must guess too.
  sockaddr_storage any{};
  unsigned bind_flags = 0;
  if (server_.ss_family == AF_INET) {
    auto* a = reinterpret_cast<sockaddr_in*>(&any);
    a->sin_family = AF_INET;
  } else {
    auto* a = reinterpret_cast<sockaddr_in6*>(&any);
    a->sin6_family = AF_INET6;
    bind_flags = UV_UDP_IPV6ONLY;
  }
  if (uv_udp_bind(&udp_, reinterpret_cast<const sockaddr*>(&any), bind_flags) != 0) return Status::kNetworkError;
  if (uv_udp_recv_start(&udp_, OnAlloc, OnUdpRecv) != 0) return Status::kNetworkError;
  started_ns_ = uv_hrtime();
  s = SendUdp();
  if (s != Status::kOk) return s;
  // First stop at half the budget for the one resend, then the rest of the budget.
  if (uv_timer_start(&timer_, OnTimer, timeout_ms_ / 2, 0) != 0) return Status::kNetworkError;
  return Status::kOk;
}

Status QueryTask::SendUdp() {
  if (sends_ >= static_cast<int>(send_reqs_.size())) return Status::kOk;
  uv_buf_t buf = uv_buf_init(reinterpret_cast<char*>(packet_.data()), static_cast<unsigned>(packet_.size()));
  int err = uv_udp_send(&send_reqs_[sends_], &udp_, &buf, 1, reinterpret_cast<const sockaddr*>(&server_), OnUdpSend);
  if (err != 0) return FromUv(err);
  sends_++;
  core_->counters_.sent++;
  return Status::kOk;
}

void QueryTask::OnAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
  auto* self = static_cast<QueryTask*>(handle->data);
  *buf = uv_buf_init(reinterpret_cast<char*>(self->in_.data()), static_cast<unsigned>(self->in_.size()));
}

void QueryTask::OnUdpSend(uv_udp_send_t* req, int status) {
  auto* self = static_cast<QueryTask*>(req->data);
  // ECANCELED: the socket was closed under the send (TCP fallback or the end of the query).
  if (status < 0 && status != UV_ECANCELED && !self->finished_) self->Fail(FromUv(status));
}

void QueryTask::OnUdpRecv(uv_udp_t* udp, ssize_t nread, const uv_buf_t*, const sockaddr* addr, unsigned flags) {
  auto* self = static_cast<QueryTask*>(udp->data);
  // nread < 0 on an unconnected socket is a transient receive error: keep waiting for the real answer.
  if (self->finished_ || nread <= 0) return;
  if (flags & UV_UDP_PARTIAL) {
    self->core_->counters_.malformed_dropped++;
    return;
  }
  self->OnDatagram(self->in_.data(), static_cast<size_t>(nread), addr);
}

void QueryTask::OnDatagram(const uint8_t* data, size_t size, const sockaddr* from) {
  Counters& counters = core_->counters_;
  if (!SameEndpoint(from, server_)) {
    counters.mismatched_dropped++;
    return;
  }
  Message m;
  if (ParseMessage(data, size, &m) != Status::kOk) {
    counters.malformed_dropped++;
    return;
  }
  if (!AnswersQuery(m, txid_, qname_, qtype_)) {
    counters.mismatched_dropped++;
    return;
  }
  if (m.header.has(flag::kTc)) {
    StartTcp();
    return;
  }
  Accept(m, false);
}

void QueryTask::OnTimer(uv_timer_t* timer) {
  auto* self = static_cast<QueryTask*>(timer->data);
  if (self->finished_) return;
  if (++self->timer_fires_ == 1) {
    if (self->udp_open_) {
      self->core_->counters_.retries++;
      Status s = self->SendUdp();
      if (s != Status::kOk) return self->Fail(s);
    }
    uv_timer_start(&self->timer_, OnTimer, self->timeout_ms_ - self->timeout_ms_ / 2, 0);
    return;
  }
  self->Fail(Status::kTimeout);
}

void QueryTask::StartTcp() {
  core_->counters_.tcp_fallbacks++;
  CloseHandle(reinterpret_cast<uv_handle_t*>(&udp_), &udp_open_);
  if (uv_tcp_init(core_->loop_, &tcp_) != 0) return Fail(Status::kNetworkError);
  tcp_open_ = true;
  int err = uv_tcp_connect(&connect_req_, &tcp_, reinterpret_cast<const sockaddr*>(&server_), OnTcpConnect);
  if (err != 0) Fail(FromUv(err));
}

void QueryTask::OnTcpConnect(uv_connect_t* req, int status) {
  auto* self = static_cast<QueryTask*>(req->data);
  if (self->finished_) return;
  if (status < 0) return self->Fail(FromUv(status));
  uv_buf_t buf = uv_buf_init(reinterpret_cast<char*>(self->tcp_out_.data()),
                             static_cast<unsigned>(self->tcp_out_.size()));
  auto* stream = reinterpret_cast<uv_stream_t*>(&self->tcp_);
  int err = uv_write(&self->write_req_, stream, &buf, 1, OnTcpWrite);
  if (err == 0) err = uv_read_start(stream, OnAlloc, OnTcpRead);
  if (err != 0) return self->Fail(FromUv(err));
  self->core_->counters_.sent++;
}

void QueryTask::OnTcpWrite(uv_write_t* req, int status) {
  auto* self = static_cast<QueryTask*>(req->data);
  if (status < 0 && status != UV_ECANCELED && !self->finished_) self->Fail(FromUv(status));
}

void QueryTask::OnTcpRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t*) {
  auto* self = static_cast<QueryTask*>(stream->data);
  if (self->finished_ || nread == 0) return;
  if (nread < 0) return self->Fail(FromUv(static_cast<int>(nread)));
  self->tcp_in_.insert(self->tcp_in_.end(), self->in_.begin(), self->in_.begin() + nread);
  self->DrainTcp();
}

void QueryTask::DrainTcp() {
  size_t consumed = 0;
  Reader r(tcp_in_.data(), tcp_in_.size());
  uint16_t len = 0;
  while (!finished_ && r.u16(&len) && r.remaining() >= len) {
    size_t start = r.pos();
    r.skip(len);
    consumed = r.pos();
    Message m;
    // The stream is ours alone, so a malformed answer here is the resolver's, not a spoofer's: report it.
    Status s = ParseMessage(tcp_in_.data() + start, len, &m);
    if (s != Status::kOk) return Fail(s);
    if (!AnswersQuery(m, txid_, qname_, qtype_)) {
      core_->counters_.mismatched_dropped++;
      continue;
    }
    return Accept(m, true);
  }
  tcp_in_.erase(tcp_in_.begin(), tcp_in_.begin() + static_cast<std::ptrdiff_t>(consumed));
}

void QueryTask::Accept(const Message& m, bool tcp) {
  QueryOutcome o;
  o.rcode = m.header.rcode();
  o.flags = m.header.flags;
  o.tcp = tcp;
  Answer a = ExtractAnswer(m, qname_, qtype_);
  for (const Record* link : a.chain) {
    o.chain.push_back(CnameLink{NameToText(link->name), NameToText(link->target), link->ttl});
  }
  for (const Record* rec : a.records) o.records.push_back(*rec);
  Finish(o);
}

void QueryTask::Fail(Status s) {
  QueryOutcome o;
  o.status = s;
  Finish(o);
}

void QueryTask::Finish(QueryOutcome& outcome) {
  if (finished_) return;
  // Monotonic, from the first send to the accepted answer, resends and TCP included; microsecond precision.
  outcome.rtt_ms = std::round(static_cast<double>(uv_hrtime() - started_ns_) / 1e3) / 1e3;
  std::shared_ptr<EngineCore> core = core_;
  uint32_t id = id_;
  Close();  // may free this
  core->Finished(id, outcome);
}

void QueryTask::Close() {
  if (closing_) return;
  closing_ = true;
  finished_ = true;
  CloseHandle(reinterpret_cast<uv_handle_t*>(&timer_), &timer_open_);
  CloseHandle(reinterpret_cast<uv_handle_t*>(&udp_), &udp_open_);
  CloseHandle(reinterpret_cast<uv_handle_t*>(&tcp_), &tcp_open_);
  if (closes_pending_ == 0) delete this;
}

void QueryTask::CloseHandle(uv_handle_t* handle, bool* open) {
  if (!*open) return;
  *open = false;
  closes_pending_++;
  uv_close(handle, OnClosed);
}

void QueryTask::OnClosed(uv_handle_t* handle) {
  auto* self = static_cast<QueryTask*>(handle->data);
  if (--self->closes_pending_ == 0 && self->closing_) delete self;
}

}  // namespace nettools::dns
