"""Printables as PDF at true scale: card stickers, die-face stickers and play mats.

Every marker is drawn as exact vector squares from `companion.markers.render`'s module grids, so
what is printed is what the simulator renders and the tests decode. Sizes live in `sizes.py`.
"""
