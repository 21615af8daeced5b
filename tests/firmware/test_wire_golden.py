"""firmware/wire.py against the golden frames the host codec tests also read."""

from __future__ import annotations

import json
from pathlib import Path

from fwrun import ROOT, run_script

SCRIPT = r'''
import json
import wire

FRAMES = "tests/data/frames/"
index = json.loads(open(FRAMES + "index.json").read())

def golden(name):
    text = " ".join(l for l in open(FRAMES + name + ".hex").read().split("\n") if not l.startswith("#"))
    return bytes.fromhex(text.replace(" ", ""))

results = []
for e in index:
    data = golden(e["name"])
    f = e["fields"]
    kind = e["kind"]
    if kind < 0x80:   # the firmware builds device frames: they must be byte-identical
        enc = wire.Encoder()
        enc.seq = e["seq"]
        if kind == wire.HELLO:
            got = enc.hello(f["slots"], f["calibration"], f["firmware"])
        elif kind == wire.SNAPSHOT:
            got = enc.snapshot(f["reason"], f["states"])
        elif kind == wire.CHANGES:
            got = b"".join(enc.changes([tuple(c) for c in f["changes"]]))
        elif kind == wire.ROLL:
            got = enc.roll(f["number"], f["dice"][0], f["dice"][1])
        elif kind == wire.HEARTBEAT:
            got = enc.heartbeat(f["uptime_ms"], f["scans"], f["last_roll"], f["rolling"])
        elif kind == wire.ACK:
            got = enc.ack(f["command_seq"], f["command"])
        elif kind == wire.PONG:
            got = enc.pong(f["command_seq"], f["nonce"])
        elif kind == wire.ERROR:
            got = enc.error(f["code"], f["command_seq"], f["command"], f["text"])
        results.append([e["name"], got == data])
    # and the firmware decoder reads every golden frame, whole and byte by byte
    whole = wire.Decoder().feed(data)
    d = wire.Decoder()
    bytewise = []
    for b in data:
        bytewise += d.feed(bytes([b]))
    ok = len(whole) == 1 and whole == bytewise and whole[0][0] == kind and whole[0][1] == e["seq"]
    results.append([e["name"] + ":decode", ok])

# garbage, a bad checksum and an oversized header before a good frame
ping = golden("ping")
bad = bytearray(ping); bad[-1] ^= 1
over = b"\xb6\x9a\x85\x00\x00\x01\x02"
items = wire.Decoder().feed(b"junk" + bytes(bad) + over + ping)
results.append(["resync", items == ["garbage", "bad_checksum", "garbage", "oversized", "garbage",
                                    (0x85, 5, b"\xef\xbe\xad\xde")]])
print(json.dumps(results))
'''


def test_firmware_codec_matches_every_golden_frame(tmp_path: Path) -> None:
    proc = run_script(SCRIPT, tmp_path)
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout)
    index = json.loads((ROOT / "tests/data/frames/index.json").read_text())
    assert len(results) == len(index) + sum(e["kind"] < 0x80 for e in index) + 1
    assert [name for name, ok in results if not ok] == []
