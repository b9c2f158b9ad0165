#!/usr/bin/env python3
"""Answers ICMP echo requests after a delay, on a raw socket, inside a test network namespace.

The namespace's own echo replies are switched off (net.ipv4.icmp_echo_ignore_all=1), so every reply
the test sees comes from here: --delay-ms later, --copies times (2 makes duplicates).
Prints "ready" once listening; runs until killed.
"""
import argparse
import heapq
import select
import socket
import struct
import sys
import time

from icmp_checksum import checksum  # beside this script


SPIN_S = 0.003
# Linux's SO_TIMESTAMPNS, which this Python may not name; the control message it adds has the same type.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def reply_for(packet: bytes):
    if len(packet) < 20:
        return None
    ihl = (packet[0] & 0x0F) * 4
    icmp = packet[ihl:]
    if len(icmp) < 8 or icmp[0] != 8:
        return None
    body = bytes([0, 0, 0, 0]) + icmp[4:]
    csum = checksum(body)
    src = socket.inet_ntoa(packet[12:16])
    return src, body[:2] + struct.pack("!H", csum) + body[4:]


def arrived_at(ancillary) -> float:
    """When the kernel received the request, on the monotonic clock. The answer is due --delay-ms after
    that, not after this process woke to read it: on a loaded machine the wake-up alone is late by
    milliseconds, which would show up in the RTTs the test checks."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= 16:
            sec, nsec = struct.unpack("qq", data[:16])
            return time.monotonic() - (time.time() - (sec + nsec / 1e9))
    return time.monotonic()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--delay-ms", type=float, default=0.0)
    ap.add_argument("--copies", type=int, default=1)
    args = ap.parse_args()
    sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    sock.setblocking(False)
    sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    print("ready", flush=True)
    due = []  # (when, order, destination, packet)
    order = 0
    while True:
        timeout = None
        if due:
            # Sleep until shortly before the next answer is due, then spin: a loaded machine wakes
            # sleepers late by milliseconds, which would show up in the RTTs the test checks.
            timeout = max(0.0, due[0][0] - time.monotonic() - SPIN_S)
        readable, _, _ = select.select([sock], [], [], timeout)
        if readable:
            while True:
                try:
                    packet, ancillary, _, _ = sock.recvmsg(65535, socket.CMSG_SPACE(16))
                except BlockingIOError:
                    break
                answer = reply_for(packet)
                if answer is None:
                    continue
                when = arrived_at(ancillary) + args.delay_ms / 1000.0
                for _ in range(args.copies):
                    order += 1
                    heapq.heappush(due, (when, order, answer[0], answer[1]))
        while due and not readable and due[0][0] - time.monotonic() > 0 and due[0][0] - time.monotonic() <= SPIN_S:
            readable, _, _ = select.select([sock], [], [], 0)
        now = time.monotonic()
        while due and due[0][0] <= now:
            _, _, dst, pkt = heapq.heappop(due)
            sock.sendto(pkt, (dst, 0))


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(0)
