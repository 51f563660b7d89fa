"""Extensions, created unbound and bound to the app in ``create_app`` (``init_app``)."""
from flask_socketio import SocketIO

from .live.presence import Presence
from .store import Database, GameStore

socketio = SocketIO()
database = Database()
store = GameStore(database)
presence = Presence()
