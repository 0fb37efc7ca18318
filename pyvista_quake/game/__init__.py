"""The game's files: archives, sources, the filesystem that finds skins and the files beside a model, and the engines' rules."""
