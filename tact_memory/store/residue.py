"""The bytes of a SQLite file that no live row owns, and whether removed text is among them.

After a removal the store must leave no copy of the removed text in the file. ``secure_delete``
zeroes a deleted cell and every freed page, but SQLite does not clear all the space it stops using:
when it rebuilds a page (a split or a merge) or grows the cell pointer array, an older copy of a
cell can stay in the unallocated middle of the page, and the four-byte headers of absorbed free
blocks and the slots of removed cell pointers stay behind too. The last two are only offsets and
sizes; the first is text.

This module reads a database image as the file format defines it
(https://www.sqlite.org/fileformat2.html) and returns the *loose* spans: the unallocated region of
every b-tree page, the bodies of its free blocks, its reserved tail, the unused part of each
freelist trunk page and every freelist leaf page. What is not loose is a page or file header, a
cell pointer, a live cell, or a fragment of at most three bytes the format cannot locate. A scrub
then asks whether any four consecutive bytes of a loose span also occur in the removed text
(:func:`grams`, :func:`holds_any`); only then does the file need rewriting.

Anything the reader does not fully understand (another text encoding, auto-vacuum pointer-map
pages, an overflow page, a header that does not add up) makes :func:`loose_spans` return ``None``,
and the caller rewrites the file, as it would for a hit. So the check errs towards the full scrub.

A scrub reads the file after every removal, which rewrites a few of its pages; :func:`loose_runs`
with a :class:`PageMemo` parses only the pages whose bytes changed since the last read.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterable

__all__ = [
    "GRAM",
    "PageMemo",
    "grams",
    "holds_any",
    "holds_text",
    "loose_runs",
    "loose_spans",
    "runs_hold_any",
    "runs_hold_text",
]

GRAM = 4
"""How many consecutive bytes of removed text count as a copy of it. Shorter runs are not checked
(a fragment the format cannot locate is at most three bytes)."""

_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = {2: 12, 5: 12, 10: 8, 13: 8}
"""B-tree page type (index interior, table interior, index leaf, table leaf) to its header size."""
_PAGE_HEADER = struct.Struct(">BHHH")
"""A b-tree page header's type, first free block, cell count and cell content start."""
_FREE_BLOCK = struct.Struct(">HH")
"""A free block's next free block and size."""
_RUNS = re.compile(rb"[^\x00]{%d,}" % GRAM)
"""A run of non-zero bytes long enough to hold a gram (stored text never contains NUL)."""
_TEXT_BYTE = rb"[\t\n\r\x20-\x7e\x80-\xff]"
"""A byte that stored text can be made of (UTF-8 without control characters but tab, newline and
carriage return)."""
_TEXT = re.compile(_TEXT_BYTE + rb"{%d}" % GRAM)
""":data:`GRAM` text bytes in a row (:func:`holds_text`)."""
_TEXT_RUN = re.compile(_TEXT_BYTE + rb"{%d,}" % GRAM)
"""A run of text bytes long enough to hold a gram (:func:`runs_hold_any`)."""
_ALL_TEXT = re.compile(_TEXT_BYTE + rb"*")
"""Bytes that are all text bytes."""
_FEW_WINDOWS = 64
"""Up to this many windows of loose bytes are searched for in the texts directly; more are
looked up in the set of the texts' grams."""


def _u16(data: bytes, at: int) -> int:
    return (data[at] << 8) | data[at + 1]


def _u32(data: bytes, at: int) -> int:
    return int.from_bytes(data[at : at + 4], "big")


def loose_spans(image: bytes) -> list[tuple[int, int]] | None:
    """``(start, end)`` byte offsets of every loose span of a database image, or ``None`` when
    the image holds anything this reader cannot account for."""
    layout = _layout(image)
    if layout is None:
        return None
    page_size, usable, spans, pages = layout
    for number in pages:
        if not _btree_page(image, number, page_size, usable, spans):
            return None
    return spans


