#!/usr/bin/env python3
"""Check the Python package's sdist as PyPI would show it: its PKG-INFO metadata (name, version,
summary, licence, Python, README) and the Rust source a build from it needs.

Usage: check-sdist.py SDIST.tar.gz   (run by .ci/run and scripts/release-check.sh)
"""
import email
import sys
import tarfile

with tarfile.open(sys.argv[1]) as tar:
    names = tar.getnames()
    info = next(n for n in names if n.count("/") == 1 and n.endswith("/PKG-INFO"))
    meta = email.message_from_bytes(tar.extractfile(info).read())
want = {"Name": "tafl-engine", "Requires-Python": ">=3.9"}
for key, value in want.items():
    assert meta[key] == value, f"PKG-INFO {key}: {meta[key]!r}, expected {value!r}"
for key in ("Version", "Summary", "License", "Description-Content-Type"):
    assert meta[key], f"PKG-INFO has no {key}"
assert "numpy" in " ".join(meta.get_all("Requires-Dist") or []), "numpy is not a dependency"
assert meta.get_payload().strip(), "PKG-INFO has no long description (the README)"
# The Rust source a build from the sdist needs: the library and the binding crate.
for needed in ("src/lib.rs", "python/src/lib.rs", "Cargo.toml", "Cargo.lock"):
    assert any(n.endswith("/" + needed) for n in names), f"the sdist lacks {needed}"
print(f"PKG-INFO: {meta['Name']} {meta['Version']}, {meta['License']}, "
      f"Python {meta['Requires-Python']}, {len(meta.get_payload())} characters of README; "
      f"{len(names)} files")
