#include "dns/dns_query_task.h"

#include <cmath>

#include "common/reader.h"
#include "dns/dns_answer.h"
#include "dns/dns_query.h"
#include "dns/dns_resolver_window.h"
#include "dns/dns_tls_channel.h"
#include "dns/dns_udp_channel.h"

namespace nettools::dns {

QueryTask::QueryTask(std::shared_ptr<EngineCore> core, uint32_t id) : core_(std::move(core)), id_(id) {}

Status QueryTask::Begin(const QuerySpec& spec) {
  if (spec.server.ss_family != AF_INET && spec.server.ss_family != AF_INET6) return Status::kInvalidAddress;
  Status s = NameFromText(spec.name, &qname_);
  if (s != Status::kOk) return s;
  server_ = spec.server;
  qtype_ = spec.type;
  timeout_ms_ = spec.timeout_ms == 0 ? 1 : spec.timeout_ms;
  tls_name_ = spec.tls_name;
  if (tls_name_.empty()) {
    UdpChannel* ch = core_->ChannelFor(server_.ss_family, &s);
    if (ch == nullptr) return s;
    s = ch->Register(this, &core_->ids_, &txid_);
    if (s != Status::kOk) return s;
    channel_ = ch;
  }
  // A DoT query's ID is drawn by its connection when it is sent.
  packet_ = BuildQuery(txid_, qname_, qtype_, QueryEdns{spec.dnssec, spec.subnet});
  server_key_ = ServerKey(server_);
  started_ns_ = uv_hrtime();
  started_ms_ = uv_now(core_->loop_);
  if (core_->window_.Enter(server_key_, id_)) return Launch();
  // Waits for a slot in the resolver's window; its budget runs meanwhile.
  waiting_ = true;
  resent_ = true;
  deadline_ms_ = started_ms_ + timeout_ms_;
  return Status::kOk;
}

Status QueryTask::Launch() {
  waiting_ = false;
  holds_slot_ = true;
  const uint64_t now = uv_now(core_->loop_);
  const uint64_t end = started_ms_ + timeout_ms_;
  // Its budget ran out while it waited (the engine's timer had not yet said so): nothing is sent.
  if (now >= end) return Status::kTimeout;
  const uint64_t left = end - now;
  // The round trip is timed from the send, not from the wait for a slot.
  started_ns_ = uv_hrtime();
  if (!tls_name_.empty()) {
    resent_ = true;
    deadline_ms_ = end;
    return SendTls();
  }
  // First stop at the resolver's resend time for the one resend, then the rest of the budget; a resend
  // time at or past what is left leaves no room for one.
  const uint64_t resend_after = core_->resend_.ResendAfterMs(server_key_, left);
  resent_ = resend_after >= left;
  deadline_ms_ = resent_ ? end : now + resend_after;
  return SendUdp();
}

Status QueryTask::SendUdp() {
  Status s = channel_->Queue(packet_, server_, id_, txid_);
  if (s == Status::kOk) sends_++;
  return s;
}

Status QueryTask::SendTls() {
  Status s = Status::kOk;
  TlsChannel* ch = core_->TlsChannelFor(server_, tls_name_, &s);
  if (ch == nullptr) return s;
  s = ch->Send(this, &packet_, &core_->ids_, &txid_);
  if (s != Status::kOk) return s;
  tls_channel_ = ch;
  sends_++;
  core_->counters_.sent++;
  return Status::kOk;
}

void QueryTask::OnTlsAnswer(Message&& m) {
  tls_channel_ = nullptr;  // the connection let go of this query before handing the answer on
  Accept(std::move(m), Transport::kTls);
}

// A connection the resolver closed (idle, restarting) may have taken the query with it unanswered: it
// goes once more on a new connection while its budget lasts. TLS failures are final: the next
// connection would meet the same certificate.
void QueryTask::OnTlsClosed(Status s, const std::string& detail) {
  tls_channel_ = nullptr;
  if (finished_) return;
  if (s == Status::kConnectionClosed && !tls_resent_ && uv_now(core_->loop_) < started_ms_ + timeout_ms_) {
    tls_resent_ = true;
    core_->counters_.retries++;
    s = SendTls();
    if (s == Status::kOk) return;
  }
  Fail(s, detail);
}

void QueryTask::OnDeadline() {
  if (finished_) return;
  if (resent_) return Fail(Status::kTimeout);
  resent_ = true;
  core_->resend_.Missed(server_key_, uv_now(core_->loop_));
  deadline_ms_ = started_ms_ + timeout_ms_;
  if (channel_ != nullptr) {
    core_->counters_.retries++;
    Status s = SendUdp();
    if (s != Status::kOk) return Fail(s);
  }
  core_->Schedule(id_, deadline_ms_);
}

void QueryTask::OnUdpAnswer(Message&& m) {
  // Only an answer to a query sent once is a clean sample (Karn): after a resend it could answer either.
  if (sends_ == 1) core_->resend_.Observe(server_key_, static_cast<double>(uv_hrtime() - started_ns_) / 1e6);
  if (m.header.has(flag::kTc)) return StartTcp();
  Accept(std::move(m), Transport::kUdp);
}

// The ID stays reserved on the socket: a late duplicate for it is dropped, never matched to another query.
// A datagram still queued is dropped there, so it is no longer counted as sent.
void QueryTask::LeaveChannel() {
  if (tls_channel_ != nullptr) {
    TlsChannel* tls = tls_channel_;
    tls_channel_ = nullptr;
    sends_ = static_cast<uint8_t>(sends_ - tls->Release(txid_));
  }
  if (channel_ == nullptr) return;
  UdpChannel* ch = channel_;
  channel_ = nullptr;
  sends_ = static_cast<uint8_t>(sends_ - ch->Release(txid_));
}

void QueryTask::StartTcp() {
  core_->counters_.tcp_fallbacks++;
  LeaveChannel();
  tcp_ = std::make_unique<Tcp>();
  tcp_->teardown = core_->teardown_;
  tcp_->handle.data = this;
  tcp_->connect_req.data = this;
  tcp_->write_req.data = this;
  tcp_->out.reserve(packet_.size() + 2);
  tcp_->out.push_back(static_cast<uint8_t>(packet_.size() >> 8));
  tcp_->out.push_back(static_cast<uint8_t>(packet_.size() & 0xFF));
  tcp_->out.insert(tcp_->out.end(), packet_.begin(), packet_.end());
  if (uv_tcp_init(core_->loop_, &tcp_->handle) != 0) return Fail(Status::kNetworkError);
  tcp_->open = true;
  const auto* to = reinterpret_cast<const sockaddr*>(&server_);
  int err = uv_tcp_connect(&tcp_->connect_req, &tcp_->handle, to, OnTcpConnect);
  if (err != 0) Fail(StatusFromUv(err));
}

void QueryTask::OnTcpConnect(uv_connect_t* req, int status) {
  auto* self = static_cast<QueryTask*>(req->data);
  if (self->finished_) return;
  if (status < 0) return self->Fail(StatusFromUv(status));
  self->sends_++;
  Tcp& tcp = *self->tcp_;
  uv_buf_t buf = uv_buf_init(reinterpret_cast<char*>(tcp.out.data()), static_cast<unsigned>(tcp.out.size()));
  auto* stream = reinterpret_cast<uv_stream_t*>(&tcp.handle);
  int err = uv_write(&tcp.write_req, stream, &buf, 1, OnTcpWrite);
  if (err == 0) err = uv_read_start(stream, OnTcpAlloc, OnTcpRead);
  if (err != 0) return self->Fail(StatusFromUv(err));
  self->core_->counters_.sent++;
}

void QueryTask::OnTcpWrite(uv_write_t* req, int status) {
  auto* self = static_cast<QueryTask*>(req->data);
  if (status < 0 && status != UV_ECANCELED && !self->finished_) self->Fail(StatusFromUv(status));
}

void QueryTask::OnTcpAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
  auto* self = static_cast<QueryTask*>(handle->data);
  std::vector<uint8_t>& b = self->tcp_->buf;
  if (b.empty()) b.resize(4096);
  *buf = uv_buf_init(reinterpret_cast<char*>(b.data()), static_cast<unsigned>(b.size()));
}

