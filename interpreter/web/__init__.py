"""Browser play: `rulebook serve` (Starlette + uvicorn, games kept in SQLite).

Needs the optional extra `web` (pip install -e '.[web]'). Modules: store (SQLite), sessions
(games, seats, tokens, AI seats, limits), tablelayout (boards and zones from rule data), svg and
cards (HTML/SVG from one player's view), payload (the JSON a page receives), replay, app (the
Starlette routes), server (the command's entry point). See docs/web.md.
"""
