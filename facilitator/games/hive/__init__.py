"""Hive, the base game, as a pure engine (rule book: docs/hive.md)."""
