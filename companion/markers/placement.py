"""Where the stickers lie on a card: what the printed sheet asks for and the camera assumes.

One sticker per card face lies at the card's centre. Two ("twin", `companion print stickers
--twin`) lie one at each end of the card along its length, each symbol's centre
`TWIN_STICKER_OFFSET_MM` from the card's centre, the one at the top end upright and the one at
the bottom end turned 180 degrees: from either one, the card's centre lies that far "below" it
in its own frame. On an 88 mm card the two white squares with their label strips (34.75 mm)
stay 4.4 mm inside the card's ends and 9.8 mm apart in the middle. Why two: the lamp's
reflection in a glossy sleeve or a die covers 3-8 cm of a card, seldom both ends at once
(docs/markers.md).
"""

from __future__ import annotations

from typing import Final

TWIN_STICKER_OFFSET_MM: Final = 24.0
"""From a card's centre to each twin sticker's symbol centre, along the card's length."""
