"""The facilitator: runs the classroom team game "la partida"."""
