"""Bounded input: every file, request body and image the companion reads goes through here;
and whole files or none for what it writes into the user's folders.

Why one module: limits (nesting depth, alias expansion, sizes, number ranges, pixel counts)
must be the same everywhere and fail the same way, with one line that names the input and
the limit, never with a traceback, a hang or all the memory of the machine. The YAML limits
surface as `yaml.MarkedYAMLError`, so every loader's existing YAML error message (with its
file and line) reports them too.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from companion.errors import CompanionError

MAX_JSON_DEPTH = 20
MAX_JSON_INT = 2**53
MAX_YAML_DEPTH = 64
MAX_YAML_NODES = 500_000
MAX_YAML_ALIASES = 1_000
MAX_DATA_FILE_BYTES = 8 * 1024 * 1024
MAX_SCRIPT_BYTES = 2 * 1024 * 1024
MAX_IMAGE_PIXELS = 150_000_000

_FastLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class UnsafeInputError(CompanionError):
    """Input beyond a limit or not well formed (one line: what, where, which limit)."""


class YamlLimitError(yaml.MarkedYAMLError):
    """A YAML document beyond the nesting or alias limits (a YAMLError, with its line)."""


# --- text ---------------------------------------------------------------------------------------


def decode_utf8(data: bytes, what: str) -> str:
    """`data` as text; invalid UTF-8 is a one-line error naming the byte and its line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        bad = data[exc.start:exc.start + 1].hex()
        raise UnsafeInputError(
            f"{what}: not UTF-8 text (byte 0x{bad} at line {line}); save it as UTF-8"
        ) from None


