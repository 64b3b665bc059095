"""One catalogue type for every game's violation texts: code -> (section, English, German).

Each game keeps its own table of violations (stable codes `<game>.<what>`, the rulebook
section, message templates in both languages) and builds its `Violation`s through one
`ViolationCatalog`, so filling templates, naming the rule and lifting work the same in all
games. `problems()` lists codes without a section or without text in either language (the
game tests assert it is empty).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from typing import Any

from companion.engine.api import Violation

Entry = tuple[str, str, str]
"""(rulebook section, English template, German template)"""

Derive = Callable[[MutableMapping[str, Any]], None]
"""Adds values derived from the given ones (a German unit for an English one, ...)."""


class TemplateValues(dict[str, Any]):
    """Template values; a value the case does not have reads "-" instead of failing."""

    def __missing__(self, key: str) -> str:
        return "-"


class ViolationCatalog:
    """A game's violations: `violation(code, ...)` fills the templates of one entry.

    `standalone` lists section prefixes that name a rule source of their own (for example
    the official rules a rulebook leaves out); such sections are used as the rule without
    the rulebook's name in front.
    """

    def __init__(
        self,
        rulebook: str,
        entries: Mapping[str, Entry],
        standalone: tuple[str, ...] = (),
        derive: Derive | None = None,
    ) -> None:
        self.rulebook = rulebook
        self.entries = entries
        self.standalone = standalone
        self.derive = derive

    def __contains__(self, code: object) -> bool:
        return code in self.entries

    def codes(self) -> list[str]:
        return sorted(self.entries)

    def rule(self, section: str) -> str:
        """The `rule` a violation of `section` names."""
        if self.standalone and section.startswith(self.standalone):
            return section
        return f"{self.rulebook}, {section}"

    def violation(
        self,
        code: str,
        cards: tuple[str, ...] = (),
        zones: tuple[str, ...] = (),
        lifted_by: str | None = None,
        **values: Any,
    ) -> Violation:
        """The violation `code` with the case's cards, zones and template values."""
        section, en, de = self.entries[code]
        fill = TemplateValues(
            {"card": ", ".join(cards) or "-", "zone": zones[0] if zones else "-", **values}
        )
        if self.derive is not None:
            self.derive(fill)
        return Violation(
            code=code,
            message_en=en.format_map(fill),
            message_de=de.format_map(fill),
            rule=self.rule(section),
            cards=cards,
            zones=zones,
            lifted_by=lifted_by,
        )

    def problems(self, prefix: str = "") -> list[str]:
        """Entries that cannot explain themselves: no section, an empty text, a code
        outside the game's `prefix`."""
        found: list[str] = []
        for code, entry in sorted(self.entries.items()):
            if len(entry) != 3:
                found.append(f"{code}: needs (section, English, German)")
                continue
            section, en, de = entry
            if prefix and not code.startswith(prefix):
                found.append(f"{code}: code does not start with {prefix!r}")
            for name, text in (("section", section), ("English text", en),
                               ("German text", de)):
                if not str(text).strip():
                    found.append(f"{code}: no {name}")
        return found
