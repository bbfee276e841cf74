"""mypy --strict on every Python example users read: the ```python blocks of README.md,
docs/python.md, docs/learning.md and python/README.md (written out one file a block), python/examples/, and the
package's own Python code (tafl_engine/__init__.py and env.py, against its stubs).

    python scripts/check-python-examples.py [--out DIR]

Run with the Python of a virtual environment where tafl_engine (the built wheel), mypy, numpy,
pettingzoo and gymnasium are installed (.ci/run does). The mypy settings are in
python/pyproject.toml ([tool.mypy]). Exits with mypy's status; fails too if a document has no
Python block, so that a renamed fence cannot make the check pass by checking nothing.
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", "docs/python.md", "docs/learning.md", "python/README.md"]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "target" / "python-examples")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.py"):
        old.unlink()
    files = []
    for document in DOCUMENTS:
        text = (ROOT / document).read_text()
        blocks = BLOCK.findall(text)
        if not blocks:
            print(f"{document}: no ```python block", file=sys.stderr)
            return 1
        stem = document.replace("/", "_").replace(".md", "")
        for number, block in enumerate(blocks, start=1):
            path = args.out / f"{stem}_{number}.py"
            path.write_text(f"# From {document}, Python block {number}.\n{block}")
            files.append(path)
    examples = sorted((ROOT / "python" / "examples").glob("*.py"))
    print(f"mypy --strict: {len(files)} blocks of {', '.join(DOCUMENTS)}; "
          f"{len(examples)} examples; the package")
    config = ["--config-file", str(ROOT / "python" / "pyproject.toml")]
    checks = [
        # The blocks and examples, against the installed package (its stubs and py.typed).
        [*map(str, files), *map(str, examples)],
        # The package's own Python code, from its source directory.
        ["-p", "tafl_engine"],
    ]
    status = 0
    for targets, cwd in zip(checks, [args.out, ROOT / "python" / "python"]):
        command = [sys.executable, "-m", "mypy", "--strict", *config, *targets]
        status |= subprocess.run(command, cwd=cwd).returncode
    return status


if __name__ == "__main__":
    sys.exit(main())
