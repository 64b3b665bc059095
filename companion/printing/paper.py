"""Paper sizes, and the part of a sheet the printables may use."""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import CompanionError
from companion.printing.sizes import PAGE_MARGIN_MM


class PaperError(CompanionError):
    """A paper size we do not know."""


@dataclass(frozen=True)
class Paper:
    """A sheet in portrait orientation, in millimetres."""

    name: str
    width_mm: float
    height_mm: float

    def landscape(self) -> Paper:
        return Paper(self.name, self.height_mm, self.width_mm)

    @property
    def usable_w_mm(self) -> float:
        return self.width_mm - 2 * PAGE_MARGIN_MM

    @property
    def usable_h_mm(self) -> float:
        return self.height_mm - 2 * PAGE_MARGIN_MM


PAPERS: dict[str, Paper] = {
    p.name: p
    for p in (
        Paper("a4", 210.0, 297.0),
        Paper("a3", 297.0, 420.0),
        Paper("letter", 215.9, 279.4),
    )
}


def paper(name: str) -> Paper:
    try:
        return PAPERS[name.lower()]
    except KeyError:
        raise PaperError(f"unknown paper {name!r}; choose one of {', '.join(PAPERS)}") from None
