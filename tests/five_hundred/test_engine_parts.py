"""The parts of the 500 engine that are written for speed give what the plain way gives: the
shuffle, the kitty discards, the legal plays and the hand results."""

from __future__ import annotations

import dataclasses
import random

import pytest

from cardroom.games.cards import cards_of
from cardroom.games.five_hundred import Action, DiscardChoices, Game, HandResult, Rules
from cardroom.games.five_hundred.actions import DISCARD, PLAY_ACTIONS
from cardroom.games.five_hundred.deal import deck_order, shuffle
from cardroom.games.five_hundred.play import play_actions, playable
from cardroom.games.five_hundred.rules import ALL_PRESET_NAMES
from conftest import new_game, run


@pytest.mark.parametrize("preset", ALL_PRESET_NAMES)
def test_the_shuffle_is_random_shuffle(preset: str) -> None:
    deck = deck_order(Rules.preset(preset).deck_spec.mask)
    for seed in range(50):
        mine, theirs = list(deck), list(deck)
        shuffle(mine, random.Random(f"deal:{seed}"))
        random.Random(f"deal:{seed}").shuffle(theirs)
        assert mine == theirs


def test_each_discard_is_the_action_its_text_parses_to() -> None:
    held = Game.new("online", seed=2).hands[0] | Game.new("online", seed=2).kitty
    choices = DiscardChoices(held, 5)
    for number, choice in enumerate(choices):
        plain = Action(DISCARD, cards=list(choice.cards))
        assert (choice.kind, choice.bid, choice.nominated, choice.cards, choice.mask,
                choice.text) == (plain.kind, plain.bid, plain.nominated, plain.cards,
                                 plain.mask, plain.text)
        assert choices[number] == choice == Action.parse(choice.text)


def test_play_actions_are_the_cards_of_the_mask_in_order() -> None:
    rng = random.Random(3)
    for _ in range(300):
        mask = rng.getrandbits(66)
        assert play_actions(mask) == [PLAY_ACTIONS[card.index] for card in cards_of(mask)]


@pytest.mark.parametrize("preset", ["online", "classic", "six-handed"])
def test_legal_plays_are_the_playable_cards(preset: str) -> None:
    """Whether the plays come from the table of suits followed or from the whole mask, they
    are the playable cards, lowest first (a joker leading in no trumps aside)."""
    rng = random.Random(5)
    for seed in range(40):
        game = Game.new(preset, seed=seed)
        while not game.is_over:
            if game.phase == "play" and game.trick:
                expected = [PLAY_ACTIONS[card.index]
                            for card in cards_of(playable(game, game.to_act))]
                assert game.legal_actions() == expected
                assert game.legal_actions() is not game.legal_actions()
            game.apply(rng.choice(game.legal_actions()))


def test_a_hand_result_is_a_frozen_value() -> None:
    game = new_game("online", {})
    run(game, "bid 10NT", "pass", "pass", "pass")
    while game.hand_number == 1 and not game.is_over:
        game.apply(game.legal_actions()[0])
    result = game.history[0]
    fields = {field.name: getattr(result, field.name) for field in dataclasses.fields(result)}
    assert HandResult(**fields) == result
    assert hash(HandResult(**fields)) == hash(result)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.made = True  # type: ignore[misc]


def test_a_copy_shares_no_list_with_the_original() -> None:
    game = Game.new("online", seed=9)
    twin = game.copy()
    for name in Game.COPIED:
        assert getattr(twin, name) == getattr(game, name)
        assert getattr(twin, name) is not getattr(game, name)
    twin.apply(twin.legal_actions()[1])
    assert not game.actions and len(twin.actions) == 1
    assert type(twin) is Game and twin.rules is game.rules
