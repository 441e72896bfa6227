"""Pure rules of the card room's games: no I/O, no clocks, randomness only from a given seed."""
