"""Randomness from the operating system, read a page at a time.

A request takes fresh random bits up to twice: its request id, and its seed when the caller
gives none. One `getrandom` system call each was some 3% of a 4D8 check under load (make
bench); these are the kernel's bytes all the same, read 4 KiB at once and handed out 16
at a time, each once. A forked process forgets the bytes its parent read, so two processes
never hand out the same ones.
"""

import os
import struct
from collections.abc import Iterator

__all__ = ["random_bits"]

_PAGE = 4096
_blocks: Iterator[tuple[bytes]] = iter(())


def random_bits() -> bytes:
    """128 bits (16 bytes) from the operating system's randomness, never handed out twice."""
    global _blocks
    try:
        return next(_blocks)[0]
    except StopIteration:
        # Taking the next block is one step of a C iterator: threads never get the same one.
        _blocks = struct.iter_unpack("16s", os.urandom(_PAGE))
        return next(_blocks)[0]


def _forget() -> None:
    global _blocks
    _blocks = iter(())


os.register_at_fork(after_in_child=_forget)
