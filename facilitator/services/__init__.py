"""Use cases the console's pages and the JSON API share: create a game (from the
set-up form, from a class, from a record) and what goes with it. The blueprints
parse a request, call one of these, and answer."""
