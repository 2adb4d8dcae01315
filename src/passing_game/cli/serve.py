"""``passing-game serve``: the web app on uvicorn (needs the ``web`` extra)."""

from __future__ import annotations

import logging
import logging.config

import click

from passing_game.cli.options import TranslatedCommand, option
from passing_game.cli.sources import open_web_store
from passing_game.i18n import N_, _


@click.command(
    "serve",
    cls=TranslatedCommand,
    help=N_("Serve the game in the browser: tables for friends and bots."),
)
@option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help=N_("Address to listen on (0.0.0.0 to let other machines in)."),
)
@option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help=N_("Port."))
@option(
    "--db",
    default=None,
    metavar="URL",
    help=N_(
        "Where games are kept: sqlite:///FILE (default sqlite:///data/passing-game.sqlite3)"
        " or postgresql://USER:PASSWORD@HOST/DB."
    ),
)
@option(
    "--bot-delay",
    type=click.FloatRange(0, 10),
    default=0.6,
    show_default=True,
    help=N_("Seconds a bot waits before it moves, so people can follow."),
)
@option(
    "--rate-limit",
    type=click.FloatRange(min=1),
    default=20.0,
    show_default=True,
    help=N_("Messages a second one connection may send (bursts of twice that)."),
)
@option(
    "--bot-workers",
    type=click.IntRange(min=0),
    default=1,
    show_default=True,
    help=N_("Processes for the searching bots (hard, expert); 0 runs them in threads."),
)
@option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    metavar="URL",
    help=N_(
        "Another site whose pages may open the game's WebSocket, like https://example.com"
        " (the page's own address always may); repeat for more."
    ),
)
@option(
    "--offline-grace",
    type=click.FloatRange(1, 86400),
    default=60.0,
    show_default=True,
    help=N_("Seconds a person may be offline during a game before a stand-in bot plays."),
)
@option(
    "--summary-wait",
    type=click.FloatRange(1, 3600),
    default=45.0,
    show_default=True,
    help=N_("Seconds the round summary waits for people reading it."),
)
@option("--log-level", default="info", show_default=True, help=N_("Server log level."))
@option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help=N_("Log lines as plain text, or as one JSON object a line (for deployments)."),
)
def serve_command(
    host: str,
    port: int,
    db: str | None,
    bot_delay: float,
    rate_limit: float,
    bot_workers: int,
    allowed_origins: tuple[str, ...],
    offline_grace: float,
    summary_wait: float,
    log_level: str,
    log_format: str,
) -> None:
    """Serve the game in the browser: tables for friends and bots."""
    try:
        import uvicorn

        from passing_game.web.http.app import create_app
        from passing_game.web.http.origins import parse_origin
        from passing_game.web.table.runner import Timing
    except ImportError as exc:
        raise click.ClickException(
            _("the web app needs its extra: pip install 'passing-game[web]' ({reason})").format(
                reason=exc
            )
        ) from None
    for url in allowed_origins:
        if parse_origin(url) is None:
            raise click.BadParameter(
                _("{url} is not an origin like https://example.com:8443").format(url=url),
                param_hint="'--allowed-origin'",
            )
    store = open_web_store(db, exclusive=True)
    from passing_game.web.server.logs import logging_config

    # Every line through one formatter, uvicorn's too, secrets redacted (web/server/logs.py).
    logging.config.dictConfig(logging_config(log_format, log_level))
    logging.captureWarnings(True)
    app = create_app(
        store,
        bot_delay=bot_delay,
        rate_limit=(rate_limit, 2 * rate_limit),
        bot_workers=bot_workers,
        allowed_origins=allowed_origins,
        timing=Timing(offline_grace=offline_grace, summary_wait=summary_wait),
    )
    if log_format == "json":  # every line of output is JSON
        logging.getLogger("passing_game.web").info("serving on http://%s:%d/", host, port)
    else:
        click.echo(
            _("Serving The Passing Game on http://{host}:{port}/").format(host=host, port=port)
        )
        click.echo(_("Press Ctrl-C to stop the server."))
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level=log_level,
            log_config=None,  # configured above
            ws_max_size=65536,
            # Frames are a few kilobytes: compressing them costs more CPU than it saves.
            ws_per_message_deflate=False,
            ws_ping_interval=20,
            ws_ping_timeout=20,
        )
    finally:
        store.close()
