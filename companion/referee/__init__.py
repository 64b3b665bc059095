"""The script referee: plays a table script (`companion.sim`) through a game's ruleset.

It sits above the engine, the game registry and the simulator, which it joins: the simulator
turns each step into what the camera would see, the engine's interpreter and ruleset judge it.
`script` holds the referee, `commands` the `companion referee` command.
"""
