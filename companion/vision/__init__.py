"""Seeing the table: frame sources, marker detection, mat geometry and camera calibration.

Modules import OpenCV themselves; importing this package alone stays cheap.
"""
