"""One catalogue type for every game's violation texts: code -> (section, English, German).

Each game keeps its own table of violations (stable codes `<game>.<what>`, the rulebook
section, message templates in both languages) and builds its `Violation`s through one
`ViolationCatalog`, so filling templates, naming the rule and lifting work the same in all
games. `problems()` lists codes without a section or without text in either language (the
game tests assert it is empty).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, MutableMapping
from typing import Any

from companion.engine.api import Said, Violation, counted

Entry = tuple[str, str, str]
"""(rulebook section, English template, German template)"""

Derive = Callable[[MutableMapping[str, Any]], None]
"""Adds values derived from the given ones (a German unit for an English one, ...)."""


class TemplateValues(dict[str, Any]):
    """Template values; a value the case does not have reads "-" instead of failing."""

    def __missing__(self, key: str) -> str:
        return Said("-")


PHASE_NAMES: dict[str, dict[str, tuple[str, str]]] = {}
"""Per game, phase id -> (English, German) name, registered when a game starts (the flow
specs hold the names; `register_phases`)."""

CORE_ACTIONS: dict[str, tuple[str, str]] = {
    "next-phase": ("ending the phase", "Phase beenden"),
    "pass": ("ending the turn", "Zug beenden"),
    "concede": ("conceding", "Aufgeben"),
    "declare": ("declaring an effect", "Effekt ansagen"),
    "misplace": ("laying a card where no move puts it",
                 "eine Karte dorthin legen, wohin kein Zug sie legt"),
    "draw": ("drawing a card", "Karte ziehen"),
    "discard": ("discarding a card", "Karte ablegen"),
    "attack": ("attacking", "Angreifen"),
    "move": ("moving a card", "Karte bewegen"),
    "reveal": ("revealing a card", "Karte aufdecken"),
    "remove": ("taking a card off the table", "Karte vom Tisch nehmen"),
    "flip": ("turning a card over", "Karte umdrehen"),
    "summon": ("summoning a creature", "Wesen beschwören"),
    "deal": ("dealing cards", "Karten austeilen"),
}
"""What a move kind is called in a violation ("{action} is not allowed in this phase"), for
kinds every game has; a game names its own kinds with `ViolationCatalog(actions=...)`."""


def register_phases(game: str, phases: Iterable[tuple[str, str, str]]) -> None:
    """Name the phases of `game` ((id, English, German) each) for violation texts."""
    PHASE_NAMES[game] = {pid: (en, de) for pid, en, de in phases}


def register_flow(game: str, flow: Any) -> None:
    """Name the phases of `game` from its flow spec (a `Flow`), once."""
    spec = getattr(flow, "spec", None)
    if game in PHASE_NAMES or spec is None:
        return
    register_phases(game, ((p.id, p.name.get("en"), p.name.get("de"))
                           for p in (*spec.setup_phases, *spec.turn_phases)))


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
        game: str = "",
        actions: Mapping[str, tuple[str, str]] | None = None,
        sections_en: Mapping[str, str] | None = None,
    ) -> None:
        self.rulebook = rulebook
        self.sections_en = dict(sections_en or {})
        """The rulebook's (German) section names said in English."""
        self.entries = entries
        self.standalone = standalone
        self.derive = derive
        self.game = game
        self.actions = {**CORE_ACTIONS, **(actions or {})}

    def _words(self, fill: MutableMapping[str, Any], lang: str) -> dict[str, Any]:
        """`fill` with a phase id and a move kind said in `lang` ("start" -> "Start phase",
        "summon" -> "summoning a creature"); values given in words stay as they are."""
        out = dict(fill)
        i = 1 if lang == "de" else 0
        phase = fill.get("phase")
        names = PHASE_NAMES.get(self.game, {})
        if isinstance(phase, str) and phase in names:
            out["phase"] = names[phase][i]
        action = fill.get("action")
        if isinstance(action, str) and action in self.actions:
            out["action"] = self.actions[action][i]
        if lang == "de":  # a value given in German too ("symbol_de") says it in German
            for key in [k for k in fill if k.endswith("_de")]:
                out[key[:-3]] = fill[key]
        return out

    def __contains__(self, code: object) -> bool:
        return code in self.entries

    def codes(self) -> list[str]:
        return sorted(self.entries)

    def rule(self, section: str) -> str:
        """The `rule` a violation of `section` names."""
        if self.standalone and section.startswith(self.standalone):
            return section
        return f"{self.rulebook}, {section}"

    def section_words(self, section: str, lang: str) -> str:
        """A rule reference's section in `lang`: as the rulebook names it in German, its
        English name (whole, else part by part: "Spielphasen, Startphase") in English."""
        if lang != "en":
            return section
        if section in self.sections_en:
            return self.sections_en[section]
        head, sep, rest = section.partition(", ")
        if sep:  # a chapter before the section ("Spielphasen, Startphase")
            return f"{self.sections_en.get(head, head)}, {self.section_words(rest, lang)}"
        return section

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
        en_fill = TemplateValues(counted(self._words(fill, "en")))
        de_fill = TemplateValues(counted(self._words(fill, "de")))
        return Violation(
            code=code,
            message_en=_sentence(en, en.format_map(en_fill)),
            message_de=_sentence(de, de.format_map(de_fill)),
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


def _sentence(template: str, text: str) -> str:
    """A message that opens with the move's words starts with a capital letter."""
    opens_with_action = template.startswith(("{action}", "{action_de}"))
    return text[:1].upper() + text[1:] if text and opens_with_action else text
