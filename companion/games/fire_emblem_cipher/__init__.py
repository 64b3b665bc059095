"""Fire Emblem Cipher: rules (rules.py), texts, board and combat helpers, table interpretation."""
