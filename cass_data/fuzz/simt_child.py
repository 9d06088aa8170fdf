"""Runs one lifted kernel on the CPU SIMT runtime (simt.c), in its own process: the job (JSON) in
argv[1], the 1,024 input words on stdin, the output words on stdout. check.Simt starts it."""
from __future__ import annotations

import ctypes
import json
import struct
import sys


def main() -> int:
    job = json.loads(sys.argv[1])
    lib = ctypes.CDLL(job["lib"])
    inp = sys.stdin.buffer.read()
    in_buf = (ctypes.c_uint32 * 1024).from_buffer_copy(inp)
    out_buf = (ctypes.c_uint32 * job["out_words"])()
    params = (ctypes.c_uint8 * 16).from_buffer_copy(struct.pack("<QQ", ctypes.addressof(in_buf),
                                                                ctypes.addressof(out_buf)))
    fn = lib[f"{job['kernel']}.body"]
    grid = (ctypes.c_uint * 3)(job["grid"], 1, 1)
    block = (ctypes.c_uint * 3)(job["block"], 1, 1)
    launch = lib.cass_launch
    launch.restype = ctypes.c_int
    rc = launch(ctypes.cast(fn, ctypes.c_void_p), grid, block, params, ctypes.c_uint(job["shared"]))
    if rc != 0:
        print(f"cass_launch returned {rc}", file=sys.stderr)
        return 1
    sys.stdout.buffer.write(bytes(out_buf))
    return 0


if __name__ == "__main__":
    sys.exit(main())
