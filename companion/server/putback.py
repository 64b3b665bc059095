"""What the players must change on the table so that it matches the game again.

After an undo, a redo or a corrected move the companion's picture of the table (the rebuilt
state) differs from the physical table. The page says, item by item, what to put back, so that
the next camera snapshot matches and nothing is applied twice. Texts use ids (card uids, zone
ids); the page's `Namer` turns them into names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.snapshot import SeenCard, SeenDie, TableSnapshot, is_back

MAX_LINES = 6


def _card_state(card: SeenCard | None) -> tuple[object, ...] | None:
    return None if card is None else (card.zone, card.face_up, card.tapped, card.on)


def _die_state(die: SeenDie | None) -> tuple[object, ...] | None:
    return None if die is None else (die.value, die.zone, die.on)


def _name(uid: str) -> str:
    return "a face-down card" if is_back(uid) else uid


def _name_de(uid: str) -> str:
    return "eine verdeckte Karte" if is_back(uid) else uid


def instructions(
    table: TableSnapshot | None, wanted: TableSnapshot | None
) -> tuple[list[str], list[str]]:
    """English and German lines that turn `table` (as it lies) into `wanted` (the game)."""
    en: list[str] = []
    de: list[str] = []
    have = {c.uid: c for c in (table.cards if table else ())}
    want = {c.uid: c for c in (wanted.cards if wanted else ())}
    for uid in sorted(set(have) | set(want)):
        now, then = have.get(uid), want.get(uid)
        if _card_state(now) == _card_state(then):
            continue
        if then is None and now is not None:
            en.append(f"take {_name(uid)} off {now.zone}")
            de.append(f"{_name_de(uid)} von {now.zone} nehmen")
        elif now is None and then is not None:
            en.append(f"put {_name(uid)} back on {then.zone}")
            de.append(f"{_name_de(uid)} zurück auf {then.zone} legen")
        elif now is not None and then is not None:
            if now.zone != then.zone or now.on != then.on:
                en.append(f"move {_name(uid)} from {now.zone} back to {then.zone}")
                de.append(f"{_name_de(uid)} von {now.zone} zurück nach {then.zone} legen")
            if now.face_up != then.face_up:
                en.append(f"turn {_name(uid)} face {'up' if then.face_up else 'down'}")
                de.append(f"{_name_de(uid)} {'aufdecken' if then.face_up else 'umdrehen'}")
            if now.tapped != then.tapped:
                en.append(f"{'tap' if then.tapped else 'untap'} {_name(uid)}")
                de.append(f"{_name_de(uid)} {'quer legen' if then.tapped else 'gerade legen'}")
    dice_now = {d.die: d for d in (table.dice if table else ())}
    dice_then = {d.die: d for d in (wanted.dice if wanted else ())}
    for name in sorted(set(dice_now) | set(dice_then)):
        now_d, then_d = dice_now.get(name), dice_then.get(name)
        if _die_state(now_d) == _die_state(then_d):
            continue
        if then_d is None:
            en.append(f"take die {name} off the table")
            de.append(f"Würfel {name} vom Tisch nehmen")
        else:
            en.append(f"set die {name} back to {then_d.value} on {then_d.zone}")
            de.append(f"Würfel {name} zurück auf {then_d.value} in {then_d.zone} legen")
    if len(en) > MAX_LINES:
        more = len(en) - MAX_LINES
        en = [*en[:MAX_LINES], f"and {more} more"]
        de = [*de[:MAX_LINES], f"und {more} weitere"]
    return en, de


def restore(
    table: TableSnapshot, source: TableSnapshot | None, target: TableSnapshot | None,
    only: Iterable[str] | None = None,
) -> TableSnapshot:
    """`table` with the items that went from `source` to `target` in one observation set back
    to how they were in `target`, where they still lie as in `source` (`only`: these uids).

    Used when a move is corrected (source = after it, target = before it) or its correction is
    withdrawn (the other way round); items that changed again since are left alone.
    """
    keep = None if only is None else set(only)
    src = {c.uid: c for c in (source.cards if source else ())}
    dst = {c.uid: c for c in (target.cards if target else ())}
    cards = {c.uid: c for c in table.cards}
    for uid in set(src) | set(dst):
        if keep is not None and uid not in keep:
            continue
        if _card_state(src.get(uid)) == _card_state(dst.get(uid)):
            continue
        if _card_state(cards.get(uid)) != _card_state(src.get(uid)):
            continue
        if uid in dst:
            cards[uid] = dst[uid]
        else:
            cards.pop(uid, None)
    dice = {d.die: d for d in table.dice}
    if keep is None:
        src_d = {d.die: d for d in (source.dice if source else ())}
        dst_d = {d.die: d for d in (target.dice if target else ())}
        for name in set(src_d) | set(dst_d):
            if _die_state(src_d.get(name)) == _die_state(dst_d.get(name)):
                continue
            if _die_state(dice.get(name)) != _die_state(src_d.get(name)):
                continue
            if name in dst_d:
                dice[name] = dst_d[name]
            else:
                dice.pop(name, None)
    return replace(table, cards=tuple(cards.values()), dice=tuple(dice.values()))
