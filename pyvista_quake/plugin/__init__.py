"""PyVista's entry points: readers, writers and the ``mesh.quake`` accessor."""