void QueryTask::OnTcpRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t*) {
  auto* self = static_cast<QueryTask*>(stream->data);
  if (self->finished_ || nread == 0) return;
  if (nread < 0) return self->Fail(StatusFromUv(static_cast<int>(nread)));
  Tcp& tcp = *self->tcp_;
  tcp.in.insert(tcp.in.end(), tcp.buf.begin(), tcp.buf.begin() + nread);
  self->DrainTcp();
}

void QueryTask::DrainTcp() {
  std::vector<uint8_t>& in = tcp_->in;
  size_t consumed = 0;
  Reader r(in.data(), in.size());
  uint16_t len = 0;
  while (!finished_ && r.u16(&len) && r.remaining() >= len) {
    size_t start = r.pos();
    r.skip(len);
    consumed = r.pos();
    Message m;
    // The stream is ours alone, so a malformed answer here is the resolver's, not a spoofer's: report it.
    Status s = ParseMessage(in.data() + start, len, &m);
    if (s != Status::kOk) return Fail(s);
    if (!AnswersQuery(m, txid_, qname_, qtype_)) {
      core_->counters_.mismatched_dropped++;
      continue;
    }
    return Accept(std::move(m), Transport::kTcp);
  }
  in.erase(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(consumed));
}

void QueryTask::Accept(Message&& m, Transport transport) {
  QueryOutcome o;
  o.rcode = m.header.rcode();
  o.flags = m.header.flags;
  o.transport = transport;
  Answer a = ExtractAnswer(m, qname_, qtype_);
  for (const Record* link : a.chain) {
    o.chain.push_back(CnameLink{NameToText(link->name), NameToText(link->target), link->ttl});
  }
  // RRSIGs are copied first: a question for RRSIG has them among its records too, which move next.
  for (const Record& rec : m.answers) {
    if (rec.type == type::kRrsig) o.rrsigs.push_back(rec);
  }
  // Records grew vectors and strings for the newer types: moved, not copied, out of a message that ends here.
  o.records.reserve(a.records.size());
  for (const Record* rec : a.records) o.records.push_back(std::move(const_cast<Record&>(*rec)));
  o.edns = std::move(m.edns);
  Finish(o);
}

