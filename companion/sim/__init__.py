"""The synthetic table: table scripts, their ground truth, and the simulated camera.

`script` reads and validates table scripts, `table_state` holds the true table and what a camera
would see of it; the renderer and camera model (OpenCV) live in their own modules and are
imported only when frames are drawn.
"""
