"""Trick or Beat: the card schema (types, fields, value kinds, keywords; DESIGN.md "Card fields").

Named by the game's spec; `companion.cardsets` checks every card file of the game with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.cardsets.kinds import FieldValueError, IntKind, StrKind, canonical, check_keys, shown
from companion.cardsets.schema import FieldProblem, GameSchema, TypeSpec, check_effects

TOB_FACTIONS = ("Gehirn", "Herocorps")
TOB_CATEGORIES = ("supply", "equipment", "other")
TOB_ABILITY_KINDS = ("permanent", "activatable", "combat")
TOB_TACTIC_KINDS = ("play", "permanent")
TOB_LANES = ("active", "passive")
TOB_ACTIONS = {
    # do: (needs amount, needs target)
    "modify_attack": (True, True),
    "modify_survival": (True, True),
    "draw": (True, False),
    "add_to_trick": (True, False),
    "destroy": (False, True),
    "return_to_hand": (False, True),
    "move": (False, True),
}
TOB_TARGETS = (
    "self",
    "own_lane",
    "own_creatures",
    "equipped",
    "attackers",
    "defender",
    "opponent_creature",
    "opponent_active",
    "all_creatures",
)
TOB_KEYWORDS = ("Permanent", "Aktivierbar", "Kämpferisch", "Nachschub", "Ausrüstung")


def _tob_effect_checker(creature: bool) -> Callable[[Any], list[dict[str, Any]]]:
    kinds = TOB_ABILITY_KINDS if creature else TOB_TACTIC_KINDS

    def check(value: Any) -> list[dict[str, Any]]:
        effects = check_effects(value)
        for i, effect in enumerate(effects, 1):
            what = f"effect {i}"
            required = ["kind", "do"] + (["lane"] if creature else [])
            check_keys(effect, required, ["amount", "target", "faction"], what)
            for key, words in (("kind", kinds), ("lane", TOB_LANES), ("do", tuple(TOB_ACTIONS)),
                               ("target", TOB_TARGETS), ("faction", TOB_FACTIONS)):
                if key in effect:
                    effect[key] = canonical(effect[key], words)
            if effect["kind"] not in kinds:
                raise FieldValueError(
                    f"{what}: kind must be one of {', '.join(kinds)}, got {shown(effect['kind'])}"
                )
            if creature and effect["lane"] not in TOB_LANES:
                raise FieldValueError(
                    f"{what}: lane must be active or passive, got {shown(effect['lane'])}"
                )
            action = effect["do"]
            if action not in TOB_ACTIONS:
                raise FieldValueError(
                    f"{what}: unknown action {shown(action)} (known: {', '.join(TOB_ACTIONS)}; "
                    "see companion/cardsets/effects_vocabulary.md)"
                )
            needs_amount, needs_target = TOB_ACTIONS[action]
            if needs_amount:
                amount = effect.get("amount")
                if isinstance(amount, bool) or not isinstance(amount, int):
                    raise FieldValueError(f"{what}: {action} needs an integer amount")
            if needs_target and effect.get("target") not in TOB_TARGETS:
                raise FieldValueError(
                    f"{what}: {action} needs a target, one of {', '.join(TOB_TARGETS)}, "
                    f"got {shown(effect.get('target'))}"
                )
            if "faction" in effect and effect["faction"] not in TOB_FACTIONS:
                raise FieldValueError(
                    f"{what}: faction must be Gehirn or Herocorps, got {shown(effect['faction'])}"
                )
        return effects

    return check


def _tob_cross_check(card_type: str, fields: dict[str, Any]) -> None:
    creature = card_type == "creature"
    if "effects" in fields:
        try:
            fields["effects"] = _tob_effect_checker(creature)(fields["effects"])
        except FieldValueError as exc:
            raise FieldProblem("effects", f"field 'effects' {exc}") from None


TRICK_OR_BEAT = GameSchema(
    game="trick-or-beat",
    types={
        "creature": TypeSpec(("name", "attack", "survival", "faction")),
        "tactic": TypeSpec(("name", "category")),
    },
    kinds={
        "attack": IntKind(0, 99),
        "survival": IntKind(0, 99),
        "faction": StrKind(TOB_FACTIONS),
        "category": StrKind(TOB_CATEGORIES),
    },
    keywords=TOB_KEYWORDS,
    cross_check=_tob_cross_check,
)
