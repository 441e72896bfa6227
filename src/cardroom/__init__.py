"""cardroom: an online card room for 500 (Five Hundred) and 1000 (Thousand)."""

__version__ = "0.1.0"
