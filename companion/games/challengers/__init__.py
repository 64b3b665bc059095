"""Challengers!: the match ruleset (one table, two seats) and the tournament around it."""
