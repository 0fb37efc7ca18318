"""``python -m pyvista_quake``: the ``pyvista-quake`` command line."""

from pyvista_quake.cli.main import run

if __name__ == '__main__':
    run()
