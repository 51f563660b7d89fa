"""After a hall: its standings, workbook and records as downloads (a game's own results
are its kind's: ``GameKind.results`` and ``GameKind.download``).

Pure Python, like the games: no web, no database.
"""
