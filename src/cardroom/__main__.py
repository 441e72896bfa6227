"""``python -m cardroom`` is the ``cardroom`` command."""

from cardroom.cli import app

if __name__ == "__main__":  # not in worker processes, which import this module as well
    app()