class PageMemo:
    """The loose runs each b-tree page of one file had when it was last read, kept with the
    page's bytes, so that reading the file again parses only the pages that changed.

    A scrub reads the whole file after every removal, and a removal rewrites a few pages of it. A
    page's loose runs follow from its own bytes, the page size and the usable size alone, so a page
    whose bytes are those remembered has the runs remembered. Holds a copy of every b-tree page it
    has parsed (about the size of the file). Not thread-safe; one per store, used under its lock.
    """

    __slots__ = ("_geometry", "_pages", "parsed")

    def __init__(self) -> None:
        self._geometry: tuple[int, int] | None = None
        self._pages: dict[int, tuple[bytes, list[bytes]]] = {}
        self.parsed = 0
        """How many pages :func:`loose_runs` has parsed through this memo (the rest it remembered)."""

    def _page(self, image: bytes, number: int, page_size: int, usable: int) -> list[bytes] | None:
        base = (number - 1) * page_size
        known = self._pages.get(number)
        if known is not None and image.startswith(known[0], base):
            return known[1]
        self.parsed += 1
        spans: list[tuple[int, int]] = []
        if not _btree_page(image, number, page_size, usable, spans):
            self._pages.pop(number, None)
            return None
        runs = _loose_runs(image, spans)
        self._pages[number] = (image[base : base + page_size], runs)
        return runs

    def _use(self, page_size: int, usable: int) -> None:
        """Forget every page remembered under another page size or usable size."""
        if self._geometry != (page_size, usable):
            self._geometry = (page_size, usable)
            self._pages.clear()


def loose_runs(image: bytes, memo: PageMemo | None = None) -> list[bytes] | None:
    """The runs of at least :data:`GRAM` non-zero bytes in the loose spans of an image, in the
    order of :func:`loose_spans`, or ``None`` when it holds anything this reader cannot account for.

    With a ``memo`` of the same file's earlier reads, a page whose bytes have not changed since is
    not parsed again.
    """
    if memo is None:
        spans = loose_spans(image)
        return None if spans is None else _loose_runs(image, spans)
    layout = _layout(image)
    if layout is None:
        return None
    page_size, usable, spans, pages = layout
    runs = _loose_runs(image, spans)
    memo._use(page_size, usable)
    for number in pages:
        found = memo._page(image, number, page_size, usable)
        if found is None:
            return None
        runs.extend(found)
    return runs


def _layout(image: bytes) -> tuple[int, int, list[tuple[int, int]], list[int]] | None:
    """The page size, the usable size, the loose spans outside b-tree pages (pages past the
    counted end, the freelist's unused bytes) and the numbers of the pages that must be b-tree
    pages; ``None`` when the header or the freelist cannot be accounted for."""
    if len(image) < 100 or image[:16] != _MAGIC or image[56:60] != b"\x00\x00\x00\x01":
        return None  # not a database, or text stored as UTF-16
    page_size = _u16(image, 16)
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1) or len(image) % page_size:
        return None
    usable = page_size - image[20]
    pages = len(image) // page_size
    if _u32(image, 52) or usable < 480 or pages >= 1 << 24:
        return None  # auto-vacuum pointer maps, a reserved tail the format forbids, or a page number
        # wide enough to make an overflow page's first byte look like a b-tree page type
    spans: list[tuple[int, int]] = []
    counted = _u32(image, 28)
    if counted and _u32(image, 24) == _u32(image, 92):
        if counted > pages:
            return None
        spans.append((counted * page_size, pages * page_size))  # pages past the end SQLite uses
        pages = counted
    free = _freelist(image, page_size, usable, pages, spans)
    if free is None:
        return None
    return page_size, usable, spans, [n for n in range(1, pages + 1) if n not in free]


def _freelist(image: bytes, page_size: int, usable: int, pages: int, spans: list[tuple[int, int]]) -> set[int] | None:
    """The freelist's pages, adding their unused bytes to ``spans``; ``None`` if the chain is malformed."""
    free: set[int] = set()
    trunk = _u32(image, 32)
    while trunk:
        if not 1 < trunk <= pages or trunk in free:
            return None
        base = (trunk - 1) * page_size
        following, count = _u32(image, base), _u32(image, base + 4)
        if count > usable // 4 - 2:
            return None
        free.add(trunk)
        spans.append((base + 8 + 4 * count, base + page_size))
        for at in range(base + 8, base + 8 + 4 * count, 4):
            leaf = _u32(image, at)
            if not 1 < leaf <= pages or leaf in free:
                return None
            free.add(leaf)
            spans.append(((leaf - 1) * page_size, leaf * page_size))
        trunk = following
    return free if len(free) == _u32(image, 36) else None


