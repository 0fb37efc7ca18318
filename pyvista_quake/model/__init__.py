"""The model: QuakeModel, players, their meshes, edits, loading and saving."""