def check_text(text: str, what: str) -> str:
    """Text that can be stored and shown: no lone surrogates (JSON may carry "\\ud800")."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise UnsafeInputError(
            f"{what}: contains an invalid character (lone surrogate at {exc.start})"
        ) from None
    return text


def read_text(path: Path, what: str | None = None, max_bytes: int = MAX_DATA_FILE_BYTES) -> str:
    """A text file, refused when larger than `max_bytes` or not UTF-8."""
    shown = what or str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise UnsafeInputError(f"{shown}: cannot read ({exc.strerror or exc})") from None
    if size > max_bytes:
        raise UnsafeInputError(
            f"{shown}: {size:,} bytes is larger than the {max_bytes:,} bytes allowed")
    try:
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise UnsafeInputError(f"{shown}: cannot read ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise UnsafeInputError(f"{shown}: larger than the {max_bytes:,} bytes allowed")
    return decode_utf8(data, shown)


# --- JSON ---------------------------------------------------------------------------------------


def _json_depth(text: str, limit: int) -> None:
    depth = 0
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                raise UnsafeInputError(
                    f"JSON nested deeper than {limit} levels (at character {i})")
        elif ch in "]}":
            depth -= 1


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 16:
        raise UnsafeInputError(f"number {text[:20]}… is out of range (±2^53)")
    value = int(text)
    if abs(value) > MAX_JSON_INT:
        raise UnsafeInputError(f"number {text} is out of range (±2^53)")
    return value


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > MAX_JSON_INT:
        raise UnsafeInputError(f"number {text[:20]} is out of range")
    return value


def _no_constant(name: str) -> Any:
    raise UnsafeInputError(f"{name} is not a number JSON allows")


def _check_strings(value: Any, what: str) -> None:
    if isinstance(value, str):
        check_text(value, what)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(key, what)
            _check_strings(item, what)
    elif isinstance(value, list):
        for item in value:
            _check_strings(item, what)


def parse_json(data: bytes | str, what: str = "request body",
               max_depth: int = MAX_JSON_DEPTH) -> Any:
    """JSON with limits: nesting depth, whole numbers within ±2^53, finite numbers only
    (no NaN, Infinity or 1e400), valid UTF-8 without lone surrogates."""
    text = decode_utf8(data, what) if isinstance(data, bytes) else data
    try:
        _json_depth(text, max_depth)
        value = json.loads(text, parse_int=_bounded_int, parse_float=_finite_float,
                           parse_constant=_no_constant)
    except UnsafeInputError as exc:
        raise UnsafeInputError(f"{what}: {exc}") from None
    except (ValueError, RecursionError) as exc:
        raise UnsafeInputError(f"{what}: not valid JSON ({exc})") from None
    _check_strings(value, what)
    return value


# --- YAML ---------------------------------------------------------------------------------------


def _limit(problem: str, mark: Any) -> YamlLimitError:
    return YamlLimitError(problem=problem, problem_mark=mark)


def check_yaml(text: str, max_depth: int = MAX_YAML_DEPTH, max_nodes: int = MAX_YAML_NODES,
               max_aliases: int = MAX_YAML_ALIASES) -> None:
    """Walk the YAML event stream once and refuse documents nested deeper than `max_depth`,
    with more than `max_aliases` aliases, or that expand to more than `max_nodes` values once
    aliases are followed (a "billion laughs" bomb is a few hundred bytes). Stops at the first
    excess, so a hostile file costs little."""
    sizes: dict[str, int] = {}
    stack: list[list[Any]] = [[None, 0]]  # per open collection: [anchor, expanded size]
    aliases = 0
    for event in _events(text, max_depth):
        if isinstance(event, yaml.CollectionStartEvent):
            if len(stack) > max_depth:
                raise _limit(f"nested deeper than {max_depth} levels", event.start_mark)
            stack.append([event.anchor, 1])
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size = stack.pop()
            if anchor is not None:
                sizes[anchor] = size
            stack[-1][1] += size
        elif isinstance(event, yaml.ScalarEvent):
            if event.anchor is not None:
                sizes[event.anchor] = 1
            stack[-1][1] += 1
        elif isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > max_aliases:
                raise _limit(f"more than {max_aliases} aliases", event.start_mark)
            stack[-1][1] += sizes.get(event.anchor or "", 1)
        else:
            continue
        if stack[-1][1] > max_nodes or sum(frame[1] for frame in stack) > max_nodes:
            raise _limit(f"expands to more than {max_nodes:,} values (aliases followed)",
                         getattr(event, "start_mark", None))


def _events(text: str, max_depth: int = MAX_YAML_DEPTH) -> Iterator[Any]:
    loader = _FastLoader(text)
    try:
        while loader.check_event():
            yield loader.get_event()
    except yaml.MarkedYAMLError as exc:
        # libyaml >= 0.2.5 (PyYAML 6.0.2+ wheels) stops very deep flow collections itself, in
        # its scanner, before our walk reaches them: the same limit, said the same way
        if "nesting depth" in str(exc.problem or ""):
            raise _limit(f"nested deeper than {max_depth} levels", exc.problem_mark) from None
        raise
    finally:
        loader.dispose()


def safe_load(text: str, loader: Any = None) -> Any:
    """`yaml.load` with `check_yaml` first; `loader` defaults to the (C) SafeLoader."""
    check_yaml(text)
    return yaml.load(text, Loader=loader or _FastLoader)


def safe_compose(text: str, loader: Any = None) -> yaml.Node | None:
    """The node tree of one document, with `check_yaml` first."""
    check_yaml(text)
    instance = (loader or yaml.SafeLoader)(text)
    try:
        node: yaml.Node | None = instance.get_single_node()
        return node
    finally:
        instance.dispose()


# --- images -------------------------------------------------------------------------------------


def check_image_file(path: Path, max_pixels: int = MAX_IMAGE_PIXELS) -> None:
    """Refuse an image whose header announces more than `max_pixels` before decoding it."""
    try:
        from PIL import Image
    except ImportError:  # OpenCV's own limit still applies
        return
    previous = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None  # read the size ourselves instead of a warning
    try:
        with Image.open(path) as picture:
            width, height = picture.size
    except (OSError, ValueError, SyntaxError):
        return  # not an image Pillow knows: the reader says what is wrong with it
    finally:
        Image.MAX_IMAGE_PIXELS = previous
    check_pixels(width, height, str(path))


def check_pixels(width: int, height: int, what: str, max_pixels: int = MAX_IMAGE_PIXELS) -> None:
    if width * height > max_pixels:
        raise UnsafeInputError(
            f"{what}: {width} x {height} pixels is more than the {max_pixels:,} allowed;"
            " scale the image down")


# --- writing ------------------------------------------------------------------------------------
# A full disk, a crash or Ctrl-C halfway through a plain write leaves a truncated file in place
# of a good one (a truncated cardset YAML breaks every command of its game). The text goes to a
# hidden temporary file in the same folder, is flushed to the disk, and only then renamed over
# the target: readers see the old file or the new one, never a part.


class FileWriteError(CompanionError):
    """A file could not be written (disk full, no permission, read-only media); the file that
    was there, if any, is unchanged."""


def write_text_atomic(path: Path, text: str) -> None:
    """Replace (or create) `path` with `text` (UTF-8), all or nothing."""
    data = text.encode("utf-8")
    folder = path.parent
    temp = folder / f".{path.name}.{os.getpid()}.tmp"  # hidden, not *.yaml: never read as data
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError):
            was = "the file there before is unchanged" if path.exists() else "nothing was written"
            raise FileWriteError(
                f"{path}: cannot write ({exc.strerror or exc}); {was}") from None
        raise
    _sync_folder(folder)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (best effort: not every system can open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
