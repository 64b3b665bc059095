"""The game-agnostic rules core: moves, violations, phase flow, state, interpreter.

Imports neither Flask nor OpenCV (tests/engine/test_imports.py enforces it) and no game
(tests/architecture). Public API: `companion.engine.api` (value types),
`companion.engine.game.Game` (the facade), `companion.engine.ruleset.Ruleset` (what a game
implements); a game's ruleset by id comes from `companion.engine.registry.ruleset_for`, which
the game registry (`companion.games`) fills.
"""
