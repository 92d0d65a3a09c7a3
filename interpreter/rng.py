"""The seeded random generator that lives inside the game state.

PCG32 (O'Neill 2014): a 64-bit state, so copying, saving and hashing the generator is copying
one integer. Python's own Random keeps 625 words of state, too heavy to clone at every step.
"""
from __future__ import annotations

_MULT = 6364136223846793005
_INC = 1442695040888963407
_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        # PCG32's seeding: one step from 0 (which gives _INC), add the seed, one more step
        self.state = (((_INC + (int(seed) & _MASK64)) & _MASK64) * _MULT + _INC) & _MASK64

    def copy(self) -> "Rng":
        r = Rng.__new__(Rng)
        r.state = self.state
        return r

    def next32(self) -> int:
        """PCG32's output: the old state's xorshift rotated right by its top five bits. The
        draws below write the rotation of a 32-bit x as ((x << 32 | x) >> rot) & _MASK32, the
        two copies made by one multiplication (x * 0x100000001): the same number in fewer steps."""
        old = self.state
        self.state = (old * _MULT + _INC) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def below(self, n: int) -> int:
        """Uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if n == 1:
            return 0
        threshold = 4294967296 % n  # = ((1 << 32) - n) % n
        state = self.state
        while True:  # next32, inlined (as in shuffle)
            old = state
            state = (old * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
            r = (((old >> 18 ^ old) >> 27 & 0xFFFFFFFF) * 0x100000001 >> (old >> 59)) & 0xFFFFFFFF
            if r >= threshold:
                self.state = state
                return r % n

    def shuffle(self, items: list) -> None:
        """Fisher–Yates, in place: j = below(i + 1) for i from the top down."""
        if type(self) is not Rng:  # a generator that draws differently (adapters/chance.py)
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            threshold = 4294967296 % n  # = ((1 << 32) - n) % n
            old = state  # next32, inlined (the rotation as next32 says)
            state = (old * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
            r = (((old >> 18 ^ old) >> 27 & 0xFFFFFFFF) * 0x100000001 >> (old >> 59)) & 0xFFFFFFFF
            while r < threshold:  # below's rejection (rare): the next draw
                old = state
                state = (old * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
                r = (((old >> 18 ^ old) >> 27 & 0xFFFFFFFF) * 0x100000001 >> (old >> 59)) & 0xFFFFFFFF
            j = r % n
            items[i], items[j] = items[j], items[i]
        self.state = state

    def choice(self, items: list):
        return items[self.below(len(items))]

    def choice_each(self, keys, sequences, out) -> None:
        """out[k] = self.choice(sequences[k]) for each k of `keys` in order, the draws written
        out in one loop. A key without a sequence raises TypeError (as len(None)) with the
        generator where the calls before it left it."""
        if type(self) is not Rng:  # a generator that draws differently (adapters/chance.py)
            for k in keys:
                seq = sequences[k]
                out[k] = seq[self.below(len(seq))]
            return
        state = self.state
        last: object = self  # no sequence yet (keys of one kind often share one: n and threshold kept)
        try:
            for k in keys:
                seq = sequences[k]
                if seq is not last:
                    last = seq
                    n = len(seq)
                    threshold = 4294967296 % n if n > 0 else 0  # = ((1 << 32) - n) % n
                if n <= 1:  # below: no draw for one item, an error for none
                    if n <= 0:
                        raise ValueError("below() needs a positive bound")
                    out[k] = seq[0]
                    continue
                old = state  # next32, inlined (as in shuffle)
                state = (old * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
                r = (((old >> 18 ^ old) >> 27 & 0xFFFFFFFF) * 0x100000001 >> (old >> 59)) & 0xFFFFFFFF
                while r < threshold:  # below's rejection (rare): the next draw
                    old = state
                    state = (old * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
                    r = (((old >> 18 ^ old) >> 27 & 0xFFFFFFFF) * 0x100000001 >> (old >> 59)) & 0xFFFFFFFF
                out[k] = seq[r % n]
        finally:
            self.state = state
