"""The secret screen's slowest kilobyte, for ``tact-memory bench``.

A put screens its content before anything else (:func:`tact_memory.screening.credentials.find_secret`),
and the screen is linear by construction: every pattern is bounded and every check has a budget. A
rule written without that care makes one input slow, not every input, so the typical record the
benchmark screens (``screen_ms``) would not show it. These kilobytes are built to make the screen
work hardest: a rule's name and separator repeated with nothing a rule accepts after them, openers
that never close, a key's armour before a kilobyte of a comment's marks, a label over every blank
line, marks or numbers before every line. The benchmark reports the slowest of them, and its ratio
to screening a typical record; the test suite checks only that each finishes.
"""

from __future__ import annotations

import time

__all__ = ["HARD_UNITS", "hard_kilobytes", "slowest_screen"]

HARD_UNITS: tuple[tuple[str, str], ...] = (
    # (what comes first, what is repeated to fill the kilobyte)
    ("", "password="),
    ("", "a_token="),
    ("", "eyJaaaaaaaa."),
    ("", "-----BEGIN "),
    ("-----BEGIN RSA PRIVATE KEY-----", "> "),
    ("-----BEGIN OpenVPN Static key V1-----", "# "),
    ("-----BEGIN OpenVPN Static key V1-----", "#"),
    ("postgres://", ":"),
    ("", "Authorization: "),
    ("", "machine a login b "),
    ("", "--password "),
    ("PASS: ", "a/"),
    ("", "PASS: x\n"),
    ("", "echo -n a | base64 "),
    ("", "x= y "),
    ("", "token@h:"),
    ("", "@h:"),
    ("", "q: Ab1cdefg "),
    ("", "a for b c d: Xy12345z\n"),
    ("password ", "a"),
    ("", "**password:** x "),
    ("", "<b>password:</b> x "),
    ("| a | b | c |\n|---|---|---|\n", "| password | token | secret |\n"),
    ("", "password:\n\n"),
    ("", "password:\n```\n"),
    ("kind: Secret\n", "data:\n"),
    ("kind: Secret\ndata:\n", "  a: |\n"),
    ("", "# password:\n"),
    ("", "    password: |\n"),
    ("", "- password:\n  "),
    ("", "1\tpassword:\n"),
    ("@@ -1 +1 @@\n", "+password: |\n"),
    ('"', '\\"password: '),
    ("", "password:\\n  "),
    ("", "&quot;password&quot;: "),
    ("| a | b |\n|---|---|\n", "| password | x<br>password: "),
)
"""Each hard kilobyte's lead and repeated unit."""


def hard_kilobytes() -> list[tuple[str, str]]:
    """``(label, text)`` for each of :data:`HARD_UNITS`: the lead, then the unit repeated to 1 KiB
    (cut at a character), labelled with the unit as Python writes it."""
    made = []
    for lead, unit in HARD_UNITS:
        text = (lead + unit * (1024 // len(unit) + 1)).encode()[:1024].decode("utf-8", "ignore")
        made.append((repr(unit), text))
    return made


def slowest_screen(runs: int = 3) -> tuple[float, str]:
    """The milliseconds the slowest hard kilobyte takes to screen (the least of ``runs`` screens of
    each, after one that compiles the rules it reaches), and its label."""
    from ..screening.credentials import find_secret

    slowest, label = 0.0, ""
    for name, text in hard_kilobytes():
        find_secret(text)
        best = float("inf")
        for _ in range(max(runs, 1)):
            start = time.perf_counter()
            find_secret(text)
            best = min(best, time.perf_counter() - start)
        if best > slowest:
            slowest, label = best, name
    return round(slowest * 1000, 4), label
