"""Public types of the rules engine: moves, violations, prompts, scores, outcomes, log entries.

Every game plugs into the engine through `Ruleset` (see `companion.engine.ruleset`) and is driven
through the `Game` facade (`companion.engine.game`). This module holds only plain, JSON-friendly
value types so that the web page, the recorder and the interpreter can share them without
importing any game.

Players are always "p1" and "p2"; observers are "table", "p1", "p2" and "referee".
A move is never refused: `Game.push` records an illegal move with its violations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.errors import CompanionError

PLAYERS: tuple[str, str] = ("p1", "p2")
OBSERVERS: tuple[str, ...] = ("table", "p1", "p2", "referee")
SOURCES: tuple[str, ...] = ("camera", "person", "automatic", "script", "assumed")

Source = Literal["camera", "person", "automatic", "script", "assumed"]
Lang = Literal["en", "de"]


def other(player: str) -> str:
    """The opponent of `player` in a two-player game."""
    return "p2" if player == "p1" else "p1"


# ----------------------------------------------------------------------------- errors


class EngineError(CompanionError):
    """Base of the engine's user-facing errors."""


class UnknownRulesetError(EngineError):
    """No ruleset is registered for this game id."""


class SetupError(EngineError):
    """A game cannot be set up as asked (bad decks, bad `setup`, unknown cards)."""


class MoveFormatError(EngineError):
    """A move (or its JSON) is malformed: unknown kind, missing player, wrong field types."""


class MoveFieldError(MoveFormatError):
    """One field of a move's JSON has the wrong type; `field` names it (kind, player, cards,
    to, target, value, options, or "move" when the whole is not an object)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class NothingToUndoError(EngineError):
    """`Game.undo()` with an empty log."""


class GameOverError(EngineError):
    """A person's press or move after the outcome is known: refused, not recorded."""


class ObserverError(EngineError):
    """A view was asked for an observer other than table, p1, p2, referee."""


# ----------------------------------------------------------------------------- violations


@dataclass(frozen=True)
class Violation:
    """One broken rule, explained: stable code, both languages, the rule, cards and zones.

    `lifted_by` names a card whose text lifts this rule (card text beats the rules); such a
    violation is kept in the record for transparency but does not make the move illegal.
    """

    code: str
    message_en: str
    message_de: str
    rule: str
    cards: tuple[str, ...] = ()
    zones: tuple[str, ...] = ()
    lifted_by: str | None = None

    @property
    def blocking(self) -> bool:
        return self.lifted_by is None

    def message(self, lang: str = "en") -> str:
        return self.message_de if lang == "de" else self.message_en

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message_en": self.message_en,
            "message_de": self.message_de,
            "rule": self.rule,
            "cards": list(self.cards),
            "zones": list(self.zones),
            "lifted_by": self.lifted_by,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Violation:
        return cls(
            code=str(data["code"]),
            message_en=str(data["message_en"]),
            message_de=str(data["message_de"]),
            rule=str(data["rule"]),
            cards=tuple(data.get("cards", ())),
            zones=tuple(data.get("zones", ())),
            lifted_by=data.get("lifted_by"),
        )


