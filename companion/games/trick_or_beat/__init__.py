"""Trick or Beat: ruleset, violation texts, effects, and the interpreter's candidate moves."""
