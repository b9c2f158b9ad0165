# A streamed tool response read the way a monitoring script reads it with Python's requests
# (`requests.post(..., stream=True).iter_lines()`), on urllib3 directly: urllib3 hands on a chunk's end
# only once its closing CRLF is in. Prints one JSON line per event the moment it is parsed: NDJSON by
# `json.loads` of every line (a blank line fails it, as it fails such scripts), SSE by the format's rules
# (comment lines skipped, a blank line ends an event). Then {"rest": ...}: what followed the last event.
# Run by Debian's /usr/bin/python3 with python3-urllib3.
# Usage: urllib3-stream.py URL ACCEPT BODY
import json
import sys

import urllib3


def say(value):
    print(json.dumps(value), flush=True)


def main():
    url, accept, body = sys.argv[1:4]
    pool = urllib3.PoolManager(retries=False)
    response = pool.request('POST', url, body=body.encode(), headers={'content-type': 'application/json', 'accept': accept}, preload_content=False)
    say({'status': response.status})
    sse = accept == 'text/event-stream'
    pending = b''
    fields = {}
    # 512: the chunk size requests' iter_lines reads with.
    for piece in response.stream(512):
        pending += piece
        *lines, pending = pending.split(b'\n')
        for raw in lines:
            line = raw.decode()
            if not sse:
                say(json.loads(line))
            elif line == '':
                if 'data' in fields:
                    say({'event': fields.get('event', 'message'), 'data': json.loads(fields['data'])})
                fields = {}
            elif not line.startswith(':'):
                name, _, value = line.partition(':')
                fields[name] = value[1:] if value.startswith(' ') else value
    say({'rest': pending.decode()})


main()
