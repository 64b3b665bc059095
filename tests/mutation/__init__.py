"""Mutation testing of the rules (companion/engine, companion/games) with mutmut.

`python -m tests.mutation.run sample` runs a seeded, stratified sample of the mutants and
records the result in tests/mutation/result.json; `... full` runs every mutant (hours).
tests/mutation/test_mutation.py checks in CI that the recorded score keeps its floor and that
recorded kills and the planted bugs of issue 12 are still caught.
"""
