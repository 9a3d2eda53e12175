"""The operating system's randomness, read a page at a time (service.rules.entropy)."""

import os

from service.rules.dice import MAX_SEED, Dice
from service.rules.entropy import random_bits


def test_each_call_gives_sixteen_bytes_never_given_before():
    given = [random_bits() for _ in range(1000)]  # several pages of 256 blocks
    assert all(len(bits) == 16 for bits in given)
    assert len(set(given)) == len(given)


def test_a_forked_process_never_gives_its_parents_next_bits():
    random_bits()  # the parent holds the rest of a page
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child's code
        os.write(write, random_bits())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    theirs = os.read(read, 16)
    os.close(read)
    assert len(theirs) == 16
    assert theirs != random_bits()


def test_fresh_seeds_cover_31_bits():
    seeds = {Dice().seed for _ in range(2000)}
    assert all(seed is not None and 0 <= seed <= MAX_SEED for seed in seeds)
    # 2,000 draws of 31 bits meet twice about once in a thousand runs: a few may.
    assert len(seeds) >= 1995
    assert max(s for s in seeds if s is not None) >= 2**30  # the top bit is used
