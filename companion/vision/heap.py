"""Keeping the garbage collector's full passes off the camera loop.

The pipeline makes many short-lived objects a frame; each full collection walks every object
the process holds, and a companion holds many that live as long as it does (card sets, rules,
the page's app). On the timed 1080p sequence, objects the process held besides cost the
pipeline a fifth of its frame rate (`companion bench vision`: 16 against 20 fps). Frozen
before the loop starts, they are no longer walked; they are still freed as usual when their
last reference goes.
"""

from __future__ import annotations

import gc


def freeze_loaded_objects() -> None:
    """Collect once, then exempt everything alive now from later full collections."""
    gc.collect()
    gc.freeze()
