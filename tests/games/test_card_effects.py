"""Card effects compiled at load: real cards of the bundled cardsets against typed effects
written out by hand from their German text (the oracle is the sentence, read by a person), every
bundled card compiling, and exact counts of what is typed and what stays prompted."""

from __future__ import annotations

import pytest

from companion.engine.cards import CardFacts, Catalog
from companion.engine.effects import (
    Ability,
    Damage,
    Destroy,
    Draw,
    Gain,
    Heal,
    Modify,
    Move,
    Permit,
    Prevent,
    Prompt,
    Return,
    Selector,
    compile_card,
    compiler_for,
)
from companion.games.effect_report import effect_report

CATALOGS: dict[str, Catalog] = {}


def card(game: str, card_id: str) -> CardFacts:
    if game not in CATALOGS:
        CATALOGS[game] = Catalog.for_game(game)
    return CATALOGS[game].card(card_id)


# (game, card id, the card's text as printed in the cardset, its abilities written by hand)
ORACLE: list[tuple[str, str, str, tuple[Ability, ...]]] = [
    ("creature-crush", "CC-010", "Hölle: verursache 2 Schaden an einem Feind.",
     (Ability("destroyed", Damage(2, Selector(side="enemy", count=1))),)),
    ("creature-crush", "CC-017", "Aktion: ziehe 1 Karte.",
     (Ability("summoned", Draw(1, source="deck")),)),
    ("creature-crush", "CC-018", "Falle: beschwöre diese Creature aus deiner Hölle.",
     (Ability("trap", Return(Selector(side="self", zone="hell"), to="field")),)),
    ("creature-crush", "CC-030", "Aktion: heile 2 Schaden an einem Verbündeten.",
     (Ability("summoned", Heal(2, Selector(side="ally"))),)),
    ("creature-crush", "CC-081", "Erhalte Startwürfel +1 für deinen nächsten Zug.",
     (Ability("play", Gain("start-dice", 1)),)),
    ("creature-crush", "CC-083", "Der Angriff verursacht keinen Schaden.",
     (Ability("play", Prevent("damage", Selector(side="enemy", role="attacker"))),)),
    ("creature-crush", "CC-084", "Der Angreifer erleidet 3 Schaden.",
     (Ability("play", Damage(3, Selector(side="enemy", role="attacker"))),)),
    ("creature-crush", "CC-085", "Beleben: beschwöre eine Creature aus deiner Hölle.",
     (Ability("play", Return(Selector(side="ally", zone="hell", card_type="creature"),
                             to="field")),)),
    ("creature-crush", "CC-086", "Verschiebe einen Verbündeten, ohne einen Würfel zu verbrennen.",
     (Ability("play", Permit("move", Selector(side="ally"))),)),
    ("creature-crush", "CC-087", "Zerstöre diesen Feind mit 1 Würfel.",
     (Ability("play", Destroy(Selector(side="enemy", role="summoned"), dice=1)),)),
    ("creature-crush", "CC-088", "Verursache 1 Schaden an jedem Feind.",
     (Ability("play", Damage(1, Selector(side="enemy", count="each"))),)),
    ("creature-crush", "CC-089", "Ein Feind kann in seinem nächsten Zug nicht angreifen.",
     (Ability("play", Prevent("attack", Selector(side="enemy"), until="next-turn")),)),
    ("creature-crush", "CC-090", "Ziehe 2 Karten aus deiner Hölle.",
     (Ability("play", Draw(2, source="hell")),)),
    ("creature-crush", "CC-091", "Zerstöre einen Feind mit 2 Würfeln.",
     (Ability("play", Destroy(Selector(side="enemy"), dice=2)),)),
    ("creature-crush", "CC-093",
     "Übernimm die Kontrolle über einen Feind mit Kosten 5 oder weniger.",
     (Ability("play", Permit("control", Selector(side="enemy", max_cost=5))),)),
    ("creature-crush", "CC-095", "Verhindere diesen Schaden.",
     (Ability("play", Prevent("damage", Selector(side="ally", role="damaged"))),)),
    ("creature-crush", "CC-096",
     "Durchsuche dein Lager nach einer Creature mit Kosten 3 oder weniger.",
     (Ability("play", Permit("search", Selector(side="ally", zone="camp", max_cost=3,
                                               card_type="creature"))),)),
    ("creature-crush", "CC-097", "Dieser Feind erleidet 2 Schaden.",
     (Ability("play", Damage(2, Selector(side="enemy", role="moved"))),)),
    ("creature-crush", "CC-098", "Tausche die Plätze zweier Verbündeter.",
     (Ability("play", Permit("swap", Selector(side="ally", count=2))),)),
    ("creature-crush", "CC-099", "Jeder Feind in der A-Zone erleidet 1 Schaden.",
     (Ability("play", Damage(1, Selector(side="enemy", count="each", zone="A"))),)),
    ("creature-crush", "CC-100", "Verursache 3 Schaden an einem beliebigen Ziel.",
     (Ability("play", Damage(3, Selector(side="any"))),)),
    ("challengers", "CH-301", "Im Angriff: +1 Stärke für jede weitere aufgedeckte Karte.",
     (Ability("attack", Modify("strength", 1, Selector(side="self"), per="other-revealed")),)),
    ("challengers", "CH-305", "Erhalte 1 Fan.", (Ability("play", Gain("fans", 1)),)),
    ("challengers", "CH-308", "Von der Bank: deine Karten mit gleichem Namen +1 Stärke.",
     (Ability("bench", Modify("strength", 1,
                              Selector(side="ally", count="each", same_name=True))),)),
    ("challengers", "CH-310", "Lege die oberste Karte deiner Bank auf den Ruhestapel.",
     (Ability("play", Move(Selector(side="ally", zone="bench", top=True), to="rest")),)),
    ("challengers", "CH-602", "Fahnenverlust: lege eine Karte von deiner Bank auf den Ruhestapel.",
     (Ability("flag-loss", Move(Selector(side="ally", count=1, zone="bench"), to="rest")),)),
    ("challengers", "CH-401", "Im Fahnenbesitz: +2 Stärke.",
     (Ability("flag", Modify("strength", 2, Selector(side="self"))),)),
    ("challengers", "CH-003", "Von der Bank: +1 Stärke für deine aufgedeckte Karte.",
     (Ability("bench", Modify("strength", 1, Selector(side="ally", role="revealed"))),)),
    ("challengers", "CH-202", "Ausgewählt: entferne eine Karte aus deinem Deck.",
     (Ability("chosen", Move(Selector(side="ally", count=1, zone="deck"), to="box")),)),
    ("trick-or-beat", "TOB-001",
     "Aktiv, einmal pro Zug: ein aktives gegnerisches Wesen geht auf die Hand seines Besitzers.",
     (Ability("activated", Return(Selector(side="enemy", zone="active"), to="hand"),
              lane="active"),)),
    ("trick-or-beat", "TOB-002", "Passiv, im Angriff: das angegriffene Wesen +1 Überleben.",
     (Ability("combat", Modify("survival", 1, Selector(side="ally", role="defender")),
              lane="passive"),)),
    ("trick-or-beat", "TOB-004", "Aktiv, im Angriff: die Angreifer +2 Angriff.",
     (Ability("combat", Modify("attack", 2,
                               Selector(side="ally", count="each", role="attackers")),
              lane="active"),)),
    ("trick-or-beat", "TOB-005",
     "Aktiv, einmal pro Zug: verschiebe ein gegnerisches Wesen auf seine andere Lane.",
     (Ability("activated", Move(Selector(side="enemy"), to="other-lane"), lane="active"),)),
    ("trick-or-beat", "TOB-006", "Aktiv, einmal pro Zug: ziehe 1 Karte.",
     (Ability("activated", Draw(1), lane="active"),)),
    ("trick-or-beat", "TOB-007", "Passiv, permanent: deine Herocorps-Wesen +1 Angriff.",
     (Ability("permanent", Modify("attack", 1, Selector(side="ally", count="each",
                                                         faction="Herocorps")),
              lane="passive"),)),
    ("trick-or-beat", "TOB-015", "Aktiv, permanent: dieses Wesen +2 Überleben.",
     (Ability("permanent", Modify("survival", 2, Selector(side="self")), lane="active"),)),
    ("trick-or-beat", "TOB-064", "Passiv, permanent: deine Wesen auf dieser Lane +1 Angriff.",
     (Ability("permanent", Modify("attack", 1, Selector(side="ally", count="each",
                                                         zone="same-lane")),
              lane="passive"),)),
    ("trick-or-beat", "TOB-091", "Nachschub: ziehe 2 Karten offen.",
     (Ability("play", Draw(2)),)),
    ("trick-or-beat", "TOB-111", "Ausrüstung: das Wesen +1 Angriff und +1 Überleben.",
     (Ability("permanent", Modify("attack", 1, Selector(side="ally", role="equipped"))),
      Ability("permanent", Modify("survival", 1, Selector(side="ally", role="equipped"))))),
    ("trick-or-beat", "TOB-131", "Lege ein gegnerisches Wesen auf den Ablagestapel.",
     (Ability("play", Destroy(Selector(side="enemy"))),)),
    ("trick-or-beat", "TOB-134",
     "Lege die oberste Karte des Nachziehstapels auf deinen Trickstapel.",
     (Ability("play", Move(Selector(side="any", count=1, zone="deck", top=True), to="trick")),)),
]


