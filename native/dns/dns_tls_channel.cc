#include "dns/dns_tls_channel.h"

#include <openssl/err.h>

#include <algorithm>

#include "common/reader.h"
#include "dns/dns_engine.h"
#include "dns/dns_message.h"
#include "dns/dns_query.h"
#include "dns/dns_query_task.h"
#include "dns/dns_tls_context.h"

namespace nettools::dns {

// Ciphertext on its way out: libuv writes from this buffer until the write's callback.
struct TlsChannel::WriteReq {
  uv_write_t req{};
  std::vector<uint8_t> bytes;
};

TlsChannel::TlsChannel(EngineCore* core, SSL* ssl) : core_(core), teardown_(core->teardown_), ssl_(ssl) {
  tcp_.data = this;
  connect_.data = this;
}

TlsChannel::~TlsChannel() { SSL_free(ssl_); }

TlsChannel* TlsChannel::Open(EngineCore* core, uv_loop_t* loop, SSL_CTX* ctx, const sockaddr_storage& server,
                             const std::string& name, Status* status) {
  SSL* ssl = NewTlsConnection(ctx, name);
  *status = Status::kTlsUnavailable;
  if (ssl == nullptr) return nullptr;
  auto* ch = new TlsChannel(core, ssl);
  *status = Status::kNetworkError;
  if (uv_tcp_init(loop, &ch->tcp_) != 0) {
    delete ch;
    return nullptr;
  }
  (void)uv_tcp_nodelay(&ch->tcp_, 1);  // queries are small and each waits for its answer
  int err = uv_tcp_connect(&ch->connect_, &ch->tcp_, reinterpret_cast<const sockaddr*>(&server), OnConnect);
  if (err != 0) {
    *status = StatusFromUv(err);
    ch->state_ = State::kClosing;
    uv_close(reinterpret_cast<uv_handle_t*>(&ch->tcp_), OnClosed);
    return nullptr;
  }
  ch->idle_since_ms_ = uv_now(loop);
  *status = Status::kOk;
  return ch;
}

Status TlsChannel::Send(QueryTask* task, std::vector<uint8_t>* packet, RandomPool* ids, uint16_t* txid) {
  if (state_ == State::kClosing) return Status::kConnectionClosed;
  if (packet->size() < 2) return Status::kInvalidArgument;
  uint16_t id = 0;
  do {
    if (!ids->U16(&id)) return Status::kRandomUnavailable;
  } while (std::any_of(waiting_.begin(), waiting_.end(), [id](const Waiting& w) { return w.txid == id; }));
  (*packet)[0] = static_cast<uint8_t>(id >> 8);
  (*packet)[1] = static_cast<uint8_t>(id & 0xFF);
  // Written at the end of the loop phase with the others of the burst: one TLS write and one send for
  // them all (or once the handshake is done).
  unsent_.push_back(Unsent{id, FrameMessage(*packet)});
  if (state_ == State::kOpen && !queued_) {
    queued_ = true;
    core_->TlsChannelQueued(this);
  }
  if (waiting_.empty()) uv_ref(reinterpret_cast<uv_handle_t*>(&tcp_));
  waiting_.push_back(Waiting{id, task});
  *txid = id;
  return Status::kOk;
}

size_t TlsChannel::Release(uint16_t txid) {
  auto it = std::find_if(waiting_.begin(), waiting_.end(), [txid](const Waiting& w) { return w.txid == txid; });
  if (it == waiting_.end()) return 0;
  *it = waiting_.back();
  waiting_.pop_back();
  auto unsent = std::remove_if(unsent_.begin(), unsent_.end(), [txid](const Unsent& u) { return u.txid == txid; });
  const size_t dropped = static_cast<size_t>(unsent_.end() - unsent);
  unsent_.erase(unsent, unsent_.end());
  if (waiting_.empty() && state_ != State::kClosing) GoIdle();
  return dropped;
}

// Nobody waits: an open connection stays for the next query until kIdleMs pass (the engine's timer
// closes it); one still being set up is given up, since nothing needs it.
void TlsChannel::GoIdle() {
  if (state_ != State::kOpen) return Close(Status::kCancelled);
  uv_unref(reinterpret_cast<uv_handle_t*>(&tcp_));
  idle_since_ms_ = uv_now(core_->loop_);
  core_->TlsChannelIdle();
}

void TlsChannel::Close(Status why, const std::string& detail) {
  if (state_ == State::kClosing) return;
  state_ = State::kClosing;
  core_->TlsChannelClosing(this);
  uv_close(reinterpret_cast<uv_handle_t*>(&tcp_), OnClosed);
  unsent_.clear();
  // One at a time off the list: a query told may call into JS, which may cancel the others (each then
  // leaves the list through Release before it is freed) or close the engine.
  while (!waiting_.empty()) {
    QueryTask* task = waiting_.back().task;
    waiting_.pop_back();
    task->OnTlsClosed(why, detail);
  }
}

void TlsChannel::OnClosed(uv_handle_t* handle) { delete static_cast<TlsChannel*>(handle->data); }

void TlsChannel::OnConnect(uv_connect_t* req, int status) {
  auto* self = static_cast<TlsChannel*>(req->data);
  if (self->state_ == State::kClosing) return;
  // A failure here calls into JS, which may drop the engine: it stays until this callback is done.
  std::shared_ptr<EngineCore> core = self->core_->shared_from_this();
  if (status < 0) return self->Close(StatusFromUv(status));
  int err = uv_read_start(reinterpret_cast<uv_stream_t*>(&self->tcp_), OnAlloc, OnRead);
  if (err != 0) return self->Close(StatusFromUv(err));
  self->state_ = State::kHandshaking;
  self->Handshake();
}

void TlsChannel::Handshake() {
  ERR_clear_error();
  const int r = SSL_do_handshake(ssl_);
  if (r == 1) {
    state_ = State::kOpen;
    return WriteUnsent();  // with the handshake's last flight
  }
  std::string detail;
  Status s = Status::kOk;
  if (SSL_get_error(ssl_, r) != SSL_ERROR_WANT_READ) s = TlsFailure(ssl_, &detail);
  // The next flight, or the alert that tells the resolver why we stop.
  Status flushed = FlushOut();
  if (s == Status::kOk) s = flushed;
  if (s != Status::kOk) Close(s, detail);
}

void TlsChannel::WriteUnsent() {
  queued_ = false;
  if (state_ != State::kOpen) return;
  std::vector<uint8_t> plain;
  for (const Unsent& u : unsent_) plain.insert(plain.end(), u.frame.begin(), u.frame.end());
  unsent_.clear();
  std::string detail;
  Status s = plain.empty() ? Status::kOk : WritePlain(plain, &detail);
  if (s == Status::kOk) s = FlushOut();  // with the handshake's last flight, when it just ended
  if (s != Status::kOk) return Close(s, detail);
  if (waiting_.empty()) GoIdle();
}

Status TlsChannel::WritePlain(const std::vector<uint8_t>& plain, std::string* detail) {
  ERR_clear_error();
  // Memory buffers take it all at once, in as many records as it needs: a write is never partial.
  if (SSL_write(ssl_, plain.data(), static_cast<int>(plain.size())) == static_cast<int>(plain.size())) return Status::kOk;
  TlsFailure(ssl_, detail);
  return Status::kNetworkError;
}

Status TlsChannel::FlushOut() {
  BIO* out = SSL_get_wbio(ssl_);
  const size_t pending = BIO_ctrl_pending(out);
  if (pending == 0 || state_ == State::kClosing) return Status::kOk;
  auto w = std::make_unique<WriteReq>();
  w->bytes.resize(pending);
  const int got = BIO_read(out, w->bytes.data(), static_cast<int>(pending));
  if (got <= 0) return Status::kOk;
  w->bytes.resize(static_cast<size_t>(got));
  w->req.data = this;
  uv_buf_t buf = uv_buf_init(reinterpret_cast<char*>(w->bytes.data()), static_cast<unsigned>(w->bytes.size()));
  const int err = uv_write(&w->req, reinterpret_cast<uv_stream_t*>(&tcp_), &buf, 1, OnWrite);
  if (err != 0) return StatusFromUv(err);
  w.release();  // OnWrite frees it
  return Status::kOk;
}

void TlsChannel::OnWrite(uv_write_t* req, int status) {
  std::unique_ptr<WriteReq> w(reinterpret_cast<WriteReq*>(req));
  auto* self = static_cast<TlsChannel*>(req->data);
  // ECANCELED: the socket was closed under the write; the channel is closing already.
  if (status < 0 && status != UV_ECANCELED) self->Close(StatusFromUv(status));
}

void TlsChannel::OnAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
  auto* self = static_cast<TlsChannel*>(handle->data);
  if (self->read_buf_.empty()) self->read_buf_.resize(StreamFrames::kMaxChunk);
  *buf = uv_buf_init(reinterpret_cast<char*>(self->read_buf_.data()), static_cast<unsigned>(self->read_buf_.size()));
}

