# Sends forged ICMP Time Exceeded messages to SRC, each quoting an echo request from SRC to DST with a
# random identifier and sequence: packets no trace of ours sent. Run inside a router namespace of a test
# path. Usage: forge-time-exceeded.py SRC DST COUNT GAP_MS
import random
import socket
import struct
import sys
import time

from icmp_checksum import checksum  # beside this script


def main() -> None:
    src, dst, count, gap_ms = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    sock = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
    for _ in range(count):
        echo = struct.pack("!BBHHH", 8, 0, 0, random.randrange(65536), random.randrange(65536))
        quoted_ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 28, 0, 0, 1, 1, 0, socket.inet_aton(src), socket.inet_aton(dst))
        body = struct.pack("!BBHI", 11, 0, 0, 0) + quoted_ip + echo
        body = body[:2] + struct.pack("!H", checksum(body)) + body[4:]
        sock.sendto(body, (src, 0))
        time.sleep(gap_ms / 1000)
    print("sent", count, flush=True)


main()
