#!/usr/bin/python3
# Writes xxh3.txt, the vectors TestHashIsXXH3 checks hashString against,
# with the reference C library through Debian's python3-xxhash
# (apt-get install python3-xxhash; run with the system python3):
#   cd stripes/testdata && /usr/bin/python3 xxh3.py > xxh3.txt
# The input stream is the one xxh3Stream makes in hash_test.go.
import xxhash

M = (1 << 64) - 1
x = 0
buf = bytearray()
for i in range(3200):
    x = (x * 6364136223846793005 + 1442695040888963407) & M
    buf.append(x >> 56)

lens = sorted(set(list(range(0, 257)) + list(range(257, 2200, 37)) +
                  [1023, 1024, 1025, 1087, 1088, 1089, 2047, 2048, 2049, 3072, 3073]))
seeds = [0, 1, 0x243F6A8885A308D3, M, 1 << 63]
print("# XXH3_64bits_withSeed from the reference C library (libxxhash %s, via python3-xxhash):" % xxhash.XXHASH_VERSION)
print("# seed, length, hash in hex; the input is length bytes of the stream that")
print("# TestHashIsXXH3 makes, starting at byte length%7.")
for s in seeds:
    for n in lens:
        o = n % 7
        print("%x %d %x" % (s, n, xxhash.xxh3_64_intdigest(bytes(buf[o:o + n]), seed=s)))
