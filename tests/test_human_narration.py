"""The terminal game (``kanaszta play``) driven by scripted input: bad input and
re-prompts, moves by number and by name, saving and resuming a position, the scoring
breakdown (R16) and the game record. It can be followed: each move says what it changed,
a refused move says why, near misses get "did you mean", a discard that ends the hand is
confirmed, the rules in force are shown, the other players' turns are told in a line
each from public information (in every game: classic canasta and Turkish kanasta from
the table picture, :mod:`agents.narrate`), and Ctrl-C ends the game quietly."""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pytest
from conformance.positions import example_position

from agents import GreedyBot
from agents.base import Agent
from agents.games.diszitett.narrate import snapshot
from agents.games.turkish.terminal import TurkishWords
from agents.human import play_human
from agents.records import replay, start_game
from agents.registry import make_agent
from kanaszta_env import GameBatch, Rules, action_from_name, position as positions
from kanaszta_env.cards import TYPE_NAMES, counts_to_cards
from kanaszta_env.cli import main


class Script(io.TextIOBase):
    """An input stream: the given lines, then ``tail`` forever (or EOF)."""

    def __init__(self, lines: list[str], tail: str | None = "1") -> None:
        self.lines: Iterator[str] = iter(lines)
        self.tail = tail
        self.read_lines = 0

    def readline(self, size: int = -1) -> str:
        self.read_lines += 1
        line = next(self.lines, None)
        if line is None:
            return "" if self.tail is None else self.tail + "\n"
        return line + "\n"


def play(lines: list[str], tail: str | None = None, **kwargs) -> tuple[str, object]:
    """Play with GreedyBot opponents on scripted input; the output text and the result."""
    out = io.StringIO()
    kwargs.setdefault("opponents", [GreedyBot()])
    game = play_human(input_stream=Script(lines, tail=tail), output=out, **kwargs)
    return out.getvalue(), game


