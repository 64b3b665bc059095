"""Creature Crush: ruleset, violation texts, effects as permits, and the interpreter's moves."""
