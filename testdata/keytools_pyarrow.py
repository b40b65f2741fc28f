#!/usr/bin/env python3
"""pyarrow side of tests/keytools_interop.rs: encrypted files written and read with pyarrow's
CryptoFactory and a KMS client that wraps like parquet_serde::keytools::InMemoryKms and
parquet-java's test InMemoryKMS (AES-GCM with the master key id as AAD, base64 of
nonce | ciphertext | tag), with AES-GCM from the `cryptography` package.

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

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
import pyarrow as pa
import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe

MASTER_KEYS = {
    "kf": b"0123456789012345",
    "kc1": b"1234567890123450",
    "kc2": b"1234567890123451",
}

# ---------------------------------------------------------------- AES-GCM (cryptography)


def gcm_encrypt(key, nonce, plaintext, aad):
    out = AESGCM(key).encrypt(nonce, plaintext, aad)
    return out[:-16], out[-16:]


def gcm_decrypt(key, nonce, ciphertext, tag, aad):
    return AESGCM(key).decrypt(nonce, ciphertext + tag, aad)


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
    # pyarrow's encryption objects with Python KMS clients sometimes abort in C++ while the
    # interpreter tears down ("terminate called without an active exception"), after all
    # the work is done: leave without the teardown.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
