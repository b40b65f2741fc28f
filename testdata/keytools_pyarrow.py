#!/usr/bin/env python3
"""pyarrow side of tests/keytools_interop.rs: encrypted files written and read with pyarrow's
CryptoFactory and a KMS client that wraps like parquet_serde::keytools::InMemoryKms and
parquet-java's test InMemoryKMS (AES-GCM with the master key id as AAD, base64 of
nonce | ciphertext | tag). The venv has no crypto package, so AES-GCM is written out below
(slow, but it only ever wraps 16-32 byte keys).

  keytools_pyarrow.py selftest
  keytools_pyarrow.py write OUTDIR      writes files, prints a JSON manifest
  keytools_pyarrow.py read FILE...      prints each file's rows as one JSON line
  keytools_pyarrow.py unwrap KEYS.json  data keys of key metadata, parsed by pyarrow's
                                        KeyMaterial / FileSystemKeyMaterialStore
"""

import base64
import json
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe

MASTER_KEYS = {
    "kf": b"0123456789012345",
    "kc1": b"1234567890123450",
    "kc2": b"1234567890123451",
}

# ---------------------------------------------------------------- AES (FIPS 197)


def _xtime(a):
    a <<= 1
    return (a ^ 0x11B) if a & 0x100 else a


def _gmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        a = _xtime(a)
        b >>= 1
    return r


def _make_sbox():
    sbox = []
    for a in range(256):
        inv = 0
        if a:
            inv = 1
            for _ in range(254):  # a^254 = a^-1 in GF(2^8)
                inv = _gmul(inv, a)
        x = inv
        s = x
        for _ in range(4):
            x = ((x << 1) | (x >> 7)) & 0xFF
            s ^= x
        sbox.append(s ^ 0x63)
    return sbox


SBOX = _make_sbox()


def _expand_key(key):
    nk = len(key) // 4
    nr = nk + 6
    w = [list(key[4 * i:4 * i + 4]) for i in range(nk)]
    rcon = 1
    for i in range(nk, 4 * (nr + 1)):
        t = list(w[i - 1])
        if i % nk == 0:
            t = t[1:] + t[:1]
            t = [SBOX[b] for b in t]
            t[0] ^= rcon
            rcon = _xtime(rcon) & 0xFF
        elif nk > 6 and i % nk == 4:
            t = [SBOX[b] for b in t]
        w.append([a ^ b for a, b in zip(w[i - nk], t)])
    return [sum(w[4 * r:4 * r + 4], []) for r in range(nr + 1)]


def _encrypt_block(round_keys, block):
    s = [a ^ b for a, b in zip(block, round_keys[0])]
    nr = len(round_keys) - 1
    for rnd in range(1, nr + 1):
        s = [SBOX[b] for b in s]
        s = [s[r + 4 * ((c + r) % 4)] for c in range(4) for r in range(4)]
        if rnd != nr:
            m = []
            for c in range(4):
                a0, a1, a2, a3 = s[4 * c:4 * c + 4]
                m += [
                    _gmul(a0, 2) ^ _gmul(a1, 3) ^ a2 ^ a3,
                    a0 ^ _gmul(a1, 2) ^ _gmul(a2, 3) ^ a3,
                    a0 ^ a1 ^ _gmul(a2, 2) ^ _gmul(a3, 3),
                    _gmul(a0, 3) ^ a1 ^ a2 ^ _gmul(a3, 2),
                ]
            s = m
        s = [a ^ b for a, b in zip(s, round_keys[rnd])]
    return bytes(s)


# ---------------------------------------------------------------- GCM (SP 800-38D)

_R = 0xE1 << 120


def _gf_mult(x, y):
    z, v = 0, y
    for i in range(127, -1, -1):
        if (x >> i) & 1:
            z ^= v
        v = (v >> 1) ^ _R if v & 1 else v >> 1
    return z


def _ghash(h, aad, ct):
    def blocks(data):
        for i in range(0, len(data), 16):
            yield data[i:i + 16].ljust(16, b"\0")

    y = 0
    for b in list(blocks(aad)) + list(blocks(ct)):
        y = _gf_mult(y ^ int.from_bytes(b, "big"), h)
    lens = (len(aad) * 8).to_bytes(8, "big") + (len(ct) * 8).to_bytes(8, "big")
    return _gf_mult(y ^ int.from_bytes(lens, "big"), h)


