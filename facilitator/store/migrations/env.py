"""Alembic's environment: runs the revisions on the connection the facilitator hands it.

The facilitator never reads an ``alembic.ini``: :mod:`facilitator.store.schema`
builds the configuration in code and passes its open connection in
``config.attributes["connection"]``, so migrations run on the same engine
(and the same SQLite pragmas) as the server.
"""
from alembic import context

from facilitator.store.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata,
                  # SQLite cannot ALTER most things: batch mode copies the table instead.
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
