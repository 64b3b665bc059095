"""Tournaments across several tables (Challengers!), stored beside the games they link."""