def _without_text(abilities: tuple[Ability, ...]) -> tuple[Ability, ...]:
    return tuple(Ability(a.when, a.effect, a.lane) for a in abilities)


@pytest.mark.parametrize(("game", "card_id", "text", "expected"), ORACLE,
                         ids=[f"{c}" for _, c, _, _ in ORACLE])
def test_real_card_compiles_to_the_effect_its_text_says(
        game: str, card_id: str, text: str, expected: tuple[Ability, ...]) -> None:
    facts = card(game, card_id)
    assert facts.get("text") == text  # the sentence the oracle was written from
    assert _without_text(facts.abilities) == expected


def test_compiled_sentences_keep_their_text_for_the_players() -> None:
    (ability,) = card("creature-crush", "CC-010").abilities
    assert ability.text == "Hölle: verursache 2 Schaden an einem Feind."


@pytest.mark.parametrize(("game", "text"), [
    ("creature-crush", "Tanze einen Walzer."),
    ("creature-crush", "Aktion: ziehe 1 Karte und lache."),  # a known start, an unknown end
    ("creature-crush", "Verursache 2 Schaden an einem Feind, dann ziehe 1 Karte."),
    ("challengers", "Tausche die Fahne mit dem Mond."),
    ("challengers", "Erhalte 1 Fan, wenn du willst."),
])
def test_unknown_sentences_stay_prompted_never_guessed(game: str, text: str) -> None:
    kind = "creature" if game == "creature-crush" else "recruit"
    facts = CardFacts.from_mapping({"id": "X-1", "name": "X", "type": kind, "text": text})
    (ability,) = compile_card(facts, compiler_for(game)).abilities
    assert isinstance(ability.effect, Prompt) and not ability.modelled
    assert ability.text == text


