"""The loose bytes of a SQLite file (:mod:`tact_memory.store.residue`), checked against SQLite itself.

The oracle is SQLite's own ``dbstat`` virtual table, which reports for every b-tree page the bytes
it does not use. Found by experiment on real files (and exact on every page the workloads below
make), for a b-tree page with ``F`` free blocks, ``fragmented`` bytes (page header byte 7) and a
reserved tail of ``page_size - usable`` bytes (file header byte 20)::

    loose bytes == dbstat.unused - fragmented - 4 * F + (page_size - usable)

``unused`` counts the gap between the cell pointer array and the cell content start, every free
block whole and the fragmented bytes, but not the reserved tail. The reader leaves out each free
block's four-byte header (a pointer and a size, never text) and the fragments (at most three bytes
each, which the format cannot locate), and adds the reserved tail. Pages ``dbstat`` does not list
are the freelist (``PRAGMA freelist_count`` of them): a leaf page is loose whole, a trunk page
from the end of its list of leaves.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import re
import signal
import sqlite3
import string
import types
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from tact_memory.store import residue

GRAM = residue.GRAM


# -- building real files ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Workload:
    """What one database file goes through before it is read."""

    page_size: int
    reserve: int
    """Bytes reserved at the end of every page (file header byte 20)."""
    wal: bool
    seed: int
    steps: tuple[tuple[str, int], ...]
    overflow: bool
    """Whether the last step stores a row too large for its page, which needs overflow pages."""


@dataclass(frozen=True)
class Built:
    image: bytes
    stat: list[tuple[int, str, int, int]]
    """``dbstat``: page number, ``internal``/``leaf``/``overflow``, cells, unused bytes."""
    free_pages: int
    page_count: int
    bodies: list[str]
    """Every live row's ``body``."""


def _text(rng: random.Random, length: int) -> str:
    return "".join(rng.choices(string.ascii_letters + string.digits, k=length))