def _gcm(key, nonce, data, aad):
    rk = _expand_key(key)
    h = int.from_bytes(_encrypt_block(rk, bytes(16)), "big")
    j0 = nonce + b"\0\0\0\1"
    out = bytearray()
    for i in range(0, len(data), 16):
        ctr = nonce + (2 + i // 16).to_bytes(4, "big")
        ks = _encrypt_block(rk, ctr)
        out += bytes(a ^ b for a, b in zip(data[i:i + 16], ks))
    return bytes(out), rk, h, j0


def gcm_encrypt(key, nonce, plaintext, aad):
    ct, rk, h, j0 = _gcm(key, nonce, plaintext, aad)
    s = _ghash(h, aad, ct)
    tag = (int.from_bytes(_encrypt_block(rk, j0), "big") ^ s).to_bytes(16, "big")
    return ct, tag


def gcm_decrypt(key, nonce, ciphertext, tag, aad):
    pt, rk, h, j0 = _gcm(key, nonce, ciphertext, aad)
    s = _ghash(h, aad, ciphertext)
    expect = (int.from_bytes(_encrypt_block(rk, j0), "big") ^ s).to_bytes(16, "big")
    if expect != tag:
        raise ValueError("AES-GCM tag mismatch")
    return pt


def wrap_locally(key_bytes, wrapping_key, aad):
    nonce = os.urandom(12)
    ct, tag = gcm_encrypt(wrapping_key, nonce, key_bytes, aad)
    return base64.b64encode(nonce + ct + tag).decode()


def unwrap_locally(wrapped, wrapping_key, aad):
    raw = base64.b64decode(wrapped)
    return gcm_decrypt(wrapping_key, raw[:12], raw[12:-16], raw[-16:], aad)


# ---------------------------------------------------------------- the KMS client

WRAPPED = []  # (master key id, hex of each key handed to wrap_key)


class AesGcmInMemoryKms(pe.KmsClient):
    """Wraps with AES-GCM under the master key, AAD = master key id."""

    def __init__(self, config):
        pe.KmsClient.__init__(self)
        self.keys = {k: base64.b64decode(v) for k, v in config.custom_kms_conf.items()}

    def wrap_key(self, key_bytes, master_key_identifier):
        WRAPPED.append((master_key_identifier, bytes(key_bytes).hex()))
        master = self.keys[master_key_identifier]
        return wrap_locally(bytes(key_bytes), master, master_key_identifier.encode())

    def unwrap_key(self, wrapped_key, master_key_identifier):
        master = self.keys[master_key_identifier]
        if isinstance(wrapped_key, bytes):
            wrapped_key = wrapped_key.decode()
        return unwrap_locally(wrapped_key, master, master_key_identifier.encode())


def kms_config():
    return pe.KmsConnectionConfig(
        custom_kms_conf={k: base64.b64encode(v).decode() for k, v in MASTER_KEYS.items()}
    )


def crypto_factory():
    return pe.CryptoFactory(lambda config: AesGcmInMemoryKms(config))


def table():
    n = 10
    return pa.table(
        {
            "a": pa.array(list(range(n)), pa.int64()),
            "b": pa.array(["s%d" % i for i in range(n)]),
            "c": pa.array([i * 1.5 for i in range(n)], pa.float64()),
            "d": pa.array([[i, i + 1] for i in range(n)], pa.list_(pa.int32())),
        }
    )


CASES = [
    # name, EncryptionConfiguration keyword arguments
    ("uniform_double", dict(uniform_encryption=True)),
    ("columns_double", dict(column_keys={"kc1": ["a", "d.list.element"], "kc2": ["c"]})),
    ("columns_single", dict(column_keys={"kc1": ["a"], "kc2": ["c"]}, double_wrapping=False)),
    (
        "columns_plaintext_footer_single",
        dict(column_keys={"kc1": ["a"], "kc2": ["c"]}, double_wrapping=False,
             plaintext_footer=True),
    ),
    (
        "columns_external_double",
        dict(column_keys={"kc1": ["a"], "kc2": ["c"]}, internal_key_material=False),
    ),
    (
        "uniform_single_256_ctr",
        dict(uniform_encryption=True, double_wrapping=False, data_key_length_bits=256,
             encryption_algorithm="AES_GCM_CTR_V1"),
    ),
]


def selftest():
    # SP 800-38D / McGrew-Viega test case 2 (AES-128, zero key, zero IV, one zero block).
    ct, tag = gcm_encrypt(bytes(16), bytes(12), bytes(16), b"")
    assert ct.hex() == "0388dace60b6a392f328c2b971b2fe78", ct.hex()
    assert tag.hex() == "ab6e47d42cec13bdf53a67b21257bddf", tag.hex()
    # FIPS 197 appendix C.3 (AES-256).
    rk = _expand_key(bytes(range(32)))
    out = _encrypt_block(rk, bytes.fromhex("00112233445566778899aabbccddeeff"))
    assert out.hex() == "8ea2b7ca516745bfeafc49904b496089", out.hex()
    # A KEK wrapped by parquet-java's InMemoryKMS with master key kf.
    kek = unwrap_locally("kWHNReXsULhmTplhvImESLFTXV91t5CyoqaEVYLk7k0jD8oeTDDJCUnIiCs=",
                         MASTER_KEYS["kf"], b"kf")
    assert len(kek) == 16
    print("ok")


def write(outdir):
    manifest = []
    t = table()
    for name, kwargs in CASES:
        path = os.path.join(outdir, name + ".parquet.encrypted")
        del WRAPPED[:]
        # A fresh factory per file, so every KEK is wrapped (and recorded) again.
        factory = crypto_factory()
        config = pe.EncryptionConfiguration(footer_key="kf", **kwargs)
        props = factory.file_encryption_properties(kms_config(), config, path)
        pq.write_table(t, path, encryption_properties=props)
        wrapped = list(WRAPPED)
        # pyarrow reads its own file back.
        dec = factory.file_decryption_properties(kms_config(), pe.DecryptionConfiguration(), path)
        back = pq.read_table(path, decryption_properties=dec)
        assert back.equals(t), name
        manifest.append({
            "name": name,
            "path": path,
            "double_wrapping": kwargs.get("double_wrapping", True),
            "wrapped": wrapped,
            "rows": t.num_rows,
        })
    print(json.dumps(manifest))


def read(paths):
    for path in paths:
        factory = crypto_factory()
        dec = factory.file_decryption_properties(kms_config(), pe.DecryptionConfiguration(), path)
        t = pq.read_table(path, decryption_properties=dec)
        print(json.dumps(t.to_pylist(), default=str))


def unwrap(keys_path):
    """KEYS.json: [{"path": parquet file, "metadata": key metadata text}]. Prints the hex data
    keys, unwrapped as Arrow's FileKeyUnwrapper does: the KMS unwraps the KEK (or the DEK in
    single wrapping), then the DEK is unwrapped locally with AAD = base64-decoded KEK id."""
    from pyarrow._parquet_encryption import FileSystemKeyMaterialStore, KeyMaterial

    with open(keys_path) as f:
        entries = json.load(f)
    kms = AesGcmInMemoryKms(kms_config())
    out = []
    for e in entries:
        meta = json.loads(e["metadata"])
        if meta["internalStorage"]:
            material = KeyMaterial.parse(e["metadata"].encode())
        else:
            store = FileSystemKeyMaterialStore.for_file(e["path"])
            material = store.get_key_material(meta["keyReference"])
        master = material.master_key_id
        if material.is_double_wrapped:
            kek = kms.unwrap_key(material.wrapped_kek, master)
            dek = unwrap_locally(material.wrapped_dek, kek, base64.b64decode(material.kek_id))
        else:
            dek = kms.unwrap_key(material.wrapped_dek, master)
        out.append({"master": master, "footer": material.is_footer_key, "key": dek.hex()})
    print(json.dumps(out))


def main():
    cmd = sys.argv[1]
    if cmd == "selftest":
        selftest()
    elif cmd == "write":
        write(sys.argv[2])
    elif cmd == "unwrap":
        unwrap(sys.argv[2])
    elif cmd == "read":
        read(sys.argv[2:])
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
