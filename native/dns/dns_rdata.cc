#include "dns/dns_rdata.h"

#include <string>
#include <utility>

namespace nettools::dns {

namespace {

Status ReadAddress(Reader& rd, size_t len, IpBytes* out) {
  if (rd.remaining() != len) return Status::kBadRdata;
  std::string raw;
  if (!rd.bytes(len, &raw)) return Status::kBadRdata;
  *out = IpBytes::Of(reinterpret_cast<const uint8_t*>(raw.data()), raw.size());
  return Status::kOk;
}

// A name inside RDATA: a name that runs past RDLENGTH is the record's fault, not the message's.
Status ReadRdataName(Reader& rd, Name* out) {
  Status s = ReadName(rd, out);
  return s == Status::kTruncated ? Status::kBadRdata : s;
}

Status ReadNames(Reader& rd, Record* rec, int count) {
  for (int i = 0; i < count; ++i) {
    Name n;
    Status s = ReadRdataName(rd, &n);
    if (s != Status::kOk) return s;
    rec->names.push_back(std::move(n));
  }
  return Status::kOk;
}

bool ReadCharacterString(Reader& rd, std::string* out) {
  uint8_t len = 0;
  return rd.u8(&len) && rd.bytes(len, out);
}

bool ReadU8s(Reader& rd, Record* rec, int count) {
  for (int i = 0; i < count; ++i) {
    uint8_t v = 0;
    if (!rd.u8(&v)) return false;
    rec->numbers.push_back(v);
  }
  return true;
}

bool ReadU16s(Reader& rd, Record* rec, int count) {
  for (int i = 0; i < count; ++i) {
    uint16_t v = 0;
    if (!rd.u16(&v)) return false;
    rec->numbers.push_back(v);
  }
  return true;
}

bool ReadU32s(Reader& rd, Record* rec, int count) {
  for (int i = 0; i < count; ++i) {
    uint32_t v = 0;
    if (!rd.u32(&v)) return false;
    rec->numbers.push_back(v);
  }
  return true;
}

bool ReadRest(Reader& rd, std::string* out) { return rd.bytes(rd.remaining(), out); }

Status ReadTxt(Reader& rd, Record* rec) {
  while (rd.remaining() > 0) {
    std::string part;
    if (!ReadCharacterString(rd, &part)) return Status::kBadRdata;
    rec->parts.push_back(std::move(part));
  }
  return Status::kOk;
}

Status ReadSoa(Reader& rd, Record* rec) {
  Status s = ReadNames(rd, rec, 2);
  if (s != Status::kOk) return s;
  return ReadU32s(rd, rec, 5) ? Status::kOk : Status::kBadRdata;
}

// RFC 8659: flags, a tag of 1..255 letters and digits, the value to the end.
Status ReadCaa(Reader& rd, Record* rec) {
  std::string tag;
  if (!ReadU8s(rd, rec, 1) || !ReadCharacterString(rd, &tag) || tag.empty()) return Status::kBadRdata;
  for (char c : tag) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum) return Status::kBadRdata;
  }
  rec->parts.push_back(std::move(tag));
  ReadRest(rd, &rec->data);
  return Status::kOk;
}

Status ReadSrv(Reader& rd, Record* rec) {
  if (!ReadU16s(rd, rec, 3)) return Status::kBadRdata;
  return ReadNames(rd, rec, 1);
}

Status ReadNaptr(Reader& rd, Record* rec) {
  if (!ReadU16s(rd, rec, 2)) return Status::kBadRdata;
  for (int i = 0; i < 3; ++i) {
    std::string part;
    if (!ReadCharacterString(rd, &part)) return Status::kBadRdata;
    rec->parts.push_back(std::move(part));
  }
  return ReadNames(rd, rec, 1);
}

// DS: key tag (16), algorithm, digest type (8 each), a digest of at least one byte. DNSKEY: flags (16),
// protocol, algorithm (8 each), a key of at least one byte. TLSA: three 8-bit fields, data.
Status ReadKeyLike(Reader& rd, Record* rec, int u16s, int u8s) {
  if (!ReadU16s(rd, rec, u16s) || !ReadU8s(rd, rec, u8s) || rd.remaining() == 0) return Status::kBadRdata;
  ReadRest(rd, &rec->data);
  return Status::kOk;
}

// RFC 4034 section 3.1: type covered (16), algorithm, labels (8 each), original TTL, expiration,
// inception (32 each), key tag (16), the signer's name (never compressed, but read as any name inside
// RDATA is), a signature of at least one byte.
Status ReadRrsig(Reader& rd, Record* rec) {
  if (!ReadU16s(rd, rec, 1) || !ReadU8s(rd, rec, 2) || !ReadU32s(rd, rec, 3) || !ReadU16s(rd, rec, 1)) {
    return Status::kBadRdata;
  }
  Status s = ReadNames(rd, rec, 1);
  if (s != Status::kOk) return s;
  if (rd.remaining() == 0) return Status::kBadRdata;
  ReadRest(rd, &rec->data);
  return Status::kOk;
}