void QueryTask::Fail(Status s, const std::string& detail) {
  QueryOutcome o;
  o.status = s;
  o.detail = detail;
  Finish(o);
}

void QueryTask::Finish(QueryOutcome& outcome) {
  if (finished_) return;
  // Monotonic, from the first send to the accepted answer, resends and TCP included; microsecond precision.
  outcome.rtt_ms = std::round(static_cast<double>(uv_hrtime() - started_ns_) / 1e3) / 1e3;
  LeaveChannel();  // first: a datagram it drops unsent is not counted
  outcome.sends = sends_;
  std::shared_ptr<EngineCore> core = core_;
  uint32_t id = id_;
  Close();  // may free this
  core->Finished(id, outcome);
}

void QueryTask::Close() {
  if (closing_) return;
  closing_ = true;
  finished_ = true;
  waiting_ = false;
  LeaveChannel();
  if (holds_slot_) {
    holds_slot_ = false;
    core_->SlotFreed(server_key_);
  }
  if (tcp_ != nullptr && tcp_->open) {
    tcp_->open = false;
    uv_close(reinterpret_cast<uv_handle_t*>(&tcp_->handle), OnTcpClosed);
    return;
  }
  delete this;
}

uint8_t QueryTask::Cancel() {
  LeaveChannel();
  uint8_t sent = sends_;
  Close();  // may free this
  return sent;
}

void QueryTask::OnTcpClosed(uv_handle_t* handle) { delete static_cast<QueryTask*>(handle->data); }

}  // namespace nettools::dns