def _reserve_bytes(path: Path, page_size: int, reserve: int) -> None:
    """Make an empty database whose pages keep ``reserve`` bytes at their end: SQLite honours the
    header's byte 20 in every page it writes after that (an empty page 1 has no cell to move)."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(f"PRAGMA page_size = {page_size}")
    conn.execute("PRAGMA user_version = 1")  # writes page 1: the header and an empty schema leaf
    conn.close()
    image = bytearray(path.read_bytes())
    assert len(image) == page_size and image[100] == 13 and image[103:105] == b"\x00\x00"
    image[20] = reserve
    image[105:107] = (page_size - reserve).to_bytes(2, "big")  # cell content starts at the usable end
    path.write_bytes(bytes(image))


def build(path: Path, work: Workload) -> Built:
    """Run the workload on a new file with ``secure_delete`` on and return the file's bytes and
    what SQLite says about its pages."""
    if work.reserve:
        _reserve_bytes(path, work.page_size, work.reserve)
    rng = random.Random(work.seed)
    usable = work.page_size - work.reserve
    longest = usable - 120  # a table cell stays on its page (at most usable - 35 bytes of payload)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute(f"PRAGMA page_size = {work.page_size}")
        conn.execute("PRAGMA secure_delete = ON")
        if work.wal:
            assert conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal"
        conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL, tag TEXT NOT NULL)")
        conn.execute("CREATE INDEX t_tag ON t (tag)")  # index cells hold at most ~94 bytes at 480 usable
        conn.execute("CREATE TABLE s (k INTEGER PRIMARY KEY, v TEXT)")  # small rows, many to a page
        for kind, n in work.steps:
            conn.execute("BEGIN")
            ids = [row[0] for row in conn.execute("SELECT id FROM t")]
            if kind == "insert":
                conn.executemany(
                    "INSERT INTO t (body, tag) VALUES (?, ?)",
                    [(_text(rng, rng.randint(1, longest)), _text(rng, rng.randint(1, 40))) for _ in range(n)],
                )
            elif kind == "update":
                for id_ in rng.sample(ids, min(n, len(ids))):
                    conn.execute("UPDATE t SET body = ? WHERE id = ?", (_text(rng, rng.randint(1, longest)), id_))
            elif kind == "delete":
                conn.executemany("DELETE FROM t WHERE id = ?", [(i,) for i in rng.sample(ids, min(n, len(ids)))])
            elif kind == "purge":  # every k-th row: leaves pages underfull, merges them, frees some
                k = rng.randint(2, 4)
                conn.execute("DELETE FROM t WHERE id % ? != ?", (k, rng.randrange(k)))
            else:
                assert kind == "small"
                conn.executemany(
                    "INSERT INTO s (v) VALUES (?)",
                    [(None if rng.random() < 0.1 else _text(rng, rng.randint(0, 12)),) for _ in range(4 * n)],
                )
                small = [row[0] for row in conn.execute("SELECT k FROM s")]
                conn.executemany("DELETE FROM s WHERE k = ?", [(k,) for k in rng.sample(small, len(small) // 3)])
            conn.execute("COMMIT")
        if work.overflow:
            conn.execute("INSERT INTO t (body, tag) VALUES (?, 'big')", (_text(rng, 3 * work.page_size),))
        stat = conn.execute("SELECT pageno, pagetype, ncell, unused FROM dbstat").fetchall()
        free_pages = conn.execute("PRAGMA freelist_count").fetchone()[0]
        page_count = conn.execute("PRAGMA page_count").fetchone()[0]
        bodies = [row[0] for row in conn.execute("SELECT body FROM t")]
    finally:
        conn.close()  # the last connection checkpoints the WAL into the file and removes it
    assert not Path(f"{path}-wal").exists()
    return Built(path.read_bytes(), stat, free_pages, page_count, bodies)


STEPS = st.tuples(st.sampled_from(["insert", "insert", "update", "delete", "purge", "small"]), st.integers(1, 30))
WORKLOADS = st.builds(
    Workload,
    page_size=st.sampled_from([512, 1024, 4096]),
    reserve=st.sampled_from([0, 0, 8, 32]),
    wal=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    steps=st.lists(STEPS, min_size=1, max_size=14).map(tuple),
    overflow=st.sampled_from([False, False, False, False, True]),
)

# -- reading pages independently of the reader under test ----------------------------------------


def _u16(data: bytes | bytearray, at: int) -> int:
    return int.from_bytes(data[at : at + 2], "big")


def _u32(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 4], "big")


def loose_by_page(spans: list[tuple[int, int]], page_size: int) -> dict[int, int]:
    """Loose bytes on each page (numbered from 1); a span may cover several whole pages."""
    found: dict[int, int] = defaultdict(int)
    for start, end in spans:
        at = start
        while at < end:
            stop = min(end, (at // page_size + 1) * page_size)
            found[at // page_size + 1] += stop - at
            at = stop
    return found


def fragments_and_free_blocks(image: bytes, page_size: int, number: int) -> tuple[int, int]:
    """A b-tree page's fragmented byte count (header byte 7) and how many free blocks it chains."""
    base = (number - 1) * page_size
    at = base + (100 if number == 1 else 0)
    blocks, block = 0, _u16(image, at + 1)
    while block:
        blocks += 1
        assert blocks < page_size, "free block chain loops"
        block = _u16(image, base + block)
    return image[at + 7], blocks


def freelist_loose(image: bytes, page_size: int) -> dict[int, int]:
    """Every freelist page and the loose bytes it should have: all of a leaf, a trunk's tail."""
    found: dict[int, int] = {}
    trunk = _u32(image, 32)
    while trunk:
        assert trunk not in found
        base = (trunk - 1) * page_size
        leaves = _u32(image, base + 4)
        found[trunk] = page_size - 8 - 4 * leaves
        for i in range(leaves):
            found[_u32(image, base + 8 + 4 * i)] = page_size
        trunk = _u32(image, base)
    return found


def assert_well_placed(spans: list[tuple[int, int]], size: int) -> None:
    """Every span lies inside the image, and no two overlap."""
    for start, end in spans:
        assert isinstance(start, int) and isinstance(end, int)
        assert 0 <= start <= end <= size, (start, end, size)
    ordered = sorted(spans)
    for (_, end), (start, _) in zip(ordered, ordered[1:]):
        assert end <= start, ordered


def covered(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in spans)


# -- the oracle ------------------------------------------------------------------------------------