def _btree_page(image: bytes, number: int, page_size: int, usable: int, spans: list[tuple[int, int]]) -> bool:
    """Add a b-tree page's loose spans; ``False`` if it is not a well-formed b-tree page."""
    base = (number - 1) * page_size
    at = base + (100 if number == 1 else 0)
    kind, block, cells, content = _PAGE_HEADER.unpack_from(image, at)
    header = _HEADER_BYTES.get(kind)
    if header is None:
        return False  # an overflow page, or no page this reader knows
    content = content or 65536
    pointers_end = at + header + 2 * cells - base
    if not pointers_end <= content <= usable:
        return False
    spans.append((base + pointers_end, base + content))
    last = 0
    while block:
        if block <= last or block < content or block + 4 > usable:
            return False  # free blocks are kept in ascending order inside the content area
        following, size = _FREE_BLOCK.unpack_from(image, base + block)
        if size < 4 or block + size > usable:
            return False
        spans.append((base + block + 4, base + block + size))
        last, block = block, following
    if usable < page_size:
        spans.append((base + usable, base + page_size))
    return True


def grams(texts: Iterable[str]) -> frozenset[bytes]:
    """Every :data:`GRAM`-byte run of the texts' UTF-8, as SQLite stores them."""
    return _grams([text.encode("utf-8") for text in texts])


def _grams(stored: Iterable[bytes]) -> frozenset[bytes]:
    return frozenset(data[i : i + GRAM] for data in stored for i in range(len(data) - GRAM + 1))


_ZEROS = bytes(65536)


def _zero(image: bytes, start: int, end: int) -> bool:
    """Whether ``image[start:end]`` is all zero bytes (a compare with zeros is the quick test)."""
    if end - start <= len(_ZEROS):
        return image[start:end] == _ZEROS[: end - start]
    return image.count(0, start, end) == end - start


def _loose_runs(image: bytes, spans: Iterable[tuple[int, int]]) -> list[bytes]:
    """The runs of at least :data:`GRAM` non-zero bytes in the loose spans."""
    return [
        run.group()
        for start, end in spans
        if not _zero(image, start, end)  # most of it is, as secure_delete left it
        for run in _RUNS.finditer(image, start, end)
    ]


def holds_text(image: bytes, spans: Iterable[tuple[int, int]]) -> bool:
    """Whether any loose span holds :data:`GRAM` consecutive bytes that could belong to stored
    text, whatever text: the check when what was removed is not known.

    A record's content is UTF-8 without ASCII control characters other than tab, newline and carriage
    return, and its derived column is JSON of such text, so every run of their bytes is made of
    those three, printable ASCII and bytes of 0x80 and above. What else SQLite leaves in unused
    space, stale cell offsets and free-block headers, is mostly page offsets and sizes, whose high
    byte is below 0x10 on pages up to 4 KiB, so it rarely passes for text.
    """
    return runs_hold_text(_loose_runs(image, spans))


def runs_hold_text(runs: Iterable[bytes]) -> bool:
    """:func:`holds_text` for loose runs already found (:func:`loose_runs`)."""
    return any(_TEXT.search(run) for run in runs)


def holds_any(image: bytes, spans: Iterable[tuple[int, int]], texts: Iterable[str]) -> bool:
    """Whether any loose span holds :data:`GRAM` consecutive bytes of one of the ``texts``."""
    return runs_hold_any(_loose_runs(image, spans), texts)


def runs_hold_any(runs: list[bytes], texts: Iterable[str]) -> bool:
    """:func:`holds_any` for loose runs already found (:func:`loose_runs`).

    When every text is made of the bytes stored text is made of (:data:`_TEXT_BYTE`; what the store
    writes always is), a gram of them can only lie in a run of such bytes, so only those runs are
    searched: the stale cells of small integer rows (telemetry) that a rebuilt page leaves behind
    are mostly other bytes, and no longer cost a lookup per window.
    """
    if not runs:
        return False
    stored = [text.encode("utf-8") for text in texts]
    if all(_ALL_TEXT.fullmatch(data) for data in stored):
        runs = [found.group() for run in runs for found in _TEXT_RUN.finditer(run)]
        if not runs:
            return False
    windows = sum(len(run) - GRAM + 1 for run in runs)
    if windows <= _FEW_WINDOWS:  # a few stale pointers or free-block headers: look each one up
        joined = b"\x00".join(stored)
        return any(run[i : i + GRAM] in joined for run in runs for i in range(len(run) - GRAM + 1))
    wanted = _grams(stored)
    return any(run[i : i + GRAM] in wanted for run in runs for i in range(len(run) - GRAM + 1))
