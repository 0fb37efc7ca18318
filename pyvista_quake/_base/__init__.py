"""What every layer shares: errors, warnings, atomic files, load options and field-data keys."""