@settings(max_examples=100)
@given(work=WORKLOADS)
def test_loose_bytes_agree_with_dbstat_page_by_page(work: Workload, tmp_path_factory: pytest.TempPathFactory) -> None:
    """On a real file after random inserts, updates and deletes (splits, merges, freed pages, free
    blocks and fragments), each page's loose bytes are exactly what ``dbstat`` leaves unused, less
    the free blocks' headers and the fragments, plus the reserved tail (module docstring). Freelist
    pages are loose but for a trunk's list; every live row's text is found outside the loose spans.
    The reader gives up (``None``) exactly when ``dbstat`` lists an overflow page."""
    built = build(tmp_path_factory.mktemp("oracle") / "db.sqlite3", work)
    image, page_size = built.image, work.page_size
    usable = page_size - work.reserve
    assert len(image) == built.page_count * page_size
    assert image[20] == work.reserve
    overflowing = any(kind == "overflow" for _, kind, _, _ in built.stat)
    assert overflowing == work.overflow
    event(f"overflow page: {overflowing}")
    spans = residue.loose_spans(image)
    if overflowing:
        assert spans is None
        return
    assert spans is not None
    assert_well_placed(spans, len(image))
    loose = loose_by_page(spans, page_size)

    for number, kind, _cells, unused in built.stat:
        assert kind in ("internal", "leaf")
        fragmented, blocks = fragments_and_free_blocks(image, page_size, number)
        assert loose[number] == unused - fragmented - 4 * blocks + (page_size - usable), (number, kind)
        event(f"free blocks on a page: {min(blocks, 2)}+")
        event(f"fragmented bytes on a page: {min(fragmented, 1)}+")

    btree = {number for number, *_ in built.stat}
    free = freelist_loose(image, page_size)
    assert len(free) == built.free_pages
    event(f"free pages: {min(len(free), 2)}+")
    assert btree.isdisjoint(free) and btree | set(free) == set(range(1, built.page_count + 1))
    for number, expected in free.items():
        assert loose[number] == expected, number
    assert set(loose) <= btree | set(free)

    for body in built.bodies:  # each live row's text has a copy no loose span touches: its cell
        if len(body) < 8:
            continue
        needle, at, outside = body.encode(), -1, False
        while not outside:
            at = image.find(needle, at + 1)
            assert at >= 0, "a live row is only in loose bytes"
            outside = not covered(spans, at, at + len(needle))


# -- images the reader must not trust --------------------------------------------------------------


def _plain_file(path: Path, *pragmas: str) -> bytes:
    conn = sqlite3.connect(path, isolation_level=None)
    for pragma in pragmas:
        conn.execute(pragma)
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO t VALUES (?)", [(f"row {i} " + "w" * (i % 50),) for i in range(300)])
    conn.execute("COMMIT")
    conn.execute("DELETE FROM t WHERE rowid % 3 = 0")
    conn.close()
    return path.read_bytes()


def test_a_plain_file_is_accounted_for(tmp_path: Path) -> None:
    """The control for the cases below: the same file, in UTF-8 without auto-vacuum, is read."""
    spans = residue.loose_spans(_plain_file(tmp_path / "plain.sqlite3", "PRAGMA page_size = 512"))
    assert spans is not None and spans


@pytest.mark.parametrize("encoding", ["UTF-16le", "UTF-16be"])
def test_a_utf16_file_is_not_accounted_for(tmp_path: Path, encoding: str) -> None:
    image = _plain_file(tmp_path / "utf16.sqlite3", f"PRAGMA encoding = '{encoding}'")
    assert image[56:60] != b"\x00\x00\x00\x01"
    assert residue.loose_spans(image) is None


@pytest.mark.parametrize("mode", ["FULL", "INCREMENTAL"])
def test_an_auto_vacuum_file_is_not_accounted_for(tmp_path: Path, mode: str) -> None:
    """Auto-vacuum files hold pointer-map pages, which are no b-tree pages."""
    image = _plain_file(tmp_path / "autovacuum.sqlite3", "PRAGMA page_size = 512", f"PRAGMA auto_vacuum = {mode}")
    assert _u32(image, 52) != 0
    assert residue.loose_spans(image) is None


