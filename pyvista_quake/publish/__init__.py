"""Static sites of whole games: the catalogue."""
