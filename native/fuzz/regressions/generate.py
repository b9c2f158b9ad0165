#!/usr/bin/env python3
"""Writes the regression corpus: one file per input under regressions/<target base>/, each hitting one rule
of native/dns/README.md ("Rules the parser keeps", "Rules the engine keeps"), one bound of the ICMP codec,
or one rule of the HTTP response parser (native/http/http_response_parser.cc), on both sides of the limit
where there is one. native/fuzz/run.sh replays every file through its target on
every run; an input that once crashed a target is copied here by hand under a name that says what it did.

Run from anywhere: python3 native/fuzz/regressions/generate.py (writes the generated files; files added by hand stay).
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def header(qd=1, an=0, ns=0, ar=0, flags=0x8180, txid=0x1234):
    return struct.pack(">6H", txid, flags, qd, an, ns, ar)


def name(*labels):
    return b"".join(bytes([len(l)]) + l for l in labels) + b"\x00"


def ptr(offset):
    return struct.pack(">H", 0xC000 | offset)


def rr(owner, rtype, rdata, ttl=300, klass=1):
    return owner + struct.pack(">HHIH", rtype, klass, ttl, len(rdata)) + rdata


QNAME = name(b"example", b"test")  # at offset 12 in every message below
QUESTION = QNAME + struct.pack(">HH", 1, 1)
A, CNAME, MX, TXT, AAAA = 1, 5, 15, 16, 28
NS, SOA, SRV, NAPTR, DS, DNSKEY, TLSA, SVCB, HTTPS, CAA = 2, 6, 33, 35, 43, 48, 52, 64, 65, 257


def pointer_chain(hops):
    """An answer whose owner name reaches the root through `hops` backward pointers.

    A first record of an unreported type carries the chain in its RDATA: entry 0 points at the root label
    that ends the question name, entry i at entry i-1; the second record's owner points at the last entry.
    """
    first_rdata_at = 12 + len(QUESTION) + 1 + 10  # root owner (1 byte), then type/class/ttl/rdlength
    root_at = 12 + len(QNAME) - 1
    chain = b""
    for i in range(hops - 1):
        chain += ptr(root_at if i == 0 else first_rdata_at + 2 * (i - 1))
    last = first_rdata_at + 2 * (hops - 2) if hops > 1 else root_at
    msg = header(an=2) + QUESTION + rr(b"\x00", 0xFF00, chain) + rr(ptr(last), A, bytes([192, 0, 2, 1]))
    return msg


def long_name(wire_len):
    """A name of exactly `wire_len` bytes on the wire (labels of 63, then one to make up the rest)."""
    labels, left = [], wire_len - 1
    while left > 64:
        labels.append(b"a" * 63)
        left -= 64
    labels.append(b"b" * (left - 1))
    return name(*labels)


DNS_RESPONSE = {
    # Compression pointers must point strictly before the stretch being read.
    "pointer_to_itself": header() + ptr(12) + struct.pack(">HH", 1, 1),
    "pointer_forward": header(an=1) + QUESTION + rr(ptr(60), A, bytes(4)) + name(b"x"),
    "pointer_into_header_legal": header() + ptr(4) + struct.pack(">HH", 1, 1),  # reads the root at byte 4
    "pointer_back_then_forward": header(an=1) + QUESTION
    + rr(b"\x01z" + ptr(12 + len(QUESTION)), A, bytes(4)),
    "pointer_cut_after_first_byte": header() + b"\x03abc\xc0",
    # At most 32 jumps: 32 are read, 33 refused.
    "pointer_chain_32_hops": pointer_chain(32),
    "pointer_chain_33_hops": pointer_chain(33),
    # Only label types 00 and 11.
    "label_type_01": header() + b"\x41" + b"x" * 65 + b"\x00\x00\x01\x00\x01",
    "label_type_10": header() + b"\x80" + b"x" * 8 + b"\x00\x00\x01\x00\x01",
    # Names at most 255 bytes on the wire, counted across pointers too.
    "name_255_bytes": header() + long_name(255) + struct.pack(">HH", 1, 1),
    "name_256_bytes": header() + long_name(256) + struct.pack(">HH", 1, 1),
    "name_256_bytes_via_pointer": header(an=1) + QUESTION
    + rr(long_name(256 - len(QNAME) + 1)[:-1] + ptr(12), A, bytes(4)),
    "label_cut": header() + b"\x3f" + b"x" * 10,
    # One byte short at the very end: what dns_response_fuzz found within seconds when Reader::bytes was
    # broken on purpose to allow reading one byte past the end.
    "label_one_byte_short": header() + b"\x07example\x04abc",
    # Section counts must fit the message before anything is allocated for them.
    "counts_all_max": header(qd=0xFFFF, an=0xFFFF, ns=0xFFFF, ar=0xFFFF) + QUESTION,
    "answer_count_one_too_many": header(an=2) + QUESTION + rr(ptr(12), A, bytes(4)),
    "header_cut": header()[:11],
    "empty": b"",
    # RDATA read through a reader limited to RDLENGTH and consumed exactly.
    "a_rdlength_5": header(an=1) + QUESTION + rr(ptr(12), A, bytes(5)),
    "a_rdlength_3": header(an=1) + QUESTION + rr(ptr(12), A, bytes(3)),
    "aaaa_rdlength_4": header(an=1) + QUESTION + rr(ptr(12), AAAA, bytes(4)),
    "rdlength_past_end": header(an=1) + QUESTION + ptr(12) + struct.pack(">HHIH", A, 1, 300, 400) + bytes(4),
    "mx_name_past_rdata": header(an=1) + QUESTION + rr(ptr(12), MX, b"\x00\x0a\x05ab"),
    "mx_trailing_byte": header(an=1) + QUESTION + rr(ptr(12), MX, b"\x00\x0a" + ptr(12) + b"\x00"),
    "mx_pointer_to_question": header(an=1) + QUESTION + rr(ptr(12), MX, b"\x00\x0a\x04mail" + ptr(12)),
    "mx_no_preference": header(an=1) + QUESTION + rr(ptr(12), MX, b"\x00"),
    "txt_string_past_rdata": header(an=1) + QUESTION + rr(ptr(12), TXT, b"\x10abc"),
    "txt_string_one_byte_short": header(an=1) + QUESTION + rr(ptr(12), TXT, b"\x04abc"),
    "txt_empty_strings": header(an=1) + QUESTION + rr(ptr(12), TXT, b"\x00\x00\x00"),
    "cname_trailing_byte": header(an=1) + QUESTION + rr(ptr(12), CNAME, ptr(12) + b"\x00"),
    "ttl_top_bit": header(an=1) + QUESTION + rr(ptr(12), A, bytes(4), ttl=0x80000001),
    # Authority and additional records walked for shape: a cut or garbled tail rejects the message.
    "authority_missing": header(an=1, ns=1) + QUESTION + rr(ptr(12), A, bytes(4)),
    "additional_cut": header(an=1, ar=1) + QUESTION + rr(ptr(12), A, bytes(4)) + ptr(12) + b"\x00\x02",
    "authority_bad_label": header(ns=1) + QUESTION + b"\x80" + bytes(10),
    # TC: only the question is read; what follows may be anything.
    "tc_with_garbage": header(flags=0x8380, an=1) + QUESTION + b"\xff" * 11,
    # CNAME chains: at most 8 links followed, loops end there too.
    "cname_chain_9_links": header(an=10) + QUESTION
    + b"".join(rr(name(b"c%d" % i, b"test") if i else ptr(12), CNAME, name(b"c%d" % (i + 1), b"test"))
               for i in range(9))
    + rr(name(b"c9", b"test"), A, bytes(4)),
    "cname_loop": header(an=2) + QUESTION
    + rr(ptr(12), CNAME, name(b"loop", b"test")) + rr(name(b"loop", b"test"), CNAME, ptr(12)),
    # Names whose text form needs escapes: dots, backslashes, control and high bytes inside labels.
    "name_needs_escapes": header(an=1) + QUESTION + rr(ptr(12), CNAME, name(b"a.b\\c", b"\x00\x1f\x7f\xff")),
    "two_questions_case_differs": header(qd=2) + QUESTION + name(b"EXAMPLE", b"TEST") + struct.pack(">HH", 1, 1),
}


def answer(rtype, rdata):
    return header(an=1) + QUESTION + rr(ptr(12), rtype, rdata)


def svc_param(key, value):
    return struct.pack(">HH", key, len(value)) + value


SOA_RDATA = name(b"ns", b"test") + ptr(12) + struct.pack(">5I", 1, 3600, 900, 604800, 60)
SVCB_RDATA = (struct.pack(">H", 1) + b"\x00" + svc_param(0, b"\x00\x01\x00\x03") + svc_param(1, b"\x02h2\x02h3")
              + svc_param(2, b"") + svc_param(3, b"\x01\xbb") + svc_param(4, bytes([192, 0, 2, 1]))
              + svc_param(5, b"\x00\x01\x02") + svc_param(6, bytes(16)) + svc_param(65000, b"\xff"))

# The newer types' RDATA readers (native/dns/dns_rdata.cc): a well-formed record of each, then each cut
# short, run over, or shaped wrongly for its type, so both sides of every length check are replayed.
DNS_RDATA = {
    "ns": answer(NS, ptr(12)),
    "ns_name_past_rdata": answer(NS, b"\x05ab"),
    "soa": answer(SOA, SOA_RDATA),
    "soa_cut_in_numbers": answer(SOA, SOA_RDATA[:-3]),
    "soa_one_name": answer(SOA, name(b"ns", b"test")),
    "soa_trailing_byte": answer(SOA, SOA_RDATA + b"\x00"),
    "soa_mname_pointer_loop": answer(SOA, b"\x01a" + ptr(12 + len(QUESTION) + 12)),
    "soa_mname_pointer_forward": answer(SOA, ptr(200) + ptr(12) + bytes(20)),
    "caa": answer(CAA, b"\x80\x05issueca.example"),
    "caa_empty_tag": answer(CAA, b"\x00\x00value"),
    "caa_tag_past_rdata": answer(CAA, b"\x00\x09iss"),
    "caa_tag_not_alnum": answer(CAA, b"\x00\x03a-bv"),
    "srv": answer(SRV, struct.pack(">3H", 1, 2, 443) + ptr(12)),
    "srv_short": answer(SRV, struct.pack(">2H", 1, 2) + b"\x01"),
    "srv_root_target": answer(SRV, struct.pack(">3H", 0, 0, 0) + b"\x00"),
    "naptr": answer(NAPTR, struct.pack(">2H", 100, 10) + b"\x01U\x07E2U+sip\x00" + b"\x00"),
    "naptr_string_past_rdata": answer(NAPTR, struct.pack(">2H", 100, 10) + b"\x01U\x30E2U"),
    "naptr_no_replacement": answer(NAPTR, struct.pack(">2H", 100, 10) + b"\x00\x00\x00"),
    "ds": answer(DS, struct.pack(">HBB", 12345, 13, 2) + bytes(range(32))),
    "ds_no_digest": answer(DS, struct.pack(">HBB", 12345, 13, 2)),
    "ds_cut_in_fields": answer(DS, b"\x30\x39\x0d"),
    "dnskey": answer(DNSKEY, struct.pack(">HBB", 257, 3, 8) + bytes(range(256)) * 2),
    "dnskey_no_key": answer(DNSKEY, struct.pack(">HBB", 256, 3, 8)),
    "tlsa": answer(TLSA, b"\x03\x01\x01" + bytes(32)),
    "tlsa_cut_in_fields": answer(TLSA, b"\x03\x01"),
    "svcb": answer(SVCB, SVCB_RDATA),
    "https_alias": answer(HTTPS, struct.pack(">H", 0) + ptr(12)),
    "svcb_keys_out_of_order": answer(SVCB, struct.pack(">H", 1) + b"\x00" + svc_param(3, b"\x01\xbb") + svc_param(1, b"\x02h2")),
    "svcb_key_repeated": answer(SVCB, struct.pack(">H", 1) + b"\x00" + svc_param(1, b"\x02h2") + svc_param(1, b"\x02h3")),
    "svcb_value_past_rdata": answer(SVCB, struct.pack(">H", 1) + b"\x00" + struct.pack(">HH", 1, 40) + b"\x02h2"),
    "svcb_alpn_id_past_value": answer(SVCB, struct.pack(">H", 1) + b"\x00" + svc_param(1, b"\x05h2")),
    "svcb_alpn_empty_id": answer(SVCB, struct.pack(">H", 1) + b"\x00" + svc_param(1, b"\x00")),
    "svcb_port_three_bytes": answer(SVCB, struct.pack(">H", 1) + b"\x00" + svc_param(3, b"\x01\xbb\x00")),
    "svcb_ipv4hint_5_bytes": answer(SVCB, struct.pack(">H", 1) + b"\x00" + svc_param(4, bytes(5))),
    "svcb_ipv6hint_15_bytes": answer(SVCB, struct.pack(">H", 1) + b"\x00" + svc_param(6, bytes(15))),
    "svcb_mandatory_odd": answer(SVCB, struct.pack(">H", 1) + b"\x00" + svc_param(0, b"\x00")),
    "svcb_no_default_alpn_with_value": answer(SVCB, struct.pack(">H", 1) + b"\x00" + svc_param(2, b"\x00")),
    "svcb_param_header_cut": answer(SVCB, struct.pack(">H", 1) + b"\x00\x00\x01\x00"),
    "svcb_no_target": answer(SVCB, struct.pack(">H", 1)),
}

RRSIG = 46
RRSIG_RDATA = struct.pack(">HBBIIIH", A, 13, 2, 300, 1767225600, 1764547200, 12345) + name(b"example", b"test") + bytes(64)


def opt(options, flags=0x8000):
    """An answer with an A record and an OPT record in the additional section carrying `options`."""
    rdata = b"".join(struct.pack(">HH", code, len(value)) + value for code, value in options)
    return (header(an=1, ar=1) + QUESTION + rr(ptr(12), A, bytes(4))
            + b"\x00" + struct.pack(">HHIH", 41, 1232, flags, len(rdata)) + rdata)


# RRSIG records and the OPT record's options (native/dns/dns_edns.cc): each well formed, then cut short
# or run over, on both sides of each length check.
DNS_EDNS = {
    "rrsig": header(an=2) + QUESTION + rr(ptr(12), A, bytes(4)) + rr(ptr(12), RRSIG, RRSIG_RDATA),
    "rrsig_no_signature": answer(RRSIG, RRSIG_RDATA[:-64]),
    "rrsig_cut_in_fields": answer(RRSIG, RRSIG_RDATA[:17]),
    "rrsig_signer_past_rdata": answer(RRSIG, RRSIG_RDATA[:18] + b"\x20abc"),
    "opt_empty": opt([]),
    "opt_ede_with_text": opt([(15, struct.pack(">H", 6) + b"signature expired")]),
    "opt_ede_no_text": opt([(15, struct.pack(">H", 9))]),
    "opt_ede_one_byte": opt([(15, b"\x06")]),
    "opt_ede_text_nul_ended": opt([(15, struct.pack(">H", 22) + b"no reachable authority\x00")]),
    "opt_ede_text_600_bytes": opt([(15, struct.pack(">H", 0) + b"x" * 600)]),
    "opt_ede_text_bad_utf8": opt([(15, struct.pack(">H", 0) + b"\xc3\x28\xff\xe2\x82")]),
    "opt_ede_nine_options": opt([(15, struct.pack(">H", i)) for i in range(9)]),
    "opt_ecs_v4": opt([(8, struct.pack(">HBB", 1, 24, 16) + bytes([203, 0, 113]))]),
    "opt_ecs_v6_17_bytes": opt([(8, struct.pack(">HBB", 2, 56, 48) + bytes(17))]),
    "opt_ecs_v4_5_bytes": opt([(8, struct.pack(">HBB", 1, 24, 24) + bytes(5))]),
    "opt_ecs_family_3": opt([(8, struct.pack(">HBB", 3, 24, 24) + bytes(1))]),
    "opt_ecs_cut": opt([(8, struct.pack(">H", 1) + b"\x18")]),
    "opt_option_past_rdata": opt([(15, b"")])[:-2] + struct.pack(">H", 40) + b"\x00",
    "opt_option_header_cut": opt([])[:-2] + struct.pack(">H", 3) + b"\x00\x0f\x00",
    "two_opts": opt([(15, struct.pack(">H", 1))])[:10] + b"\x00\x02"
    + opt([(15, struct.pack(">H", 1))])[12:] + b"\x00" + struct.pack(">HHIH", 41, 1232, 0, 6) + struct.pack(">HHH", 15, 2, 2),
}

# dns_name_fuzz reads text: names from requests, encoded and decoded back.
DNS_NAME = {
    "root_dot": b".",
    "empty": b"",
    "double_dot": b"a..b",
    "leading_dot": b".a",
    "label_63": b"a" * 63 + b".test",
    "label_64": b"a" * 64 + b".test",
    "text_253": b".".join([b"a" * 63] * 3 + [b"b" * 61]),
    "text_254": b".".join([b"a" * 63] * 3 + [b"b" * 62]),
    "text_253_trailing_dot": b".".join([b"a" * 63] * 3 + [b"b" * 61]) + b".",
    "bytes_in_labels": b"a\\.b.\x00\x7f\xff.test",
}


def demux_input(datagram, waiting=((0x1234, 1, 0, 0, 0),), source=(0, 0, 0)):
    """dns_demux_fuzz's layout: count, per waiting query txid type port addr name, then source addr port
    family, then the datagram. Names: 0 example.test, 1 one.test, 2 a.b.c.example.test, 3 ExAmPlE.TeSt."""
    out = bytes([len(waiting)])
    for txid, qtype, port, addr, nm in waiting:
        out += struct.pack(">HHBBB", txid, qtype, port, addr, nm)
    return out + bytes(source) + datagram


ANSWER = header(an=1) + QUESTION + rr(ptr(12), A, bytes([192, 0, 2, 1]))

DNS_DEMUX = {
    # Accepted only as a response (QR, opcode 0) with exactly the query's question.
    "not_a_response": demux_input(header(an=1, flags=0x0100) + ANSWER[12:]),
    "opcode_notify": demux_input(header(an=1, flags=0xA180) + ANSWER[12:]),
    "type_differs": demux_input(ANSWER, waiting=((0x1234, 28, 0, 0, 0),)),
    "name_case_differs": demux_input(ANSWER, waiting=((0x1234, 1, 0, 0, 3),)),
    "name_differs": demux_input(ANSWER, waiting=((0x1234, 1, 0, 0, 1),)),
    "no_question": demux_input(header(qd=0)),
    "two_questions": demux_input(header(qd=2) + QUESTION + QUESTION),
    # Only from the exact address and port of the resolver of the query its ID names.
    "family_differs": demux_input(ANSWER, source=(0, 0, 1)),
    "address_differs": demux_input(ANSWER, source=(1, 0, 0)),
    "other_query_resolver": demux_input(ANSWER, waiting=((0x1234, 1, 0, 0, 0), (0x9999, 1, 1, 2, 0)), source=(2, 1, 0)),
    "id_of_nobody_from_resolver": demux_input(ANSWER, waiting=((0x4321, 1, 0, 0, 0),)),
    "id_of_nobody_unparsable": demux_input(b"\x12\x34\xff", waiting=((0x4321, 1, 0, 0, 0),)),
    "malformed_for_known_id": demux_input(header(an=1) + QUESTION + b"\xc0"),
    "one_byte_datagram": demux_input(b"\x12"),
    "empty_datagram": demux_input(b""),
    "eight_waiting_same_id": demux_input(ANSWER, waiting=tuple((0x1234, 1, i % 4, 0, i % 4) for i in range(8))),
}


def ipv4(proto, payload, ihl=5, ttl=64, version=4, options=b""):
    total = ihl * 4 + len(payload)
    head = struct.pack(">BBHHHBBH4s4s", (version << 4) | ihl, 0, total, 0, 0, ttl, proto, 0,
                       bytes([127, 0, 0, 1]), bytes([198, 18, 0, 2]))
    return head + options + payload


def echo(kind, ident=0x4242, seq=1, payload=b"cookie!!" + bytes(range(48))):
    return struct.pack(">BBHHH", kind, 0, 0, ident, seq) + payload


def ipv6_quote(next_header, payload):
    return struct.pack(">IHBB", 0x60000000, len(payload), next_header, 64) + bytes(16) + bytes(15) + b"\x01" + payload


ICMP_REPLY = {
    # IPv4 header: IHL below 5, past the packet, options, wrong version, not ICMP.
    "v4_ihl_4": ipv4(1, echo(0), ihl=4),
    "v4_ihl_15_short": ipv4(1, b"", ihl=15)[:30],
    "v4_ihl_15_options": ipv4(1, echo(0), ihl=15, options=b"\x01" * 40),
    "v4_version_6": ipv4(1, echo(0), version=6),
    "v4_proto_udp": ipv4(17, echo(0)),
    "v4_header_only": ipv4(1, b""),
    # Echo replies: cut header, cookie cut short, no payload.
    "reply_7_bytes": echo(0)[:7],
    "reply_cookie_cut": echo(0)[:11],
    "reply_no_payload": echo(0, payload=b""),
    "v6_reply_cookie_cut": echo(129)[:12],
    # Errors quoting our echo: quote cut at every layer, quote of something else.
    "v4_unreach_quote_cut_in_ip": struct.pack(">BBHI", 3, 1, 0, 0) + ipv4(1, b"")[:12],
    "v4_unreach_quote_cut_in_echo": struct.pack(">BBHI", 3, 1, 0, 0) + ipv4(1, echo(8))[:24],
    "v4_unreach_quote_not_icmp": struct.pack(">BBHI", 3, 3, 0, 0) + ipv4(17, echo(8)),
    "v4_unreach_quote_is_reply": struct.pack(">BBHI", 3, 1, 0, 0) + ipv4(1, echo(0)),
    "v4_timex_quote_ihl_15": struct.pack(">BBHI", 11, 0, 0, 0) + ipv4(1, echo(8), ihl=15, options=bytes(40)),
    "v4_unreach_code_255": struct.pack(">BBHI", 3, 255, 0, 0) + ipv4(1, echo(8)),
    "v4_error_header_cut": struct.pack(">BBH", 3, 1, 0),
    "v6_unreach_quote_cut": struct.pack(">BBHI", 1, 4, 0, 0) + ipv6_quote(58, echo(128))[:30],
    "v6_unreach_quote_not_icmp": struct.pack(">BBHI", 1, 4, 0, 0) + ipv6_quote(17, echo(128)),
    "v6_toobig_quote_full": struct.pack(">BBHI", 2, 0, 0, 1280) + ipv6_quote(58, echo(128)),
    "v6_param_problem_code_255": struct.pack(">BBHI", 4, 255, 0, 0) + ipv6_quote(58, echo(128)),
    "one_byte": b"\x00",
    "empty": b"",
}


def stream(chunk, *frames):
    """A DoT stream input: the chunk size less one, then the stream bytes (dns_stream_frames_fuzz.cc)."""
    return bytes([chunk - 1]) + b"".join(frames)


def frame(message, length=None):
    return struct.pack(">H", len(message) if length is None else length) + message


QUERY_ANSWER = header() + QUESTION
# The length framing of a DoT stream: messages cut at every place, prefixes saying more than comes.
DNS_STREAM_FRAMES = {
    "two_messages_whole": stream(256, frame(QUERY_ANSWER), frame(QUERY_ANSWER)),
    "two_messages_byte_by_byte": stream(1, frame(QUERY_ANSWER), frame(QUERY_ANSWER)),
    "prefix_cut_between_its_bytes": stream(3, frame(QUERY_ANSWER), b"\x00"),
    "empty_message": stream(2, frame(b""), frame(QUERY_ANSWER)),
    "length_65535_never_completed": stream(7, frame(QUERY_ANSWER, 0xFFFF)),
    "length_one_past_what_came": stream(16, frame(QUERY_ANSWER, len(QUERY_ANSWER) + 1)),
    "chunk_size_only": b"\x10",
}


def http(text, chunk=1, head=False):
    """An HTTP answer input: the read size less one, the flags (bit 0: a HEAD), then the stream."""
    return bytes([chunk - 1, 1 if head else 0]) + text


MAX_HEAD = 65536


def http_stretched(text, line, total, chunk=256, filler=0):
    """An answer whose line `line` (0 first) is padded so that its section is `total` bytes long: the fuzz
    target pads with MAX_HEAD - 256 + pad bytes (http_response_fuzz.cc, Stretch); the text here is the
    section's bytes without the padding, and `total` what they come to with it."""
    pad = total - len(text) - (MAX_HEAD - 256)
    assert 0 <= pad <= 255, pad
    return bytes([chunk - 1, 2 | filler << 2 | line << 4, pad])