def test_a_file_with_an_overflow_page_is_not_accounted_for_until_it_is_freed(tmp_path: Path) -> None:
    db = tmp_path / "overflow.sqlite3"
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA page_size = 512")
    conn.execute("PRAGMA secure_delete = ON")
    conn.execute("CREATE TABLE t (x TEXT)")
    conn.execute("INSERT INTO t VALUES ('a short row')")
    conn.execute("INSERT INTO t VALUES (?)", ("long " * 400,))
    assert conn.execute("SELECT count(*) FROM dbstat WHERE pagetype = 'overflow'").fetchone()[0] > 0
    assert residue.loose_spans(db.read_bytes()) is None
    conn.execute("DELETE FROM t WHERE length(x) > 100")  # its overflow pages go to the freelist
    assert conn.execute("SELECT count(*) FROM dbstat WHERE pagetype = 'overflow'").fetchone()[0] == 0
    assert conn.execute("PRAGMA freelist_count").fetchone()[0] > 0
    conn.close()
    spans = residue.loose_spans(db.read_bytes())
    assert spans is not None
    assert_well_placed(spans, len(db.read_bytes()))


def test_what_is_no_database_is_not_accounted_for(tmp_path: Path) -> None:
    image = _plain_file(tmp_path / "wal.sqlite3", "PRAGMA page_size = 512")
    conn = sqlite3.connect(tmp_path / "wal.sqlite3", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("INSERT INTO t VALUES ('a frame')")
    wal = Path(f"{tmp_path / 'wal.sqlite3'}-wal").read_bytes()
    conn.close()
    assert wal
    for data in [b"", b"SQLite format 3\x00", image[:100], image[:-1], image[:512] + b"\x00" * 100, wal, b"x" * 4096]:
        assert residue.loose_spans(data) is None


# Malformed headers, each against one check of the reader: the page and offset come from the image.


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """A real 512-byte-page file with free blocks, fragments and a freelist to break."""
    steps = (("insert", 30), ("small", 30), ("update", 20), ("small", 30), ("purge", 1), ("delete", 5), ("small", 20))
    work = Workload(512, 0, False, 15, (*steps, ("update", 10)), False)
    built = build(tmp_path_factory.mktemp("base") / "db.sqlite3", work)
    assert residue.loose_spans(built.image) is not None
    assert built.free_pages > 0
    pages = [fragments_and_free_blocks(built.image, 512, number) for number, *_ in built.stat]
    assert any(blocks for _, blocks in pages) and any(fragmented for fragmented, _ in pages)
    return built


def _page_with_free_block(built: Built) -> int:
    return next(n for n, *_ in built.stat if n > 1 and fragments_and_free_blocks(built.image, 512, n)[1])


def _break(image: bytes, at: int, value: bytes) -> bytes:
    return image[:at] + value + image[at + len(value) :]


def test_malformed_headers_are_not_accounted_for(base: Built) -> None:
    image = base.image
    page = _page_with_free_block(base)
    at = (page - 1) * 512
    first_block = _u16(image, at + 1)
    content = _u16(image, at + 5)
    cells = _u16(image, at + 3)
    header = 8 if image[at] in (10, 13) else 12
    trunk = _u32(image, 32)
    broken = {
        "page type": _break(image, at, b"\x07"),
        "overflow-like page": _break(image, at, b"\x00"),
        "content before the pointers": _break(image, at + 5, (header + 2 * cells - 1).to_bytes(2, "big")),
        "content past the usable end": _break(image, at + 5, (513).to_bytes(2, "big")),
        "free block before the content": _break(image, at + 1, (content - 1).to_bytes(2, "big")),
        "free block past the end": _break(image, at + 1, (510).to_bytes(2, "big")),
        "free block too small": _break(image, at + first_block + 2, b"\x00\x03"),
        "free block chain going back": _break(image, at + first_block, first_block.to_bytes(2, "big")),
        "page size": _break(image, 16, b"\x01\x01"),
        "reserved tail leaves under 480 bytes": _break(image, 20, b"\x21"),
        "auto-vacuum": _break(image, 52, b"\x00\x00\x00\x01"),
        "freelist count": _break(image, 36, (base.free_pages + 1).to_bytes(4, "big")),
        "freelist trunk past the end": _break(image, 32, (base.page_count + 1).to_bytes(4, "big")),
        "freelist trunk is page 1": _break(image, 32, b"\x00\x00\x00\x01"),
        "freelist trunk lists itself": _break(image, (trunk - 1) * 512 + 4, b"\x00\x00\x00\x01" + trunk.to_bytes(4, "big")),
        "freelist trunk counts too many leaves": _break(image, (trunk - 1) * 512 + 4, (127).to_bytes(4, "big")),
        "database size past the file": _break(image, 28, (base.page_count + 1).to_bytes(4, "big")),
    }
    for what, data in broken.items():
        assert data != image, what
        with time_limit(5):
            assert residue.loose_spans(data) is None, what


def test_pages_past_the_database_size_are_loose_whole(base: Built) -> None:
    """A file longer than the size its header records (valid while bytes 24 and 92 agree): the
    pages past it are not the database's and count as loose."""
    image = base.image + bytes(range(256)) * 4
    spans = residue.loose_spans(image)
    assert spans is not None and (len(base.image), len(image)) in spans
    assert_well_placed(spans, len(image))
    stale = _break(image, 92, (_u32(image, 24) + 1).to_bytes(4, "big"))  # the recorded size is stale
    assert residue.loose_spans(stale) is None  # the extra page is read as a page, and is none


# -- robustness ------------------------------------------------------------------------------------


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise in the main thread if the body runs longer than ``seconds`` (a hang fails the test)."""

    def expire(signum: int, frame: types.FrameType | None) -> None:
        raise TimeoutError(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_robust(data: bytes) -> list[tuple[int, int]] | None:
    with time_limit(5):
        spans = residue.loose_spans(data)
        if spans is not None:
            for start, end in spans:
                assert isinstance(start, int) and isinstance(end, int)
                assert 0 <= start <= end <= len(data), (start, end, len(data))
            residue.holds_any(data, spans, ["row 1", "wwww", "\u00e9t\u00e9 \u20ac"])
    return spans


HEADER_FIELDS = [16, 17, 18, 19, 20, 21, 22, 23, 24, 28, 31, 32, 35, 36, 39, 52, 55, 56, 59, 92, 95]
"""Offsets inside the file header that the reader looks at."""


@st.composite
def mutations(draw: st.DrawFn, image: bytes) -> bytes:
    """The image with a few bytes changed (anywhere, in a page header, or in the file header),
    perhaps cut short or lengthened."""
    data = bytearray(image)
    pages = len(image) // 512
    for _ in range(draw(st.integers(1, 6))):
        where = draw(st.sampled_from(["anywhere", "page header", "file header", "free block"]))
        if where == "anywhere":
            at = draw(st.integers(0, len(data) - 1))
        elif where == "page header":
            page = draw(st.integers(1, pages))
            at = (page - 1) * 512 + (100 if page == 1 else 0) + draw(st.integers(0, 11))
        elif where == "file header":
            at = draw(st.sampled_from(HEADER_FIELDS))
        else:  # near where a page's first free block says it is
            page = draw(st.integers(1, pages))
            header = (page - 1) * 512 + (100 if page == 1 else 0)
            at = min(len(data) - 1, (page - 1) * 512 + (_u16(data, header + 1) % 512) + draw(st.integers(0, 3)))
        data[at] = draw(st.sampled_from([0, 1, 2, 5, 10, 13, 0xFF, data[at] ^ 1, draw(st.integers(0, 255))]))
    cut = draw(st.one_of(st.none(), st.integers(0, len(data))))
    if cut is not None:
        del data[cut:]
    if draw(st.booleans()):
        data += draw(st.binary(max_size=1100))
    return bytes(data)


@settings(max_examples=300)
@given(data=st.data())
def test_mutated_images_never_raise_or_hang(base: Built, data: st.DataObject) -> None:
    """Flipped, truncated or lengthened real images: ``None``, or spans inside the image."""
    spans = check_robust(data.draw(mutations(base.image)))
    event("accounted for" if spans is not None else "not accounted for")


def _shaped(header: bytes, tail: bytes, pages: int) -> bytes:
    """The magic string, a 512-byte page size, a random header with UTF-8 and no auto-vacuum, and
    random pages: past the file checks, into the page walk."""
    head = residue._MAGIC + b"\x02\x00" + header[18:52] + bytes(4) + b"\x00\x00\x00\x01" + header[60:]
    assert len(head) == 100
    return (head + tail).ljust(pages * 512, b"\x00")[: pages * 512]


@settings(max_examples=200)
@given(tail=st.binary(max_size=3000), pages=st.integers(1, 6), header=st.binary(min_size=100, max_size=100))
def test_random_images_never_raise_or_hang(base: Built, tail: bytes, pages: int, header: bytes) -> None:
    """Random bytes, alone, behind a real file header, or behind a random header shaped to pass
    the first checks."""
    check_robust(tail)
    check_robust((base.image[:100] + tail).ljust(pages * 512, b"\x00")[: pages * 512])
    check_robust(_shaped(header, tail, pages))


# -- reading a file again through a memo --------------------------------------------------------


def fresh_runs(image: bytes) -> list[bytes] | None:
    """The loose runs of an image read from nothing: the spans, then the non-zero runs in them."""
    spans = residue.loose_spans(image)
    return None if spans is None else residue._loose_runs(image, spans)


def test_loose_runs_without_a_memo_are_the_runs_of_the_spans(base: Built) -> None:
    runs = residue.loose_runs(base.image)
    assert runs == fresh_runs(base.image) and runs


@settings(max_examples=200)
@given(data=st.data())
def test_a_memo_reads_a_changed_image_as_a_fresh_read_does(base: Built, data: st.DataObject) -> None:
    """A memo that read the real image and then some mutations of it gives, for each next image,
    exactly the runs (or the refusal) of a read from nothing: a remembered page is used only when
    its bytes are those remembered."""
    memo = residue.PageMemo()
    assert residue.loose_runs(base.image, memo) == fresh_runs(base.image)
    for _ in range(data.draw(st.integers(1, 4))):
        image = data.draw(mutations(base.image))
        with time_limit(5):
            assert residue.loose_runs(image, memo) == fresh_runs(image)
        assert residue.loose_runs(base.image, memo) == fresh_runs(base.image)  # and back again


@settings(max_examples=25)
@given(work=WORKLOADS)
def test_a_memo_follows_a_real_file_through_its_writes(work: Workload, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The same file read after every transaction of a workload (splits, merges, freed and reused
    pages, page 1 rewritten, the page size fixed but pages added and dropped): the memo's runs are
    the fresh read's each time, and the pages it parses again are at most the ones that changed."""
    path = tmp_path_factory.mktemp("memo") / "db.sqlite3"
    memo = residue.PageMemo()
    previous = b""
    rng = random.Random(work.seed)
    first = dataclasses.replace(work, steps=work.steps[:1], overflow=False, wal=False)
    for number, step in enumerate(work.steps):
        image = build(path, first).image if number == 0 else _one_more_step(path, step, rng)
        parsed = memo.parsed
        assert residue.loose_runs(image, memo) == fresh_runs(image)
        size = work.page_size
        changed = sum(1 for at in range(0, len(image), size) if image[at : at + size] != previous[at : at + size])
        assert memo.parsed - parsed <= changed
        previous = image


def _one_more_step(path: Path, step: tuple[str, int], rng: random.Random) -> bytes:
    """Insert, update or delete rows of the file :func:`build` made, in one transaction."""
    kind, n = step
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA secure_delete = ON")
        conn.execute("BEGIN")
        ids = [row[0] for row in conn.execute("SELECT id FROM t")]
        if kind in ("insert", "small"):
            conn.executemany(
                "INSERT INTO t (body, tag) VALUES (?, ?)",
                [(_text(rng, rng.randint(1, 300)), _text(rng, rng.randint(1, 40))) for _ in range(n)],
            )
        elif kind == "update":
            for id_ in rng.sample(ids, min(n, len(ids))):
                conn.execute("UPDATE t SET body = ? WHERE id = ?", (_text(rng, rng.randint(1, 300)), id_))
        else:
            conn.executemany("DELETE FROM t WHERE id = ?", [(i,) for i in rng.sample(ids, min(n, len(ids)))])
        conn.execute("COMMIT")
    finally:
        conn.close()
    return path.read_bytes()


def test_a_memo_parses_only_the_page_that_changed(base: Built) -> None:
    """One page's bytes changed: that page alone is parsed again (the point of the memo)."""
    memo = residue.PageMemo()
    residue.loose_runs(base.image, memo)
    first = memo.parsed
    assert first == len([n for n, *_ in base.stat])  # every b-tree page, the first time
    assert residue.loose_runs(base.image, memo) == fresh_runs(base.image)
    assert memo.parsed == first  # nothing changed: nothing parsed
    spans = residue.loose_spans(base.image)
    assert spans is not None
    at = next(start for start, end in spans if start >= 512 and end - start >= 16 and end // 512 == start // 512)
    changed = _break(base.image, at, b"moved text")
    runs = residue.loose_runs(changed, memo)
    assert memo.parsed == first + 1
    assert runs == fresh_runs(changed) and any(b"moved text" in run for run in runs or [])


def test_a_memo_of_another_page_size_is_not_used(tmp_path: Path) -> None:
    """Pages remembered at one page size are never matched against a file of another, even where
    the bytes at the same offsets agree."""
    small = _plain_file(tmp_path / "small.sqlite3", "PRAGMA page_size = 512")
    large = _plain_file(tmp_path / "large.sqlite3", "PRAGMA page_size = 1024")
    memo = residue.PageMemo()
    for image in (small, large, small, large):
        assert residue.loose_runs(image, memo) == fresh_runs(image)


# -- holds_any -------------------------------------------------------------------------------------


def brute_force_holds(image: bytes, spans: list[tuple[int, int]], texts: list[str]) -> bool:
    """Any GRAM-byte window of any span's bytes inside any text's UTF-8."""
    stored = [text.encode("utf-8") for text in texts]
    return any(image[i : i + GRAM] in s for start, end in spans for i in range(start, end - GRAM + 1) for s in stored)


ALPHABET = "abcd\u00e9\u20ac\x1f"
"""Texts and images share a small alphabet, so grams are often held, and often only in part. A
control character (which only a hand can put into a stored row) takes a text off the path that
looks only in runs of text bytes, and splits the runs an image holds."""


@st.composite
def segments(draw: st.DrawFn, texts: list[str]) -> bytes:
    kind = draw(st.sampled_from(["zeros", "copied", "copied", "alphabet", "noise"]))
    if kind == "zeros":
        return bytes(draw(st.integers(1, 8)))
    if kind == "copied" and texts:  # part of a text, as a stale copy would hold it
        data = draw(st.sampled_from(texts)).encode("utf-8")
        start = draw(st.integers(0, len(data)))
        return data[start : start + draw(st.integers(0, 12))]
    if kind == "noise":  # a long run of bytes in no text: pushes past the few-windows path
        return bytes([draw(st.sampled_from(b"#Z\x0f\xa3"))]) * draw(st.integers(1, 200))
    return draw(st.text(alphabet=ALPHABET, max_size=10)).encode("utf-8")


@st.composite
def loose_cases(draw: st.DrawFn) -> tuple[bytes, list[tuple[int, int]], list[str]]:
    texts = draw(st.lists(st.text(alphabet=ALPHABET, max_size=30), max_size=4))
    image = b"".join(draw(st.lists(segments(texts), max_size=12)))
    bounds = st.integers(0, len(image))
    spans = [(min(a, b), max(a, b)) for a, b in draw(st.lists(st.tuples(bounds, bounds), max_size=5))]
    if draw(st.booleans()):
        spans.append((0, len(image)))
    return image, spans, texts


@settings(max_examples=400)
@given(case=loose_cases())
def test_holds_any_agrees_with_brute_force_on_both_paths(case: tuple[bytes, list[tuple[int, int]], list[str]]) -> None:
    """Stored text holds no NUL (the store refuses control characters), so neither may these."""
    image, spans, texts = case
    expected = brute_force_holds(image, spans, texts)
    runs = [run for start, end in spans for run in re.findall(rb"[^\x00]{%d,}" % GRAM, image[start:end])]
    windows = sum(len(run) - GRAM + 1 for run in runs)
    event(f"{'few' if windows <= residue._FEW_WINDOWS else 'many'} windows, held={expected}")
    event("texts with a control character" if any("\x1f" in text for text in texts) else "texts of text bytes")
    assert residue.holds_any(image, spans, texts) == expected
    for threshold in (-1, 10**9):  # every window through the gram set, then every one searched directly
        with mock.patch.object(residue, "_FEW_WINDOWS", threshold):
            assert residue.holds_any(image, spans, texts) == expected, threshold


def test_grams_are_the_utf8_windows() -> None:
    assert residue.grams(["abcde", "\u00e9t"]) == {b"abcd", b"bcde"}  # "\u00e9t" is three bytes: no gram
    assert residue.grams(["abc", ""]) == frozenset()
    assert residue.grams(["\u20ac\u20ac"]) == {b"\xe2\x82\xac\xe2", b"\x82\xac\xe2\x82", b"\xac\xe2\x82\xac"}


def _gap(image: bytes, spans: list[tuple[int, int]], length: int) -> int:
    """The middle of the largest all-zero loose span, which must hold ``length`` bytes."""
    zeroed = [(start, end) for start, end in spans if image.count(0, start, end) == end - start]
    start, end = max(zeroed, key=lambda s: s[1] - s[0])
    assert end - start >= length + 8
    return start + (end - start - length) // 2


@pytest.mark.parametrize("many", [False, True], ids=["few windows", "many windows"])
def test_three_copied_bytes_are_not_a_copy_and_four_are(tmp_path: Path, many: bool) -> None:
    """A run of removed text in a page gap is found once it is GRAM bytes long, on either path."""
    image = _plain_file(tmp_path / "gram.sqlite3", "PRAGMA secure_delete = ON")
    spans = residue.loose_spans(image)
    assert spans is not None
    removed = ["the zanzibar orchid"]
    assert not residue.holds_any(image, spans, removed)
    at = _gap(image, spans, 200)
    noise = b"#" * 100 if many else b""  # non-zero bytes next to it, in no text: over 64 windows
    for copied, held in [(b"zan", False), (b"zanz", True), (b" orchid", True), (b"orc\x00hid", False)]:
        planted = _break(image, at, noise + copied + b"\x00" + noise)
        assert residue.holds_any(planted, spans, removed) is held, copied
    assert residue.holds_any(_break(image, at, b"zanz"), [(at, at + 3)], removed) is False  # only what is loose


# -- the check for any text, when what was removed is not known ---------------------------------


STORABLE = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters=[chr(c) for c in [*range(32), 127] if chr(c) not in "\t\n\r"]),
    min_size=1,
)
"""Text a record may hold: any character but the control characters content refuses."""