// The value's shape for the keys we name (RFC 9460 section 7, RFC 9848 for ech); other keys' values are opaque.
bool SvcValueFits(uint16_t key, const std::string& v) {
  switch (key) {
    case svc::kMandatory:
      return !v.empty() && v.size() % 2 == 0;
    case svc::kAlpn: {
      if (v.empty()) return false;
      Reader r(reinterpret_cast<const uint8_t*>(v.data()), v.size());
      std::string id;
      while (r.remaining() > 0) {
        if (!ReadCharacterString(r, &id) || id.empty()) return false;
      }
      return true;
    }
    case svc::kNoDefaultAlpn:
      return v.empty();
    case svc::kPort:
      return v.size() == 2;
    case svc::kIpv4Hint:
      return !v.empty() && v.size() % 4 == 0;
    case svc::kIpv6Hint:
      return !v.empty() && v.size() % 16 == 0;
    default:
      return true;
  }
}

// RFC 9460 section 2.2: keys in strictly increasing order, each value shaped for its key.
Status ReadSvcb(Reader& rd, Record* rec) {
  if (!ReadU16s(rd, rec, 1)) return Status::kBadRdata;
  Status s = ReadNames(rd, rec, 1);
  if (s != Status::kOk) return s;
  while (rd.remaining() > 0) {
    SvcParam p;
    uint16_t len = 0;
    if (!rd.u16(&p.key) || !rd.u16(&len) || !rd.bytes(len, &p.value)) return Status::kBadRdata;
    if (!rec->params.empty() && p.key <= rec->params.back().key) return Status::kBadRdata;
    if (!SvcValueFits(p.key, p.value)) return Status::kBadRdata;
    rec->params.push_back(std::move(p));
  }
  return Status::kOk;
}

Status ReadTyped(Reader& rd, Record* rec) {
  switch (rec->type) {
    case type::kA:
      return ReadAddress(rd, 4, &rec->address);
    case type::kAaaa:
      return ReadAddress(rd, 16, &rec->address);
    case type::kMx:
      if (!rd.u16(&rec->preference)) return Status::kBadRdata;
      return ReadName(rd, &rec->target);
    case type::kCname:
    case type::kPtr:
      return ReadName(rd, &rec->target);
    case type::kNs:
      return ReadRdataName(rd, &rec->target);
    case type::kTxt:
      return ReadTxt(rd, rec);
    case type::kSoa:
      return ReadSoa(rd, rec);
    case type::kCaa:
      return ReadCaa(rd, rec);
    case type::kSrv:
      return ReadSrv(rd, rec);
    case type::kNaptr:
      return ReadNaptr(rd, rec);
    case type::kDs:
      return ReadKeyLike(rd, rec, 1, 2);
    case type::kDnskey:
      return ReadKeyLike(rd, rec, 1, 2);
    case type::kTlsa:
      return ReadKeyLike(rd, rec, 0, 3);
    case type::kSvcb:
    case type::kHttps:
      return ReadSvcb(rd, rec);
    case type::kRrsig:
      return ReadRrsig(rd, rec);
    default:
      return Status::kOk;
  }
}

struct TypeName {
  const char* name;
  uint16_t code;
};

constexpr TypeName kTypeNames[] = {
    {"A", type::kA},         {"AAAA", type::kAaaa},     {"MX", type::kMx},       {"TXT", type::kTxt},
    {"PTR", type::kPtr},     {"CNAME", type::kCname},   {"NS", type::kNs},       {"SOA", type::kSoa},
    {"CAA", type::kCaa},     {"SRV", type::kSrv},       {"NAPTR", type::kNaptr}, {"DS", type::kDs},
    {"DNSKEY", type::kDnskey}, {"TLSA", type::kTlsa},   {"SVCB", type::kSvcb},   {"HTTPS", type::kHttps},
};

}  // namespace

bool TypeFromName(const char* name, uint16_t* out) {
  for (const TypeName& t : kTypeNames) {
    if (std::strcmp(name, t.name) == 0) {
      *out = t.code;
      return true;
    }
  }
  return false;
}

bool RdataWanted(uint16_t t) {
  switch (t) {
    case type::kA: case type::kAaaa: case type::kMx: case type::kTxt: case type::kCname: case type::kPtr:
    case type::kNs: case type::kSoa: case type::kCaa: case type::kSrv: case type::kNaptr: case type::kDs:
    case type::kDnskey: case type::kTlsa: case type::kSvcb: case type::kHttps: case type::kRrsig:
      return true;
    default:
      return false;
  }
}

Status ReadRdata(Reader& rd, Record* rec) {
  Status s = ReadTyped(rd, rec);
  if (s != Status::kOk) return s;
  return rd.remaining() == 0 ? Status::kOk : Status::kBadRdata;
}

}  // namespace nettools::dns
