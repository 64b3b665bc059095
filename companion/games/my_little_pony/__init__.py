"""My Little Pony CCG (Premiere), complete as its rulebook says: rules.py is the entry point."""