void TlsChannel::OnRead(uv_stream_t* stream, ssize_t nread, const uv_buf_t*) {
  auto* self = static_cast<TlsChannel*>(stream->data);
  if (self->state_ == State::kClosing || nread == 0) return;
  // Answers call into JS, which may drop the engine: it stays until this read is done.
  std::shared_ptr<EngineCore> core = self->core_->shared_from_this();
  // Closed before the handshake was done: no TLS server there, or one that would not talk to us. Not a
  // closed connection the query may try again on.
  if (nread < 0 && self->state_ == State::kHandshaking) {
    return self->Close(Status::kTlsHandshakeFailed, "the connection closed during the handshake");
  }
  if (nread < 0) return self->Close(StatusFromUv(static_cast<int>(nread)));
  BIO_write(SSL_get_rbio(self->ssl_), self->read_buf_.data(), static_cast<int>(nread));
  if (self->state_ == State::kHandshaking) self->Handshake();
  if (self->state_ == State::kOpen) self->ReadPlain();
}

// Decrypts what has come, at most a TLS record at a time, and hands on each whole answer as it is read.
void TlsChannel::ReadPlain() {
  uint8_t plain[StreamFrames::kMaxChunk];
  while (state_ == State::kOpen) {
    ERR_clear_error();
    const int n = SSL_read(ssl_, plain, sizeof plain);
    if (n <= 0) {
      const int e = SSL_get_error(ssl_, n);
      if (e == SSL_ERROR_WANT_READ) break;
      ERR_clear_error();
      // close_notify: the resolver ended the connection in order (it was idle, or it is shutting down).
      return Close(e == SSL_ERROR_ZERO_RETURN ? Status::kConnectionClosed : Status::kNetworkError);
    }
    // Always whole: a TLS record's plaintext is at most kMaxChunk, and every whole message is taken below.
    if (!frames_.Append(plain, static_cast<size_t>(n))) return Close(Status::kNetworkError);
    const uint8_t* message = nullptr;
    size_t size = 0;
    while (state_ == State::kOpen && frames_.Next(&message, &size)) Deliver(message, size);
  }
  if (state_ != State::kOpen) return;
  Status s = FlushOut();  // what reading made TLS say (a key update's answer)
  if (s != Status::kOk) Close(s);
}

// An answer goes to the waiting query its ID names when it answers exactly that query's question; a
// message that does not parse fails the query its ID names, since the stream is the resolver's alone.
void TlsChannel::Deliver(const uint8_t* message, size_t size) {
  Reader r(message, size);
  uint16_t id = 0;
  auto it = r.u16(&id) ? std::find_if(waiting_.begin(), waiting_.end(), [id](const Waiting& w) { return w.txid == id; })
                       : waiting_.end();
  Message m;
  Status s = ParseMessage(message, size, &m);
  if (it == waiting_.end()) {
    (s == Status::kOk ? core_->counters_.mismatched_dropped : core_->counters_.malformed_dropped)++;
    return;
  }
  QueryTask* task = it->task;
  if (s == Status::kOk && !AnswersQuery(m, id, task->qname(), task->qtype())) {
    core_->counters_.mismatched_dropped++;
    return;
  }
  Release(id);
  if (s != Status::kOk) return task->Fail(s);
  task->OnTlsAnswer(std::move(m));
}

}  // namespace nettools::dns
