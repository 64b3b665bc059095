"""YAML loading that remembers line numbers, so a broken card is reported at its line.

PyYAML forgets where a value came from once it is constructed. Here every mapping is built as a
`LineMap`, a dict that also knows its own line and the line of each key. Duplicate keys, which
PyYAML would silently collapse, are reported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from companion import safeio
from companion.errors import DataFileError


class LineMap(dict[str, Any]):
    """A dict from YAML with the 1-based line of the mapping and of each of its keys."""

    line: int | None = None
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int | None:
        return getattr(self, "key_lines", {}).get(key, self.line)


class YamlSyntaxError(DataFileError):
    """The file is not valid YAML (or repeats a key)."""


class _LineLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """SafeLoader that builds LineMaps."""


def _construct_line_map(loader: _LineLoader, node: yaml.MappingNode) -> LineMap:
    loader.flatten_mapping(node)
    result = LineMap()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if not isinstance(key, str | int | float | bool) and key is not None:
            raise yaml.constructor.ConstructorError(
                None, None, f"unhashable key {key!r}", key_node.start_mark
            )
        key_text = str(key)
        if key_text in result:
            raise yaml.constructor.ConstructorError(
                None, None, f"key {key_text!r} appears twice", key_node.start_mark
            )
        result[key_text] = loader.construct_object(value_node, deep=True)
        result.key_lines[key_text] = line
    return result


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_line_map)


def load_yaml_text(text: str, path: object) -> Any:
    """Parse `text` (read from `path`); a syntax error names file and line, never a traceback."""
    try:
        return safeio.safe_load(text, _LineLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise YamlSyntaxError(path, f"YAML syntax error: {problem}", line) from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(path, f"YAML syntax error: {exc}") from None


def load_yaml_file(path: Path, shown_as: str | None = None) -> Any:
    """Read and parse one YAML file; `shown_as` is the path used in messages."""
    where = shown_as or str(path)
    try:
        text = safeio.read_text(path, where)
    except safeio.UnsafeInputError as exc:
        raise DataFileError(where, str(exc).removeprefix(f"{where}: ")) from None
    return load_yaml_text(text, where)


def plain(value: Any) -> Any:
    """`value` with every LineMap turned back into a plain dict (for dumping and for Card)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