# exact figures of the bundled cardsets: (cards, cards with an effect, typed abilities,
# prompted abilities). Counted from the files (`grep -c "do:" cardsets/trick-or-beat/pile.yaml`
# is 140): Creature Crush 19 creatures with text + 20 crush cards; Challengers! 57 cards with
# text; Trick or Beat 130 cards with `effects`, 10 of them equipment with two entries (the
# Klingen and Rüstungen that add attack and survival), so 140 entries.
COUNTS = {
    "creature-crush": (100, 39, 39, 0),
    "challengers": (115, 57, 57, 0),
    "trick-or-beat": (150, 130, 140, 0),
    "my-little-pony-ccg": (119, 0, 0, 0),
    "fire-emblem-cipher": (110, 0, 0, 0),
}


def test_every_game_names_its_compiler() -> None:
    from companion.games import game_ids, game_spec

    assert sorted(COUNTS) == sorted(game_ids())
    assert all(game_spec(g).effect_compiler is compiler_for(g) is not None for g in COUNTS)


@pytest.mark.parametrize("game", list(COUNTS))
def test_every_bundled_card_compiles_and_the_counts_are_exact(game: str) -> None:
    report = effect_report(game)
    assert (report.cards, report.with_effects, report.typed, report.prompted) == COUNTS[game]
    assert report.prompted_cards == ()


# ----------------------------------------------------------------------------- rules use them


def _flip_inline_crush(text: str) -> list[dict[str, object]]:
    """Play an inline crush card with `text` (cost 1) face down, flip it, return the permits."""
    from companion.engine.api import Move
    from companion.engine.game import Game
    from companion.engine.state import hand_zone
    from companion.games.creature_crush import effects as cc

    crush = {"id": "XK", "name": "Probe", "type": "crush", "cost": 1, "text": text}
    camp = ["CC-001", "CC-002", "CC-003", "CC-004", "CC-005", "CC-006", "XK"]
    setup = {"turn": 3, "active": "p1", "phase": "start", "table": {"p2.B1": ["CC-028"]},
             "hands": {"p1": 2, "p2": 2}}
    g = Game.new("creature-crush", ("Ada", "Bo"), {"p1": camp, "p2": list(camp[:6])}, "p1", 1,
                 setup, cards=[crush])
    assert g.push(Move("draw", "p1", value=1)) == []
    g.push(Move("roll", "p1", options=(("dice", "p1.w1=4,p1.w2=2,p1.w3=6"),)))
    g.push(Move("next-phase", "p1"))
    assert g.state.resolve("XK#1", hand_zone("p1"))
    g.push(Move("burn", "p1", options=(("dice", "p1.w1=4"),)))
    g.push(Move("set-crush", "p1", ("?",), to="p1.C1"))
    g.push(Move("flip", "p1", ("XK#1",), to="p1.C1"))
    assert g.state.where["XK#1"] == "p1.hell"  # played: its effect happened or was prompted
    return [dict(p) for p in cc.permits(g.state)]


def test_a_compiled_sentence_permits_what_it_says_and_a_prompted_one_nothing() -> None:
    (permit,) = _flip_inline_crush("Verursache 2 Schaden an einem Feind.")
    assert (permit["do"], permit["n"], permit["side"]) == ("damage", 2, "enemy")
    assert _flip_inline_crush("Verursache 2 Schaden an einem Feind, wenn es regnet.") == []
