#include "dns/dns_message.h"

#include <algorithm>

#include "dns/dns_edns.h"
#include "dns/dns_rdata.h"

namespace nettools::dns {

namespace {

constexpr size_t kHeaderSize = 12;
constexpr size_t kMinQuestion = 5;  // root name + type + class
constexpr size_t kMinRecord = 11;   // root name + type + class + ttl + rdlength
constexpr size_t kAnswersReserved = 8;

Status ReadHeader(Reader& r, Header* h) {
  if (!r.u16(&h->id) || !r.u16(&h->flags) || !r.u16(&h->qdcount) || !r.u16(&h->ancount) ||
      !r.u16(&h->nscount) || !r.u16(&h->arcount)) {
    return Status::kTruncated;
  }
  return Status::kOk;
}

// Counts claim more entries than the bytes could possibly hold: refuse before allocating for them.
bool CountsFit(const Header& h, size_t size) {
  size_t need = static_cast<size_t>(h.qdcount) * kMinQuestion +
                (static_cast<size_t>(h.ancount) + h.nscount + h.arcount) * kMinRecord;
  return need <= size - kHeaderSize;
}

// `out` null: authority and additional records, walked only so a cut or garbled tail is noticed; the
// first OPT among them is read into `edns` when given.
Status ReadRecord(Reader& r, std::vector<Record>* out, Edns* edns = nullptr) {
  Record rec;
  Status s = ReadName(r, &rec.name);
  if (s != Status::kOk) return s;
  uint16_t rdlength = 0;
  if (!r.u16(&rec.type) || !r.u16(&rec.klass) || !r.u32(&rec.ttl) || !r.u16(&rdlength)) {
    return Status::kTruncated;
  }
  Reader rd(nullptr, 0);
  if (!r.limit(rdlength, &rd)) return Status::kTruncated;
  // An OPT's TTL carries flags, not a time: read before the clamp below.
  if (edns != nullptr && rec.type == type::kOpt && !edns->present) {
    s = ReadOpt(rd, rec.ttl, edns);
    if (s != Status::kOk) return s;
  }
  // RFC 2181 section 8: a TTL with the top bit set is treated as zero.
  if (rec.ttl > 0x7FFFFFFFu) rec.ttl = 0;
  if (out != nullptr && RdataWanted(rec.type) && rec.klass == kClassIn) {
    s = ReadRdata(rd, &rec);
    if (s != Status::kOk) return s;
    out->push_back(std::move(rec));
  }
  return r.skip(rdlength) ? Status::kOk : Status::kTruncated;
}

}  // namespace

Status ParseMessage(const uint8_t* data, size_t size, Message* out) {
  *out = Message();
  Reader r(data, size);
  Status s = ReadHeader(r, &out->header);
  if (s != Status::kOk) return s;
  if (!CountsFit(out->header, size)) return Status::kBadCounts;
  for (uint16_t i = 0; i < out->header.qdcount; ++i) {
    Question q;
    s = ReadName(r, &q.name);
    if (s != Status::kOk) return s;
    if (!r.u16(&q.type) || !r.u16(&q.klass)) return Status::kTruncated;
    out->questions.push_back(std::move(q));
  }
  if (out->header.has(flag::kTc)) return Status::kOk;
  // Room for a usual answer at once, not grown 1, 2, 4 by moves; a count a hostile message inflates
  // reserves no more than this.
  out->answers.reserve(std::min<size_t>(out->header.ancount, kAnswersReserved));
  for (uint16_t i = 0; i < out->header.ancount; ++i) {
    s = ReadRecord(r, &out->answers);
    if (s != Status::kOk) return s;
  }
  for (uint16_t i = 0; i < out->header.nscount; ++i) {
    s = ReadRecord(r, nullptr);
    if (s != Status::kOk) return s;
  }
  for (uint16_t i = 0; i < out->header.arcount; ++i) {
    s = ReadRecord(r, nullptr, &out->edns);
    if (s != Status::kOk) return s;
  }
  return Status::kOk;
}

}  // namespace nettools::dns
