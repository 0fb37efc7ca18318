"""Format-neutral maths over the records: decoding frames, topology, animation timing (numpy, no PyVista)."""
