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


def test_titles_keep_their_commas_colons_and_question_marks():
    from hopkit.text.question_form import either_or_options

    assert either_or_options("Which film came out first, Danger: Diabolik or Goodbye, Mr. Chips?") == (
        "Danger: Diabolik", "Goodbye, Mr. Chips")
    assert either_or_options("Which film has the director who died later, What Will You Do When You Catch Me? or "
                             "School On Fire?") == ("What Will You Do When You Catch Me?", "School On Fire")
    assert either_or_options("Which album was released first, Don'T Freak Me Out or Love & War (Barlowgirl Album)?"
                             ) == ("Don'T Freak Me Out", "Love & War (Barlowgirl Album)")
    assert either_or_options("Which person, William Blake Herron or John Carpenter, held more diverse roles?") == (
        "William Blake Herron", "John Carpenter")  # the question goes on after the options


def test_a_titles_or_is_no_option_and_other_wordings_name_options():
    from hopkit.text.question_form import either_or_options

    assert question_form("When was the director of film Dead Or Alive born?") == OPEN
    assert either_or_options("Who was born first out of Heng Pov and Rajesh Bhola?") == ("Heng Pov", "Rajesh Bhola")
    assert question_form("Who was the mediator between Israel and Egypt?") == OPEN
    assert either_or_options("Was Jovita Carranza or Fidel Kuri Grajales born first?") == (
        "Jovita Carranza", "Fidel Kuri Grajales")
    assert question_form("Is tea a drink or a food?") == YES_NO  # no two names to pick from


def test_an_unsure_parse_names_no_options():
    from hopkit.text.question_form import either_or_options

    # MuSiQue's composed questions hold " or " between descriptions, not between two named options
    question = ("Who has more national championships than the school with Fort Hill or the facility in the location "
                "Edwards won the primary, but not the state with the 404 area code?")
    assert either_or_options(question) is None and question_form(question) == OPEN
    # an article before a named option is still a name
    assert either_or_options("Which canal is located further North, Beaver and Erie Canal or the Dismal Swamp "
                             "Canal?") == ("Beaver and Erie Canal", "the Dismal Swamp Canal")
