"""``python -m cardroom`` is the ``cardroom`` command."""

from cardroom.cli import app

app()
