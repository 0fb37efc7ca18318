"""Export to other formats: meshio files, ParaView series, glTF."""