def _shown(value: Any, limit: int = 60) -> str:
    """A value in an error message, cut short (a hostile move may be large)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def blocking(violations: list[Violation]) -> list[Violation]:
    """The violations that make a move illegal (those not lifted by a card)."""
    return [v for v in violations if v.blocking]


# ----------------------------------------------------------------------------- moves

class Count(int):
    """A number that says its noun in the right form: "{count:card|cards}" reads "1 card" or
    "2 cards" ("{count:Karte|Karten}" likewise); a plain "{count}" is the number."""

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            one, many = spec.split("|", 1)
            return f"{int(self)} {one if int(self) == 1 else many}"
        return format(int(self), spec)


class Said(str):
    """A text value that ignores a plural spec (a "-" where a count is missing)."""

    def __format__(self, spec: str) -> str:
        return str(self) if "|" in spec else format(str(self), spec)


def counted(values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` with numbers as `Count` and texts as `Said`, for templates with plurals."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, int) and not isinstance(value, bool):
            out[key] = Count(value)
        elif isinstance(value, str) and value.isdigit():
            out[key] = Count(int(value))
        elif isinstance(value, str):
            out[key] = Said(value)
        else:
            out[key] = value
    return out


# kind -> (English template, German template) of the kinds every game has; templates use
# {player}, {cards}, {to}, {target}, {value} and any option key. A game's own kinds have
# their texts in its ruleset (`Ruleset.move_texts`, `Ruleset.describe`): several games share
# kind names ("summon", "draw") with different texts, so there is no global registry.
MOVE_TEXTS: dict[str, tuple[str, str]] = {
    "next-phase": ("{player} ends the phase", "{player} beendet die Phase"),
    "pass": ("{player} ends the turn", "{player} beendet den Zug"),
    "declare": ("{player} declares {value}", "{player} erklärt {value}"),
    "concede": ("{player} concedes", "{player} gibt auf"),
    "misplace": ("{cards} lies in {zone}, where no move puts it",
                 "{cards} liegt in {zone}, wohin kein Zug sie legt"),
}


@dataclass(frozen=True)
class Move:
    """One thing a player (or the game itself) does; typed by `kind`, JSON-serialisable.

    Fields, used as the kind needs them:
    - `cards`: the card uids acting or being played (attackers, the card summoned, ...),
      "?" for a card whose identity nobody has seen (a face-down card from a hand),
    - `to`: the destination zone id, `target`: the targeted card uid,
    - `value`: a number or word (a die value, a chosen option),
    - `options`: further key/value pairs, sorted, for game-specific detail.
    """

    kind: str
    player: str
    cards: tuple[str, ...] = ()
    to: str | None = None
    target: str | None = None
    value: int | str | None = None
    options: tuple[tuple[str, str], ...] = ()

    def option(self, key: str, default: str | None = None) -> str | None:
        return dict(self.options).get(key, default)

    @property
    def card(self) -> str:
        """The move's first card; "?" (unseen) when it names none. Most kinds act on one."""
        return self.cards[0] if self.cards else "?"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "player": self.player}
        if self.cards:
            d["cards"] = list(self.cards)
        if self.to is not None:
            d["to"] = self.to
        if self.target is not None:
            d["target"] = self.target
        if self.value is not None:
            d["value"] = self.value
        if self.options:
            d["options"] = dict(self.options)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Move:
        """A move from its JSON, each field checked: a move from a saved game or a post is
        refused here, naming the field, not halfway through the rules."""
        if not isinstance(data, Mapping):
            raise MoveFieldError("move", f"a move must be a JSON object, not {_shown(data)}")
        if "kind" not in data or "player" not in data:
            raise MoveFieldError("kind" if "kind" not in data else "player",
                                 f"a move needs 'kind' and 'player': {_shown(data)}")
        kind, player = data["kind"], data["player"]
        for name, text in (("kind", kind), ("player", player)):
            if not isinstance(text, str):
                raise MoveFieldError(name, f"move '{name}' must be text, not {_shown(text)}")
        cards = data.get("cards", ())
        if not isinstance(cards, list | tuple) or not all(isinstance(c, str) for c in cards):
            raise MoveFieldError("cards", f"move 'cards' must be a list of card uids, not"
                                          f" {_shown(cards)}")
        for name in ("to", "target"):
            if data.get(name) is not None and not isinstance(data[name], str):
                raise MoveFieldError(name, f"move '{name}' must be text (a zone id or a card"
                                           f" uid) or absent, not {_shown(data[name])}")
        value = data.get("value")
        if value is not None and (not isinstance(value, int | str) or isinstance(value, bool)):
            raise MoveFieldError("value", f"move 'value' must be a number or text, not"
                                          f" {_shown(value)}")
        opts = data.get("options")
        opts = {} if opts is None else opts
        if not isinstance(opts, Mapping) or not all(
                isinstance(v, str | int) and not isinstance(v, bool) for v in opts.values()):
            raise MoveFieldError("options", f"move 'options' must map names to text, not"
                                            f" {_shown(opts)}")
        return cls(
            kind=kind,
            player=player,
            cards=tuple(cards),
            to=data.get("to"),
            target=data.get("target"),
            value=value,
            options=tuple(sorted((str(k), str(v)) for k, v in opts.items())),
        )

    def describe(
        self, lang: str = "en", texts: Mapping[str, tuple[str, str]] | None = None
    ) -> str:
        """The move in words: `texts` (a game's own templates, see `Ruleset.describe`), else
        the core kinds' texts, else kind and fields as they are."""
        plain = " ".join([self.kind, *self.cards, *([f"-> {self.to}"] if self.to else [])])
        found = (texts or {}).get(self.kind) or MOVE_TEXTS.get(self.kind)
        if found is None:
            return f"{self.player}: {plain}"
        en, de = found
        template = de if lang == "de" else en
        values: dict[str, Any] = {
            "player": self.player,
            "cards": ", ".join(self.cards) if self.cards else "-",
            "to": self.to or "-",
            "target": self.target or "-",
            "value": "-" if self.value is None else self.value,
        }
        values.update(dict(self.options))
        try:
            return template.format(**counted(values))  # "{value:card|cards}" says the plural
        except (KeyError, IndexError, ValueError):
            return f"{self.player}: {plain}"


# ----------------------------------------------------------------------------- prompts etc.


@dataclass(frozen=True)
class Prompt:
    """What the page shows: whose turn, which phase, what the player may and must do now."""

    lang: str
    turn: int
    active: str
    phase: str
    phase_name: str
    may: tuple[str, ...]
    must: tuple[str, ...]
    ends: str
    automatic: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "lang": self.lang,
            "turn": self.turn,
            "active": self.active,
            "phase": self.phase,
            "phase_name": self.phase_name,
            "may": list(self.may),
            "must": list(self.must),
            "ends": self.ends,
            "automatic": list(self.automatic),
        }


