"""An unknown name's error suggests what the user most likely meant."""

from hopkit.errors import UnknownNameError

DATASETS = ["2wikimultihopqa", "bundled", "hopkit", "hotpotqa-distractor", "hotpotqa-fullwiki", "ircot", "musique"]


def test_a_shortened_name_suggests_the_names_it_begins():
    message = str(UnknownNameError("dataset", "hotpot", DATASETS))
    assert "Did you mean 'hotpotqa-distractor' or 'hotpotqa-fullwiki'?" in message
    assert "Known: 2wikimultihopqa, bundled" in message


def test_a_misspelled_name_suggests_the_closest_spelling():
    assert "Did you mean 'musique'?" in str(UnknownNameError("dataset", "musiqe", DATASETS))


def test_a_name_like_nothing_known_gets_no_suggestion():
    message = str(UnknownNameError("method", "zzzz", ["ircot", "searchain"]))
    assert "Did you mean" not in message and message.endswith("Known: ircot, searchain.")