def _with_planted(tmp_path: Path, planted: bytes) -> tuple[bytes, list[tuple[int, int]]]:
    image = _plain_file(tmp_path / "text.sqlite3", "PRAGMA secure_delete = ON")
    spans = residue.loose_spans(image)
    assert spans is not None and not residue.holds_text(image, spans)  # SQLite left nothing text-like
    start, end = max(spans, key=lambda span: span[1] - span[0])
    assert end - start >= len(planted) + 2
    return image[:start + 1] + planted + image[start + 1 + len(planted) :], spans


@settings(max_examples=100, deadline=None)
@given(text=STORABLE, data=st.data())
def test_any_four_bytes_of_storable_text_are_taken_for_text(tmp_path_factory: pytest.TempPathFactory, text: str, data: st.DataObject) -> None:
    """Sound for every removal: whatever the removed text was, any run of four or more of its
    UTF-8 bytes left in loose space is found (stored text is this and JSON of it)."""
    encoded = text.encode("utf-8")
    if len(encoded) < residue.GRAM:
        encoded = (text * residue.GRAM).encode("utf-8")
    start = data.draw(st.integers(0, len(encoded) - residue.GRAM))
    stop = data.draw(st.integers(start + residue.GRAM, min(len(encoded), start + 1000)))
    image, spans = _with_planted(tmp_path_factory.mktemp("text"), encoded[start:stop])
    assert residue.holds_text(image, spans)


@settings(max_examples=100, deadline=None)
@given(values=st.lists(st.integers(0, 0x08FF), min_size=1, max_size=40))
def test_offsets_and_sizes_of_small_pages_are_not_taken_for_text(tmp_path_factory: pytest.TempPathFactory, values: list[int]) -> None:
    """What SQLite leaves in loose space itself, stale cell offsets and free-block headers, is
    two-byte values below the page size; below 0x0900 their high byte is no text byte."""
    planted = b"".join(value.to_bytes(2, "big") for value in values)
    image, spans = _with_planted(tmp_path_factory.mktemp("offsets"), planted)
    assert not residue.holds_text(image, spans)