MAX_EXTENSIONS = 16384


def extensions_stretched(total, chunk=256):
    """A chunked answer (CHUNKED + CHUNK_LINE ...) whose first chunk line's extensions (";e" and the
    padding) come to `total` bytes: with the ';' filler the fuzz target pads with MAX_EXTENSIONS - 256 +
    pad bytes."""
    pad = total - 2 - (MAX_EXTENSIONS - 256)
    assert 0 <= pad <= 255, pad
    return bytes([chunk - 1, 2 | 3 << 2 | 3 << 4, pad])


OK = b"HTTP/1.1 200 OK\r\n"
INTERIM = b"HTTP/1.1 103 Early\r\n\r\n"
CHUNKED = OK + b"Transfer-Encoding: chunked\r\n\r\n"
HEAD_FIELDS = OK + b"X: v\r\nContent-Length: 0\r\n\r\n"
CHUNK_LINE = b"1;e\r\n"
TRAILER = b"X: v\r\n\r\n"
# The rules of the HTTP response parser, each read cut into reads of one byte or more.
HTTP_RESPONSE = {
    "head_exactly_max_bytes": http_stretched(HEAD_FIELDS, 1, MAX_HEAD) + HEAD_FIELDS,
    "head_one_byte_past_max": http_stretched(HEAD_FIELDS, 1, MAX_HEAD + 1) + HEAD_FIELDS,
    "long_reason_phrase_head_one_past_max": http_stretched(HEAD_FIELDS, 0, MAX_HEAD + 1, chunk=7) + HEAD_FIELDS,
    "chunk_extensions_exactly_max": extensions_stretched(MAX_EXTENSIONS) + CHUNKED + CHUNK_LINE + b"x\r\n0\r\n\r\n",
    "chunk_extensions_one_past_max": extensions_stretched(MAX_EXTENSIONS + 1) + CHUNKED + CHUNK_LINE + b"x\r\n",
    "chunk_extensions_summed_to_max": extensions_stretched(MAX_EXTENSIONS - 8)
    + CHUNKED + CHUNK_LINE + b"x\r\n1;1234567\r\nx\r\n0\r\n\r\n",
    "chunk_extensions_summed_past_max": extensions_stretched(MAX_EXTENSIONS - 8)
    + CHUNKED + CHUNK_LINE + b"x\r\n1;12345678\r\nx\r\n0\r\n\r\n",
    "interim_and_final_heads_exactly_max": http_stretched(INTERIM + HEAD_FIELDS, 0, MAX_HEAD, chunk=9)
    + INTERIM + HEAD_FIELDS,
    "interim_and_final_heads_one_past_max": http_stretched(INTERIM + HEAD_FIELDS, 0, MAX_HEAD + 1, chunk=9)
    + INTERIM + HEAD_FIELDS,
    "trailer_exactly_max_bytes": http_stretched(TRAILER, 4, MAX_HEAD) + CHUNKED + b"0\r\n" + TRAILER,
    "trailer_one_byte_past_max": http_stretched(TRAILER, 4, MAX_HEAD + 1) + CHUNKED + b"0\r\n" + TRAILER,
    "chunk_size_of_64k_digits": http_stretched(b"", 3, MAX_HEAD - 10, filler=1) + CHUNKED + b"1\r\nx",
    "value_spaces_to_max_bytes_trimmed": http_stretched(HEAD_FIELDS, 1, MAX_HEAD, filler=2) + HEAD_FIELDS,
    "content_length_body_then_next_answer": http(OK + b"Content-Length: 3\r\n\r\nabcHTTP/1.1 200 OK\r\n\r\n"),
    "continue_then_ok": http(b"HTTP/1.1 100 Continue\r\n\r\n" + OK + b"Content-Length: 1\r\n\r\nx", chunk=2),
    "switching_protocols_rest_not_taken": http(b"HTTP/1.1 101 Switching\r\n\r\n\x81\x00", chunk=5),
    "head_request_ignores_length": http(OK + b"Content-Length: 9\r\n\r\n", head=True),
    "bare_lf_line_ends": http(b"HTTP/1.1 200 OK\nContent-Length: 1\n\nx", chunk=3),
    "cr_without_lf": http(OK + b"X: a\rb\r\n\r\n"),
    "chunk_data_then_bare_lf": http(CHUNKED + b"1\r\nx\n0\r\n\r\n"),
    "chunk_size_2_53": http(CHUNKED + b"20000000000000\r\nx"),
    "chunk_size_past_2_53": http(CHUNKED + b"20000000000001\r\nx"),
    "seventeen_hex_digits": http(CHUNKED + b"00000000000000001\r\nx\r\n0\r\n\r\n"),
    "content_length_2_63_less_1": http(OK + b"Content-Length: 9223372036854775807\r\n\r\nab"),
    "content_length_2_63": http(OK + b"Content-Length: 9223372036854775808\r\n\r\nab"),
    "content_lengths_differ_in_a_list": http(OK + b"Content-Length: 1, 2\r\n\r\nab"),
    "length_and_chunked": http(OK + b"Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n"),
    "chunked_not_last": http(OK + b"Transfer-Encoding: chunked, gzip\r\n\r\n"),
    "obs_fold": http(OK + b"X: a\r\n b\r\n\r\n"),
    "nul_in_value": http(OK + b"X: a\x00b\r\n\r\n"),
    "not_http": http(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"),
    "stretch_flag_without_its_byte": b"\x00\x02",
    "only_the_read_size": b"\x00",
}


def write(base, inputs):
    folder = os.path.join(HERE, base)
    os.makedirs(folder, exist_ok=True)
    for label, data in sorted(inputs.items()):
        with open(os.path.join(folder, label), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    write("dns_response", {**DNS_RESPONSE, **DNS_RDATA, **DNS_EDNS})
    write("dns_name", DNS_NAME)
    write("dns_demux", DNS_DEMUX)
    write("icmp_reply", ICMP_REPLY)
    write("dns_stream_frames", DNS_STREAM_FRAMES)
    write("http_response", HTTP_RESPONSE)
