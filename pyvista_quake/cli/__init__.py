"""The ``pyvista-quake`` command line, in the style of PyVista's own (cyclopts and rich): a file per command.

Every command is a thin layer over the package's functions.  An error is one
line on stderr and exit code 1 (``--debug`` shows the traceback); a batch
reports its failures at the end and exits 1 when any file failed.
"""
