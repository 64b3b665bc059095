"""Players' decks: deck list files (YAML or plain text), deck-building rules, registration by
scanning cards one by one in front of the camera, and copy numbering across the table."""