def test_bad_input_gets_a_message_and_a_new_prompt(tmp_path) -> None:
    """Unknown words, out-of-range numbers, unknown and illegal move names are
    refused with a message; help, hint and save work; quit stops."""
    out = io.StringIO()
    save = tmp_path / "pos.json"
    lines = ["", "foo", "999", "meld_ZZ", "discard_JK", "help", "hint", "save", f"save {save}", "quit"]
    script = Script(lines)
    game = play_human([GreedyBot()], Rules(), seed=3, input_stream=script, output=out)
    text = out.getvalue()
    assert not game.finished and game.scores is None
    for message in (
        "unknown move 'foo'",
        "no move number 999: choose 1 to 2",
        "unknown move 'meld_ZZ'",
        "discard_JK is not legal now",
        "commands:",
        "the heuristic bot would play",
        "usage: save FILE",
        f"position saved to {save}",
        "stopped",
    ):
        assert message in text
    prompts = sum(len(m) // 2 for m in re.findall(r"(?m)^(?:> )+", text))
    assert script.read_lines == len(lines) == prompts  # a new prompt for every line read
    assert positions.load(json.loads(save.read_text())).state.phase[0] == 0  # the cut


@pytest.mark.parametrize(("seed", "lines"), [(8, ["keep", "LEAVE", "2"]), (1, []), (2, []), (5, []), (6, [])])
def test_moves_by_name_and_number_finish_the_hand_with_the_breakdown(seed: int, lines: list[str]) -> None:
    """Cut decisions by name, then the first listed move each time; the hand ends with the
    scoring breakdown (R16), which adds up to the engine's scores (no tax at a total of 0,
    R17.1), and the record replays to the same scores."""
    text, game = play(lines, tail="1", seed=seed)
    assert game.finished and game.raw_scores == game.scores
    assert "scoring (R16):" in text and "melded cards" in text and "result:" in text
    assert [int(x) for x in replay(game.record).state.hand_scores[0]] == game.scores
    if lines:
        assert game.record.actions[:3] == ["keep", "leave", "leave"]


def test_save_and_resume_continue_the_same_game(tmp_path) -> None:
    """A position saved mid-hand and resumed plays on exactly like the original."""
    save = tmp_path / "mid.json"
    _, whole = play(["1"] * 40 + [f"save {save}"], tail="1", seed=12)
    assert whole.finished
    doc = json.loads(save.read_text())
    _, resumed = play([], tail="1", start=doc)
    assert resumed.finished and resumed.scores == whole.scores
    assert resumed.record.start == doc
    assert replay(resumed.record).state.hand_scores[0].tolist() == whole.scores


def test_input_end_stops_cleanly() -> None:
    """End of input leaves the hand unfinished without an error."""
    text, game = play(["1", "1"], seed=4)
    assert not game.finished and "input ended" in text
    assert game.record.actions == ["keep", "keep"]


def test_human_seat_and_player_count_are_checked() -> None:
    with pytest.raises(ValueError, match="opponents"):
        play_human([], Rules(), seed=1, input_stream=Script([]), output=io.StringIO())
    with pytest.raises(ValueError, match="seat"):
        play_human([GreedyBot()], Rules(), seat=2, seed=1, input_stream=Script([]), output=io.StringIO())


def test_other_hands_are_hidden() -> None:
    """The table lists the human's own cards but only the size (and publicly
    known cards) of the opponent's hand."""
    text, _ = play(["1"] * 8, seed=9)
    own = re.findall(r"(?m)^ {3}[ *]you \(.*\) hand \((\d+)\): (.*?)(?: · known to all: .*)?$", text)
    assert own and all(int(n) == len(cards.split()) for n, cards in own if n != "0"), "own hand listed"
    assert int(own[-1][0]) >= 14
    theirs = re.findall(r"(?m)^ {3}[ *]greedy \(seat 1\) \(.*\) (hand.*)$", text)
    assert len(theirs) == len(own), "the opponent's seat at every table"
    assert all(re.fullmatch(r"hand: \d+ cards(, known: .*)?", t) for t in theirs), "only as a count"


def test_rules_are_shown_at_the_start_and_on_request_and_the_cut_card_is_named() -> None:
    text, _ = play(["rules", "keep", "quit"], rules=Rules(opening_minimum=75), seed=3)
    rules_lines = [line for line in text.splitlines() if "rules: variant 2003-02" in line.lstrip("> ")]
    assert len(rules_lines) == 2, text  # at the start and after "rules"
    assert "opening minimum 75" in rules_lines[0] and "2 players" in rules_lines[0]
    first, second = re.findall(r"cut card (\d) of 3: (\S+) — keep it", text)[:2]
    assert (first[0], second[0]) == ("1", "2")
    assert f"you kept cut card 1 of 3 ({first[1]})" in text


def test_variant_2003_01_never_shows_separate_heart_aces() -> None:
    """A whole hand under 2003-01: the rules line names the variant and nothing
    on the screen speaks of separate heart aces (R10.6 does not apply)."""
    text, game = play([], tail="1", rules=Rules(variant="2003-01"), seed=5)
    assert game.finished
    assert "variant 2003-01 (heart aces are ordinary aces)" in text
    assert "separate heart ace" not in text
    with_aces, _ = play(["quit"], rules=Rules(variant="2003-02"), seed=5)
    assert "separate heart aces 0" in with_aces  # the 2003-02 table does show them


def test_a_frozen_pile_is_refused_with_the_reason_and_the_draw_names_the_card() -> None:
    doc = example_position("frozen-pile")
    text, _ = play(["take_pile", "draw", "quit"], start=doc, seat=0)
    assert "take_pile is not legal now: the discard pile is frozen: its top card 3C" in text
    assert "(R9)" in text
    assert f"you drew {doc['stock'][0]}\n" in text  # the stock's top card, told to its drawer only


def test_melds_show_the_groups_of_the_turn_and_the_opening_progress() -> None:
    """A player who has not opened builds groups: every meld is told, the
    turn's groups and "opening N / 50" are shown without asking for the table,
    and a discard below the minimum is refused with the figures (R12)."""
    lines = ["draw", "meld_7S", "meld_7H", "discard_QD", "meld_JK_to_7", "discard_QD", "withdraw", "quit"]
    text, _ = play(lines, start=example_position("pickup-decision"), seat=0)
    assert "you laid 7: 7S (new)" in text and "you laid 7: +7H" in text
    assert "this turn: 7: 7S 7H (new) · unfinished (R10.2): 7 2 cards · opening 10 / 50" in text
    assert "discard_QD is not legal now: your groups are not finished: 7 has 2 cards" in text
    assert "this turn: 7: 7S 7H JK (new) · opening 15 / 50" in text
    assert "discard_QD is not legal now: opening 15 / 50: the groups laid this turn do not reach" in text
    assert "you took back everything laid this turn (R12.5)" in text
    assert text.count("\nmoves: ") >= 7  # the legal moves follow every refusal


def test_a_pile_pickup_tells_what_came_in() -> None:
    doc = example_position("pickup-decision")
    lines = ["take_pile"] + ["1"] * 14
    text, _ = play(lines, start=doc, seat=1)
    assert "you took the discard pile of 9 cards with its top card 4D (penalised pickup" in text
    assert "penalised pickup of 4D: lay 4D with at least two cards of its rank or wilds" in text
    rest = re.search(r"the rest of the pile joined the hand \(8 cards: ([^,]+), R8\.3\)", text)
    assert rest, text
    assert sorted(rest.group(1).split()) == sorted(doc["discard"][:-1])


@pytest.mark.parametrize(
    ("typed", "suggestion"),
    [
        ("discard-9c", "did you mean discard_9C [8]?"),
        ("meld-7S", "did you mean meld_7S?"),  # a real name, but not legal in this phase
        ("9C", "did you mean discard_9C [8]?"),
        ("tabel", "did you mean table?"),
        ("discrad_9C", "did you mean discard_9C [8]?"),
    ],
)
def test_near_misses_get_a_did_you_mean(typed: str, suggestion: str) -> None:
    text, _ = play([typed, "quit"], start=example_position("start-of-hand"), seat=0)
    assert f"unknown move {typed!r}: {suggestion}" in text


def test_a_discard_that_goes_out_asks_for_confirmation() -> None:
    """The discard of the last card ends the hand (R14): "n" keeps the game
    going, "y" (or the move again) plays it; the scoring follows."""
    lines = ["discard_QC", "n", "discard_QC", "discard_QC"]
    text, game = play(lines, start=example_position("going-out"), seat=1)
    assert "discard_QC ends the hand: you went out (R14). Play it?" in text
    assert "discard_QC not played" in text
    assert game.finished and text.count("ends the hand") == 2
    assert "you discarded QC and went out (R14)" in text
    assert re.search(r"you: .*going out: 100", text)


def test_the_score_sheet_names_only_the_last_hand_s_going_out() -> None:
    """R16.2 in a game of several hands: a seat's going-out bonus of an earlier hand is not
    scored on the sheet of a later hand that he did not end."""
    from agents.games.diszitett.terminal import DiszitettWords

    rules = Rules(num_players=2)
    games = GameBatch(rules, 1)
    games.reset(seed=1)
    words = DiszitettWords(rules, ["you", "bot"], 0)
    words.out_bonus = {0: ("going out from hand", 200)}
    games.state.out_player[0] = -1  # the last hand ended without anyone going out
    assert "going out" not in words.score_sheet(games)[0]
    games.state.out_player[0] = 0
    assert "going out from hand: 200" in words.score_sheet(games)[0]


def test_other_players_turns_are_one_public_line_each() -> None:
    """Over a whole hand, the opponent's turns are single lines that never name a
    card drawn from the stock (unless it was a known bottom card), and every one
    of the human's own moves is told at once."""
    text, game = play([], tail="1", seed=6)
    assert game.finished
    theirs = [line for line in text.splitlines() if line.startswith("greedy (seat 1): ")]
    assert len(theirs) >= 5
    for line in theirs:
        assert line.count("discarded ") <= 1, line
        for drew in re.findall(r"drew (\S+)", line):
            assert drew == "a" or "a known card from the bottom of the stock" in line, line
    games = start_game(game.record)
    own = 0
    for name in game.record.actions:
        own += int(snapshot(games.state).to_move[0]) == 0
        games.step(action_from_name(name))
    told = [
        line
        for line in text.splitlines()
        if re.match(r"(> )*you (kept|left|drew|took|laid|placed|lifted|discarded)", line)
    ]
    assert len(told) == own


def test_ctrl_c_ends_play_quietly(capsys, monkeypatch) -> None:
    class Interrupted(io.StringIO):
        def readline(self, size: int = -1) -> str:
            raise KeyboardInterrupt

    monkeypatch.setattr("sys.stdin", Interrupted())
    assert main(["play", "--opponent", "greedy", "--seed", "1"]) == 130
    out, err = capsys.readouterr()
    assert err.strip() == "kanaszta play: interrupted"
    assert "Traceback" not in out + err and out.endswith("> \n")


def turn_lines(text: str, name: str) -> list[str]:
    """The narration lines of seat ``name``'s turns (prompts stripped)."""
    lines = (re.sub(r"^(> )+", "", line) for line in text.splitlines())
    return [line[len(name) + 2 :] for line in lines if line.startswith(name + ": ")]


def laid_cards(parts: list[str]) -> Counter:
    """The cards a turn's phrases say were laid, less those taken back."""
    laid: Counter = Counter()
    for part in parts:
        if part.startswith("new "):
            laid.update(part.split(": ", 1)[1].split(" (")[0].split())
        elif part.startswith("laid "):
            laid.update(part[5:].split(" on ")[0].split())
        elif part.startswith("took back "):
            laid.subtract(part[10:].split(" from ")[0].split())
    return laid


@pytest.mark.parametrize(
    ("variant", "seed", "taken"), [("pl", 5, "took the discard pile ("), ("tr", 5, "took Fi 1")]
)
def test_classic_and_turkish_turns_tell_melds_and_discards_not_hidden_cards(variant, seed, taken) -> None:
    """A whole 4-player hand against bots: each bot turn is one line whose discards are
    the engine's, whose melds add up to its side's melds at the end (the bots' side; part of
    the human's), and whose draws
    name no card; the human's own draws are told with his cards."""
    rules = Rules(variant=variant, num_players=4)
    bots = [make_agent("heuristic", rules) for _ in range(3)]
    text, game = play([], tail="1", rules=rules, seed=seed, opponents=bots)
    assert game.finished and taken in text
    names = [f"heuristic ({'partner' if q == 2 else 'opponent'}, seat {q})" for q in range(4)]
    games = start_game(game.record)
    discards: dict[int, list[str]] = {q: [] for q in range(4)}
    own_draws, turns, last = [], Counter(), -1
    for action in game.record.actions:
        mover, hand = int(games.to_move[0]), games.state.hand[0, 0].copy()
        turns[mover] += mover != last
        last = mover
        games.step(np.array([games.action_names.index(action)]))
        if action.startswith("discard") and mover:
            discards[mover].append(TYPE_NAMES[int(games.state.pile[0, int(games.state.pile_len[0]) - 1])])
        if action == "draw" and not mover:
            own_draws.append(sorted(counts_to_cards(np.maximum(games.state.hand[0, 0] - hand, 0))))
    laid: dict[int, Counter] = {0: Counter(), 1: Counter()}  # by side
    for q in (1, 2, 3):
        parts = [line.split(" · ") for line in turn_lines(text, names[q])]
        assert len(parts) == turns[q] > 5  # a line a turn
        assert [p[10:] for turn in parts for p in turn if p.startswith("discarded ")] == discards[q]
        assert all(re.fullmatch(r"drew (a card|\d+ cards)", p) for turn in parts for p in turn if "drew" in p)
        laid[rules.sides()[q]] += laid_cards([p for turn in parts for p in turn])
    end = rules.game.table_picture(games.state, rules, 0, names, None)["sides"]
    melds = {s["side"]: Counter(c for meld in s["melds"] for c in meld["cards"]) for s in end}
    assert +laid[1] == melds[1] and not laid[0] - melds[0]  # side 0's melds are the human's too
    assert +laid[0] + laid[1]
    told = re.findall(r"(?m)^(?:> )*you drew ([^·\n]+)", text)
    assert [sorted(t.split()) for t in told] == own_draws


class Scripted(Agent):
    """Plays the given action names, then the first legal action."""

    name = "scripted"

    def __init__(self, moves: list[str]) -> None:
        self.moves = list(moves)

    def setup(self, rules: Rules) -> None:
        self.names = GameBatch(rules, 1).action_names

    def act(self, obs, mask, slots=None) -> np.ndarray:
        legal = np.flatnonzero(mask[0])
        return np.array([self.names.index(self.moves.pop(0)) if self.moves else legal[0]])


@pytest.mark.parametrize(("seat", "answer"), [(1, "yes"), (0, "no")])
def test_classic_asking_the_partner_and_the_answer_are_told(seat: int, answer: str) -> None:
    """pl (C12.5): seat 2 asks seat 0 "may I go out?"; a bot partner's answer is told, the
    human partner is asked; after a no the melds taken back are told; the score sheet's
    going out is scored to the side that went out."""
    rules = Rules(variant="pl", num_players=4)
    asker = Scripted(["ask", "discard_JK" if answer == "yes" else "withdraw"])
    agents = [make_agent("heuristic", rules) for _ in range(4)]
    agents[2] = asker
    opponents = [agents[q] for q in range(4) if q != seat]
    start = example_position("classic-may-i-go-out")
    text, game = play([answer], tail="1", start=start, seat=seat, opponents=opponents)
    assert game.finished
    relation = "partner" if seat == 0 else "opponent"
    said = turn_lines(text, f"scripted ({relation}, seat 2)")
    assert said[0] == "asked the partner: may I go out? (C12.5)"
    if answer == "yes":
        assert (
            turn_lines(text, "heuristic (opponent, seat 0)")[0] == "answered yes: the partner must go out now"
        )
        assert said[1] == "discarded JK · went out"
    else:
        assert "scripted (partner, seat 2) asks you: may I go out?" in text
        assert said[1] == "took back 2D from queens · discarded 2D"
    out = replay(game.record).summary(0)["went_out"]
    sheet = text[text.index("scoring (C13):") :].splitlines()[1:3]
    for line, side in zip(sheet, (0, 1), strict=True):
        assert int(line.rsplit(" = ", 1)[1]) == game.scores[rules.sides().index(side)]
        assert ("going out +" in line) == (rules.sides()[out] == side) and "other" not in line


def test_turkish_score_sheet_parts_follow_t14() -> None:
    """Each pair's rest beyond its melds and hands is its Fi bonus (T14.2) or penalty
    (T11.4, T12.3) and going out (T14.3), as the Fis and the end of the hand say."""
    rules = Rules(variant="tr", num_players=4)
    bots = [make_agent("heuristic", rules) for _ in range(3)]
    _, game = play([], tail="1", rules=rules, seed=5, opponents=bots)
    games = replay(game.record)
    s, out = games.state, games.summary(0)["went_out"]
    sheet = TurkishWords(rules, ["a", "b", "c", "d"], 0).score_sheet(games)[0].splitlines()
    assert sheet[0] == "scoring (T14):" and (s.fi_taker[0] >= 0).any()
    for pair, line in enumerate(sheet[1:]):
        took = [f for f in range(2) if s.fi_taker[0, f] >= 0 and s.fi_taker[0, f] % 2 == pair]
        won = out is not None and out % 2 == pair
        rest = 100 * sum(int(s.fi_used[0, f]) for f in took) + (50 if won else 0)
        rest -= 0 if took else 600 if s.forced[0, pair] == 1 and out is not None and not won else 100
        parts, total = line.rsplit(" = ", 1)
        assert parts.endswith(f"Fis and going out {rest:+d}") and int(total) == game.scores[pair]
