from hopkit.text.question_form import EITHER_OR, OPEN, YES_NO, question_form


def test_auxiliary_first_word_asks_yes_or_no():
    assert question_form("Are Waste Land and Shikashika both types of drinks?") == YES_NO
    assert question_form("  Do the operas Vanessa and Le roi malgré lui contain that same number of acts?") == YES_NO


def test_two_named_options_ask_either_or():
    assert question_form("Which band has more members, Lawson or American Music Club?") == EITHER_OR
    assert question_form("Who was born first Doug Liman or Saul Metzstein?") == EITHER_OR


def test_everything_else_is_open():
    assert question_form("The Polar Bear and Daiquiri are both examples of what?") == OPEN
    assert question_form("Who was married to a founding member of Nirvana?") == OPEN
    assert question_form("") == OPEN
