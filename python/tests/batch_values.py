# Values for the Batch tests: per width, the adversarial ones (zero, one,
# all-ones limbs, a single high bit, limb boundaries, sparse and alternating
# bits) and random ones with long runs of 0s and 1s. Python ints are the oracle.
import random

# Widths at and around limb and width-class boundaries (64-bit limbs; classes
# of 128, 256, ... bits and 3072), a narrow one, and a wide one.
WIDTHS = [1, 7, 63, 64, 65, 127, 128, 129, 192, 256, 1000, 3072, 4097]


def values_for(bits, count, seed):
    """`count` values of [0, 2**bits): the adversarial ones first, then random ones."""
    top = 2**bits - 1
    special = [0, 1, top, 1 << (bits - 1), top >> 1, top - 1]
    for k in (32, 63, 64, 65, 128, 192):
        if k < bits:
            special += [2**k - 1, 2**k, (top >> k) << k]
    special.append(int("10" * bits, 2) >> bits)  # alternating bits
    special.append(sum(1 << i for i in range(0, bits, 61)))  # sparse bits
    rng = random.Random(seed * 1000 + bits)
    out = [v & top for v in special]
    while len(out) < count:
        v = rng.getrandbits(bits)
        if rng.random() < 0.4:  # a run of ones or zeros
            lo = rng.randrange(bits)
            hi = rng.randrange(lo, bits) + 1
            run = ((1 << (hi - lo)) - 1) << lo
            v = v | run if rng.random() < 0.5 else v & ~run & top
        out.append(v)
    rng.shuffle(out)
    return out[:count]


def nonzero(values, bits):
    """The same values with zeros replaced by a nonzero value (divisors, moduli)."""
    return [v if v else (2**bits - 1 if bits > 1 else 1) for v in values]


def signed(v, bits):
    """v read as a two's complement number of `bits` bits."""
    return v - (1 << bits) if v >> (bits - 1) else v