@dataclass(frozen=True)
class Score:
    """A player's standing in the game's own terms (trick pile cards, fans, orbs, ...)."""

    player: str
    value: int
    label_en: str
    label_de: str
    details: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "value": self.value,
            "label_en": self.label_en,
            "label_de": self.label_de,
            "details": dict(self.details),
        }


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winner (None for a draw) and why."""

    winner: str | None
    reason: str
    reason_en: str
    reason_de: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "reason_en": self.reason_en,
            "reason_de": self.reason_de,
        }


@dataclass(frozen=True)
class ChanceEvent:
    """A random or hidden event the engine resolved: a shuffle, a die roll, a hidden draw."""

    kind: str
    detail: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **dict(self.detail)}


@dataclass(frozen=True)
class LogEntry:
    """One recorded move: what it was, who saw it, the rules it broke, decisions taken.

    `reason_en` / `reason_de` say why the engine took a step itself (source "automatic": an
    end of phase or turn inferred from what the camera saw). `same_step` marks a move seen in
    the same table change as the move that ended the game: part of the winning step, not a
    move after the end.
    """

    seq: int
    move: Move
    source: str
    violations: tuple[Violation, ...] = ()
    decisions: tuple[str, ...] = ()
    chance: tuple[ChanceEvent, ...] = ()
    reason_en: str = ""
    reason_de: str = ""
    same_step: bool = False

    @property
    def legal(self) -> bool:
        return not blocking(list(self.violations))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seq": self.seq,
            "move": self.move.to_dict(),
            "source": self.source,
            "legal": self.legal,
            "violations": [v.to_dict() for v in self.violations],
            "decisions": list(self.decisions),
            "chance": [c.to_dict() for c in self.chance],
        }
        if self.reason_en or self.reason_de:
            data["reason_en"], data["reason_de"] = self.reason_en, self.reason_de
        if self.same_step:
            data["same_step"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LogEntry:
        return cls(
            seq=int(data["seq"]),
            move=Move.from_dict(data["move"]),
            source=str(data.get("source", "person")),
            violations=tuple(Violation.from_dict(v) for v in data.get("violations", ())),
            decisions=tuple(data.get("decisions", ())),
            reason_en=str(data.get("reason_en", "")),
            reason_de=str(data.get("reason_de", "")),
            same_step=bool(data.get("same_step", False)),
        )


@dataclass(frozen=True)
class GameConfig:
    """Everything needed to start (and so to replay) a game.

    `decks` maps an owner ("p1", "p2" or "shared") to card uids ("<id>#<copy>"); `cards` adds
    inline card definitions (same schema as the cardsets) to the game's cardset; `setup`
    starts mid-game as described in DESIGN.md (turn, active, phase, table, hands, dice, ...);
    `owners` maps card uids to "p1"/"p2"/"shared" where a table script says whose a card is
    (a card first seen on the table belongs to nobody's deck list).
    """

    game: str
    players: tuple[str, str] = ("Player 1", "Player 2")
    decks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    first: str = "p1"
    seed: int = 0
    setup: Mapping[str, Any] | None = None
    cards: tuple[Mapping[str, Any], ...] = ()
    owners: Mapping[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        extra = {"owners": dict(self.owners)} if self.owners else {}
        return {
            "game": self.game,
            "players": list(self.players),
            "decks": {k: list(v) for k, v in self.decks.items()},
            "first": self.first,
            "seed": self.seed,
            "setup": dict(self.setup) if self.setup is not None else None,
            "cards": [dict(c) for c in self.cards],
            **extra,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameConfig:
        players = tuple(data.get("players", ("Player 1", "Player 2")))
        if len(players) != 2:
            raise SetupError(f"a game needs exactly two players, got {list(players)}")
        return cls(
            game=str(data["game"]),
            players=(str(players[0]), str(players[1])),
            decks={str(k): tuple(v) for k, v in dict(data.get("decks") or {}).items()},
            first=str(data.get("first", "p1")),
            seed=int(data.get("seed", 0)),
            setup=data.get("setup"),
            cards=tuple(data.get("cards") or ()),
            owners={str(k): str(v) for k, v in dict(data.get("owners") or {}).items()},
        )


@dataclass(frozen=True)
class Choice:
    """One answer to a `Question`: the moves it stands for."""

    label_en: str
    label_de: str
    moves: tuple[Move, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "label_en": self.label_en,
            "label_de": self.label_de,
            "moves": [m.to_dict() for m in self.moves],
        }


@dataclass(frozen=True)
class Question:
    """Several explanations of one table change: a person picks one.

    `default` is the choice taken as "assumed, unanswered" when play goes on before anybody
    answers: the most likely legal reading, never one that breaks a rule where a legal one
    exists (a referee who is not watching must not have an illegal move put on the record).
    """

    text_en: str
    text_de: str
    choices: tuple[Choice, ...]
    default: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "text_en": self.text_en,
            "text_de": self.text_de,
            "choices": [c.to_dict() for c in self.choices],
            "default": self.default,
        }
