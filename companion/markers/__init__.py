"""Marker identities: what each printed sticker says, independent of how it is drawn."""
