"""The game-agnostic rules core: moves, violations, phase flow, state, interpreter.

Imports neither Flask nor OpenCV (tests/engine/test_imports.py enforces it). Public API:
`companion.engine.api` (value types), `companion.engine.game.Game` (the facade),
`companion.engine.ruleset.Ruleset` (what a game implements), `companion.games.get_ruleset`.
"""
