"""An earlier release of the package, taken from this checkout's git history, to run beside this one."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest


def package_at(commit: str, folder: Path) -> Path:
    """``folder``, holding the ``tact_memory`` package as it was at ``commit``, for ``PYTHONPATH``.

    Skips the test when the checkout has no git history, or not that commit (a shallow clone). A
    process that should import this package must not start in the checkout, whose own package
    ``python -m`` would find first.
    """
    root = Path(__file__).resolve().parents[1]
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("the earlier release comes from this checkout's git history, which is not here")
    archive = subprocess.run(["git", "-C", str(root), "archive", commit, "tact_memory"], capture_output=True, check=False)
    if archive.returncode != 0:
        pytest.skip(f"commit {commit[:7]} is not in this checkout's history (a shallow clone?)")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        if sys.version_info >= (3, 12):
            tar.extractall(folder, filter="data")
        else:
            tar.extractall(folder)  # git's archive of one of this repository's own commits
    return folder
