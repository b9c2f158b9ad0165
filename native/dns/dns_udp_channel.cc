#include "dns/dns_udp_channel.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>

#include <algorithm>
#include <memory>

#include "dns/dns_demux.h"
#include "dns/dns_engine.h"
#include "dns/dns_message.h"
#include "dns/dns_query_task.h"

namespace nettools::dns {

namespace {

// A send the kernel could not take at once: it owns a copy of the packet, since the query may settle
// (and free its own) before libuv gets to it.
struct PendingSend {
  uv_udp_send_t req{};
  std::vector<uint8_t> packet;
  std::weak_ptr<EngineCore> core;
  uint32_t query = 0;
};

void OnSent(uv_udp_send_t* req, int status) {
  std::unique_ptr<PendingSend> send(static_cast<PendingSend*>(req->data));
  // ECANCELED: the socket was closed under the send, at shutdown.
  if (status >= 0 || status == UV_ECANCELED) return;
  if (auto core = send->core.lock()) core->SendFailed(send->query, StatusFromUv(status));
}

}  // namespace

UdpChannel::UdpChannel(EngineCore* core, int family, uint64_t opened_ms)
    : core_(core), teardown_(core->teardown_), family_(family), opened_ms_(opened_ms) {
  udp_.data = this;
  waiting_.reserve(kMaxQueries);
  tasks_.reserve(kMaxQueries);
  used_.reserve(kMaxQueries);
}

UdpChannel* UdpChannel::Open(EngineCore* core, uv_loop_t* loop, int family, Status* status) {
  auto* ch = new UdpChannel(core, family, uv_now(loop));
  // recvmmsg: a burst of answers is read in one syscall instead of one each.
  if (uv_udp_init_ex(loop, &ch->udp_, static_cast<unsigned>(family) | UV_UDP_RECVMMSG) != 0) {
    delete ch;
    *status = Status::kNetworkError;
    return nullptr;
  }
  sockaddr_storage any{};
  unsigned bind_flags = 0;
  if (family == AF_INET) {
    reinterpret_cast<sockaddr_in*>(&any)->sin_family = AF_INET;
  } else {
    reinterpret_cast<sockaddr_in6*>(&any)->sin6_family = AF_INET6;
    bind_flags = UV_UDP_IPV6ONLY;
  }
  if (uv_udp_bind(&ch->udp_, reinterpret_cast<const sockaddr*>(&any), bind_flags) != 0 ||
      uv_udp_recv_start(&ch->udp_, OnAlloc, OnRecv) != 0) {
    ch->Close();
    *status = Status::kNetworkError;
    return nullptr;
  }
  int size = kReceiveBuffer;
  // Best effort: the kernel caps it at net.core.rmem_max, and a smaller buffer still works.
  (void)uv_recv_buffer_size(reinterpret_cast<uv_handle_t*>(&ch->udp_), &size);
  // Idle until the first query registers: an open socket alone must not keep Node running.
  uv_unref(reinterpret_cast<uv_handle_t*>(&ch->udp_));
  *status = Status::kOk;
  return ch;
}

Status UdpChannel::Register(QueryTask* task, RandomPool* ids, uint16_t* txid) {
  uint16_t id = 0;
  do {
    if (!ids->U16(&id)) return Status::kRandomUnavailable;
  } while (std::find(used_.begin(), used_.end(), id) != used_.end());
  used_.push_back(id);
  if (waiting_.empty()) uv_ref(reinterpret_cast<uv_handle_t*>(&udp_));
  waiting_.push_back(Waiting{id, &task->server(), &task->qname(), task->qtype()});
  tasks_.push_back(task);
  *txid = id;
  return Status::kOk;
}

size_t UdpChannel::Release(uint16_t txid) {
  auto it = std::find_if(waiting_.begin(), waiting_.end(), [txid](const Waiting& w) { return w.txid == txid; });
  if (it == waiting_.end()) return 0;
  size_t i = static_cast<size_t>(it - waiting_.begin());
  waiting_[i] = waiting_.back();
  waiting_.pop_back();
  tasks_[i] = tasks_.back();
  tasks_.pop_back();
  // Not sent yet: a query that is gone must not reach the resolver.
  auto unsent = std::remove_if(queued_.begin(), queued_.end(), [txid](const Outgoing& o) { return o.txid == txid; });
  size_t dropped = static_cast<size_t>(queued_.end() - unsent);
  queued_.erase(unsent, queued_.end());
  if (!waiting_.empty() || closing_) return dropped;
  uv_unref(reinterpret_cast<uv_handle_t*>(&udp_));
  if (retired_) Close();
  else core_->ChannelIdle(this);
  return dropped;
}

Status UdpChannel::Queue(const std::vector<uint8_t>& packet, const sockaddr_storage& to, uint32_t query,
                         uint16_t txid) {
  if (closing_) return Status::kNetworkError;
  Outgoing out;
  if (packet.size() > out.data.size()) return Status::kInvalidName;
  out.query = query;
  out.txid = txid;
  out.size = static_cast<uint16_t>(packet.size());
  out.to = to;
  std::copy(packet.begin(), packet.end(), out.data.begin());
  if (queued_.empty()) core_->ChannelQueued(this);
  queued_.push_back(out);
  return Status::kOk;
}

void UdpChannel::Flush() {
  if (queued_.empty() || closing_) return;
  int fd = -1;
  size_t done = 0;
  if (uv_fileno(reinterpret_cast<uv_handle_t*>(&udp_), &fd) == 0) {
    constexpr size_t kBatch = 64;
    std::array<mmsghdr, kBatch> msgs{};
    std::array<iovec, kBatch> iov{};
    while (done < queued_.size()) {
      size_t n = std::min(kBatch, queued_.size() - done);
      for (size_t i = 0; i < n; ++i) {
        Outgoing& out = queued_[done + i];
        iov[i] = iovec{out.data.data(), out.size};
        msgs[i] = mmsghdr{};
        msgs[i].msg_hdr.msg_name = &out.to;
        msgs[i].msg_hdr.msg_namelen = out.to.ss_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
        msgs[i].msg_hdr.msg_iov = &iov[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
      }
      // Non-blocking: libuv opened the socket O_NONBLOCK; EAGAIN leaves the rest to libuv's own queue.
      int sent = sendmmsg(fd, msgs.data(), static_cast<unsigned>(n), 0);
      if (sent < 0 && errno == EINTR) continue;
      if (sent <= 0) break;
      done += static_cast<size_t>(sent);
    }
  }
  // What the kernel did not take in one go (full buffer, or an error for one datagram) goes through
  // libuv, which reports each failure on its own.
  core_->counters_.sent += done;
  std::vector<Outgoing> rest(queued_.begin() + static_cast<std::ptrdiff_t>(done), queued_.end());
  queued_.clear();
  // A failure settles its query, which calls into JS; that may queue more here (flushed next phase).
  for (const Outgoing& out : rest) {
    Status s = SendNow(out);
    if (s == Status::kOk) core_->counters_.sent++;
    else core_->SendFailed(out.query, s);
    if (closing_) return;
  }
}

Status UdpChannel::SendNow(const Outgoing& out) {
  const auto* addr = reinterpret_cast<const sockaddr*>(&out.to);
  uv_buf_t buf = uv_buf_init(const_cast<char*>(reinterpret_cast<const char*>(out.data.data())), out.size);
  int n = uv_udp_try_send(&udp_, &buf, 1, addr);
  if (n >= 0) return Status::kOk;
  if (n != UV_EAGAIN && n != UV_ENOSYS) return StatusFromUv(n);
  auto send = std::make_unique<PendingSend>();
  send->packet.assign(out.data.begin(), out.data.begin() + out.size);
  send->core = core_->weak_from_this();
  send->query = out.query;
  send->req.data = send.get();
  buf = uv_buf_init(reinterpret_cast<char*>(send->packet.data()), static_cast<unsigned>(send->packet.size()));
  int err = uv_udp_send(&send->req, &udp_, &buf, 1, addr, OnSent);
  if (err != 0) return StatusFromUv(err);
  send.release();  // OnSent owns it now
  return Status::kOk;
}

void UdpChannel::Retire() {
  if (retired_) return;
  retired_ = true;
  if (waiting_.empty()) Close();
}

void UdpChannel::Close() {
  if (closing_) return;
  closing_ = true;
  core_->ChannelClosing(this);
  uv_close(reinterpret_cast<uv_handle_t*>(&udp_), OnClosed);
}

void UdpChannel::OnClosed(uv_handle_t* handle) { delete static_cast<UdpChannel*>(handle->data); }

// The engine's one receive buffer: libuv hands every datagram of a batch to OnRecv before it asks
// for a buffer again, so all sockets can share it.
void UdpChannel::OnAlloc(uv_handle_t* handle, size_t, uv_buf_t* buf) {
  auto* self = static_cast<UdpChannel*>(handle->data);
  std::vector<uint8_t>& b = self->core_->ReceiveBuffer();
  *buf = uv_buf_init(reinterpret_cast<char*>(b.data()), static_cast<unsigned>(b.size()));
}

void UdpChannel::OnRecv(uv_udp_t* udp, ssize_t nread, const uv_buf_t* buf, const sockaddr* addr, unsigned flags) {
  auto* self = static_cast<UdpChannel*>(udp->data);
  // nread < 0 on an unconnected socket is a transient receive error: keep waiting for the real answers.
  // nread == 0 with UV_UDP_MMSG_FREE ends a batch: the buffer is the engine's, nothing to free.
  if (self->closing_ || nread <= 0) return;
  // Larger than any answer we ask for (EDNS 1232) by far: dropped unread, as before batching.
  if ((flags & UV_UDP_PARTIAL) || static_cast<size_t>(nread) > kMaxDatagram) {
    self->core_->counters_.malformed_dropped++;
    return;
  }
  self->OnDatagram(reinterpret_cast<const uint8_t*>(buf->base), static_cast<size_t>(nread), addr);
}

void UdpChannel::Drain() {
  int fd = -1;
  if (closing_ || waiting_.empty() || uv_fileno(reinterpret_cast<uv_handle_t*>(&udp_), &fd) != 0) return;
  std::vector<uint8_t>& b = core_->ReceiveBuffer();
  for (size_t n = 0; n < kMaxDrain && !closing_ && !waiting_.empty(); ++n) {
    sockaddr_storage from{};
    socklen_t from_len = sizeof(from);
    // MSG_TRUNC: the datagram's real length, so an oversized one is seen as such, as OnRecv sees it.
    ssize_t got = recvfrom(fd, b.data(), b.size(), MSG_DONTWAIT | MSG_TRUNC, reinterpret_cast<sockaddr*>(&from), &from_len);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return;  // EAGAIN: drained; anything else is libuv's to see and ignore, as in OnRecv
    if (static_cast<size_t>(got) > kMaxDatagram || static_cast<size_t>(got) > b.size()) {
      core_->counters_.malformed_dropped++;
      continue;
    }
    OnDatagram(b.data(), static_cast<size_t>(got), reinterpret_cast<const sockaddr*>(&from));  // may call into JS
  }
}

void UdpChannel::OnDatagram(const uint8_t* data, size_t size, const sockaddr* from) {
  Counters& counters = core_->counters_;
  Message m;
  size_t index = 0;
  switch (Demultiplex(data, size, from, waiting_.data(), waiting_.size(), &index, &m)) {
    case Verdict::kMismatched:
      counters.mismatched_dropped++;
      return;
    case Verdict::kMalformed:
      counters.malformed_dropped++;
      return;
    case Verdict::kAnswer:
      tasks_[index]->OnUdpAnswer(std::move(m));
      return;
  }
}

}  // namespace nettools::dns
