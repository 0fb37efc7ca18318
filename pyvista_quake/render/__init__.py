"""Pictures: plots, thumbnails, contact sheets, GIFs and movies, batches."""
