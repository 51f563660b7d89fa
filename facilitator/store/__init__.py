"""Persistence: SQLAlchemy models, the database connection, games and banks."""
from .database import Database
from .games import GameStore

__all__ = ["Database", "GameStore"]
