"""Table companion: reads a physical card game from a camera and referees it."""

__version__ = "0.1.0"
