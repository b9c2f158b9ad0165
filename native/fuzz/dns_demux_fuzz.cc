// Hostile datagrams and sources against the shared-socket demultiplexer: it must never crash, and a
// datagram it accepts must come from the named query's exact resolver and answer exactly its question.
// fuzz-sources: dns/dns_demux.cc dns/dns_name.cc dns/dns_message.cc dns/dns_edns.cc dns/dns_rdata.cc dns/dns_query.cc dns/dns_status.cc
#include <netinet/in.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/reader.h"
#include "dns/dns_demux.h"
#include "dns/dns_query.h"

using namespace nettools::dns;
using nettools::Reader;

namespace {

const char* const kNames[] = {"example.test", "one.test", "a.b.c.example.test", "ExAmPlE.TeSt"};

sockaddr_storage V4(uint32_t addr, uint16_t port) {
  sockaddr_storage s{};
  auto* a = reinterpret_cast<sockaddr_in*>(&s);
  a->sin_family = AF_INET;
  a->sin_addr.s_addr = htonl(0x7f000000u | (addr & 0xffu));  // loopback only: 127.0.0.x
  a->sin_port = htons(port);
  return s;
}

}  // namespace

// Input: a count byte, then per waiting query txid(2) type(2) port-low(1) addr-low(1) name-index(1);
// then the source's addr-low(1) port-low(1) and family bit(1); the rest is the datagram.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader r(data, size);
  uint8_t count = 0;
  if (!r.u8(&count)) return 0;
  count %= 8;
  std::vector<sockaddr_storage> servers(count);
  std::vector<Name> names(count);
  std::vector<Waiting> waiting(count);
  for (size_t i = 0; i < count; ++i) {
    uint16_t txid = 0, qtype = 0;
    uint8_t port = 0, addr = 0, name = 0;
    if (!r.u16(&txid) || !r.u16(&qtype) || !r.u8(&port) || !r.u8(&addr) || !r.u8(&name)) return 0;
    servers[i] = V4(addr % 4, static_cast<uint16_t>(5300 + port % 4));
    if (NameFromText(kNames[name % 4], &names[i]) != Status::kOk) std::abort();
    waiting[i] = Waiting{txid, &servers[i], &names[i], qtype};
  }
  uint8_t from_addr = 0, from_port = 0, family = 0;
  if (!r.u8(&from_addr) || !r.u8(&from_port) || !r.u8(&family)) return 0;
  sockaddr_storage from = V4(from_addr % 4, static_cast<uint16_t>(5300 + from_port % 4));
  if (family & 1) from.ss_family = AF_INET6;  // a family mismatch must never match
  std::string rest;
  if (!r.bytes(r.remaining(), &rest)) return 0;
  std::vector<uint8_t> datagram(rest.begin(), rest.end());

  size_t index = 0;
  Message m;
  Verdict v = Demultiplex(datagram.data(), datagram.size(), reinterpret_cast<const sockaddr*>(&from), waiting.data(),
                          waiting.size(), &index, &m);
  if (v == Verdict::kAnswer) {
    if (index >= waiting.size()) std::abort();
    const Waiting& w = waiting[index];
    if (!SameEndpoint(reinterpret_cast<const sockaddr*>(&from), *w.server)) std::abort();
    if (!AnswersQuery(m, w.txid, *w.qname, w.qtype)) std::abort();
  }
  return 0;
}
