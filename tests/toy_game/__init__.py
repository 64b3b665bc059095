"""Toy Duel: a game of a few lines, added to the companion as one folder plus one line.

It exists to prove that a new game needs nothing but its folder (spec, rules, texts, cards,
layout) and `companion.games.register("tests.toy_game.spec:SPEC")` (in the product: one line in
`companion.games.GAME_SPECS`). See CONTRIBUTING.md, "Adding a game".

Rules (its whole rulebook): each player shuffles a deck of six fighters and takes three into
hand. On your turn you may enlist one fighter from your hand onto your field, then end the
turn. A player whose fighters on the field have a total power of 6 or more wins at once.
"""
