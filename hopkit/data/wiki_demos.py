"""hopkit's own demonstrations for multi-hop questions over Wikipedia, written for the project.

Ten questions about well-known Wikipedia entities, none of them asked in HotpotQA, 2WikiMultihopQA or MuSiQue dev
sets the project measures on, each with short paragraphs in the project's own words (the gold ones the chain
reads, and two distractors), and a chain of thought that names every hop's answer before the final one. The forms
are the ones multi-hop datasets share: a chain through a creator or a relative (two and three hops), a
comparison by date or by number between two named options, a comparison through a bridge entity, and yes/no
questions that compare two entities. They serve real data offline, where no dataset's train split can be loaded:
``--demos-from hopkit:wiki`` (docs/results.md, "hopkit's own demonstrations"); ``hopkit:wiki-balanced`` is the
same ten with the yes/no labels even.

The text is in the layout of the IRCoT authors' demonstration files (``# METADATA``, ``Wikipedia Title:``, ``Q:``,
``A:``), so one parser (hopkit/data/local_formats.py) reads both, and ``render()`` writes the file a pinned
checkout can read with ``--demos-from ircot-demos:FILE``.
"""

from __future__ import annotations

from dataclasses import dataclass

SPEC = "hopkit:wiki"


@dataclass(frozen=True)
class WikiDemo:
    qid: str
    question: str
    paragraphs: tuple[tuple[str, str], ...]  # (title, text): the gold ones and the distractors, in shown order
    chain: str  # sentences ending "So the answer is: <answer>."


WIKI_DEMOS: tuple[WikiDemo, ...] = (
    WikiDemo(
        "hopkit-wiki-01", "Where was the author of the novel The Old Man and the Sea born?",
        (("The Old Man and the Sea", "The Old Man and the Sea is a short novel by the American writer Ernest "
          "Hemingway, published in 1952. It follows an ageing Cuban fisherman through a long struggle with a "
          "giant marlin in the Gulf Stream."),
         ("Moby-Dick", "Moby-Dick is an 1851 novel by Herman Melville about the whaling ship Pequod and its "
          "captain's hunt for a white sperm whale."),
         ("Ernest Hemingway", "Ernest Miller Hemingway (July 21, 1899 - July 2, 1961) was an American novelist "
          "and journalist. He was born in Oak Park, Illinois, and received the Nobel Prize in Literature in 1954."),
         ("Key West", "Key West is an island city at the southern end of the Florida Keys. Several writers lived "
          "there in the 1930s.")),
        "The Old Man and the Sea was written by Ernest Hemingway. Ernest Hemingway was born in Oak Park, "
        "Illinois. So the answer is: Oak Park, Illinois."),
    WikiDemo(
        "hopkit-wiki-02", "Which novel was published first, Moby-Dick or Pride and Prejudice?",
        (("Pride and Prejudice", "Pride and Prejudice is a novel by Jane Austen, first published on 28 January "
          "1813. It follows Elizabeth Bennet and her sisters in rural England."),
         ("Sense and Sensibility", "Sense and Sensibility was Jane Austen's first published novel, issued "
          "anonymously in 1811."),
         ("Moby-Dick", "Moby-Dick is a novel by Herman Melville, first published in 1851. It is told by the "
          "sailor Ishmael."),
         ("Nantucket", "Nantucket is an island off Cape Cod that was a centre of the whaling trade in the "
          "early nineteenth century.")),
        "Moby-Dick was first published in 1851. Pride and Prejudice was first published in 1813. 1813 is "
        "earlier than 1851, so Pride and Prejudice was published first. So the answer is: Pride and Prejudice."),
    WikiDemo(
        "hopkit-wiki-03", "Which film has the director who was born earlier, Jaws or Titanic?",
        (("Jaws (film)", "Jaws is a 1975 American thriller film directed by Steven Spielberg, about a great "
          "white shark that attacks a beach resort town."),
         ("Titanic (1997 film)", "Titanic is a 1997 American romance and disaster film written and directed by "
          "James Cameron, set aboard the ocean liner that sank in 1912."),
         ("Steven Spielberg", "Steven Allan Spielberg (born December 18, 1946) is an American film director and "
          "producer, born in Cincinnati, Ohio."),
         ("James Cameron", "James Francis Cameron (born August 16, 1954) is a Canadian film director, born in "
          "Kapuskasing, Ontario."),
         ("Universal Pictures", "Universal Pictures is an American film studio founded in 1912.")),
        "Jaws was directed by Steven Spielberg. Steven Spielberg was born on December 18, 1946. Titanic was "
        "directed by James Cameron. James Cameron was born on August 16, 1954. 1946 is earlier than 1954, so the "
        "director of Jaws was born earlier. So the answer is: Jaws."),
    WikiDemo(
        "hopkit-wiki-04", "Do the Danube and the Rhine both flow into the Black Sea?",
        (("Danube", "The Danube is the second-longest river in Europe. It rises in the Black Forest in Germany "
          "and flows south-east through ten countries into the Black Sea."),
         ("Rhine", "The Rhine rises in the Swiss Alps and flows north through Germany and the Netherlands into "
          "the North Sea."),
         ("Black Forest", "The Black Forest is a wooded mountain range in south-western Germany."),
         ("Volga", "The Volga is the longest river in Europe and flows into the Caspian Sea.")),
        "The Danube flows into the Black Sea. The Rhine flows into the North Sea. So they do not both flow into "
        "the Black Sea. So the answer is: no."),
    WikiDemo(
        "hopkit-wiki-05", "In what year was the university attended by Microsoft's first chief executive founded?",
        (("Microsoft", "Microsoft is an American technology company founded in 1975 by Bill Gates and Paul "
          "Allen. Bill Gates led the company as its chief executive officer from its founding until 2000."),
         ("Bill Gates", "William Henry Gates III (born October 28, 1955) is an American businessman. He enrolled "
          "at Harvard University in 1973 and left two years later to start Microsoft."),
         ("Harvard University", "Harvard University is a private research university in Cambridge, "
          "Massachusetts. Founded in 1636, it is the oldest institution of higher learning in the United "
          "States."),
         ("Paul Allen", "Paul Gardner Allen (1953 - 2018) was an American businessman who co-founded Microsoft "
          "and later owned the Seattle Seahawks."),
         ("Yale University", "Yale University is a private university in New Haven, Connecticut, founded in "
          "1701.")),
        "Microsoft's first chief executive was Bill Gates. Bill Gates attended Harvard University. Harvard "
        "University was founded in 1636. So the answer is: 1636."),
    WikiDemo(
        "hopkit-wiki-06", "Who is the paternal grandfather of Elizabeth II?",
        (("Elizabeth II", "Elizabeth II (1926 - 2022) was Queen of the United Kingdom from 1952 until her death. "
          "She was the elder daughter of King George VI and Queen Elizabeth."),
         ("George VI", "George VI (1895 - 1952) was King of the United Kingdom from 1936 to 1952. He was the "
          "second son of King George V and Queen Mary."),
         ("Prince Philip, Duke of Edinburgh", "Prince Philip (1921 - 2021) was the husband of Elizabeth II."),
         ("Edward VIII", "Edward VIII was King of the United Kingdom for less than a year in 1936 before he "
          "abdicated.")),
        "The father of Elizabeth II is George VI. George V is the father of George VI. So the answer is: "
        "George V."),
    WikiDemo(
        "hopkit-wiki-07", "The actor who played the title role in Forrest Gump was born in which city?",
        (("Forrest Gump", "Forrest Gump is a 1994 American comedy-drama film directed by Robert Zemeckis. Tom "
          "Hanks stars as Forrest Gump, a kind man from Alabama who witnesses decades of American history."),
         ("Tom Hanks", "Thomas Jeffrey Hanks (born July 9, 1956) is an American actor, born in Concord, "
          "California."),
         ("Robert Zemeckis", "Robert Zemeckis (born May 14, 1951) is an American film director, born in "
          "Chicago, Illinois."),
         ("Greenbow, Alabama", "Greenbow is the fictional Alabama town where Forrest Gump grows up.")),
        "The title role in Forrest Gump was played by Tom Hanks. Tom Hanks was born in Concord, California. So "
        "the answer is: Concord, California."),
    WikiDemo(
        "hopkit-wiki-08", "Which mountain is higher, Mont Blanc or Mount Elbrus?",
        (("Mont Blanc", "Mont Blanc is the highest mountain of the Alps, on the border of France and Italy, at "
          "4,806 metres above sea level."),
         ("Mount Elbrus", "Mount Elbrus is a dormant volcano in the Caucasus Mountains of Russia. At 5,642 "
          "metres it is the highest peak in Europe."),
         ("Matterhorn", "The Matterhorn is a 4,478-metre peak of the Alps on the Swiss-Italian border."),
         ("Caucasus Mountains", "The Caucasus Mountains lie between the Black Sea and the Caspian Sea.")),
        "Mont Blanc is 4,806 metres high. Mount Elbrus is 5,642 metres high. 5,642 is more than 4,806, so Mount "
        "Elbrus is higher. So the answer is: Mount Elbrus."),
    WikiDemo(
        "hopkit-wiki-09", "What is the currency of the country where Mount Kilimanjaro is located?",
        (("Mount Kilimanjaro", "Mount Kilimanjaro is a dormant volcano in north-eastern Tanzania and the highest "
          "mountain in Africa."),
         ("Tanzania", "Tanzania is a country in East Africa. Its capital is Dodoma and its currency is the "
          "Tanzanian shilling."),
         ("Kenya", "Kenya is a country in East Africa whose currency is the Kenyan shilling."),
         ("Mount Kenya", "Mount Kenya is the highest mountain in Kenya and the second highest in Africa.")),
        "Mount Kilimanjaro is located in Tanzania. The currency of Tanzania is the Tanzanian shilling. So the "
        "answer is: Tanzanian shilling."),
    WikiDemo(
        "hopkit-wiki-10", "Are Akira Kurosawa and Satyajit Ray of the same nationality?",
        (("Akira Kurosawa", "Akira Kurosawa (1910 - 1998) was a Japanese film director, known for Seven Samurai "
          "and Rashomon."),
         ("Satyajit Ray", "Satyajit Ray (1921 - 1992) was an Indian film director from Calcutta, known for the "
          "Apu Trilogy."),
         ("Seven Samurai", "Seven Samurai is a 1954 Japanese film about villagers who hire samurai to defend "
          "them."),
         ("Pather Panchali", "Pather Panchali is a 1955 Bengali film, the first part of the Apu Trilogy.")),
        "Akira Kurosawa was Japanese. Satyajit Ray was Indian. Japanese and Indian are different nationalities. "
        "So the answer is: no."),
)


# The ten above hold two yes/no demonstrations, and both answer "no". A few-shot prompt whose labels lean one way
# pulls a small LM's answers that way (majority-label bias), so this set turns one of the two into a "yes" question
# of the same form, and the labels are even.
BOTH_BLACK_SEA = WikiDemo(
    "hopkit-wiki-04b", "Do the Danube and the Dnieper both flow into the Black Sea?",
    (("Danube", "The Danube is the second-longest river in Europe. It rises in the Black Forest in Germany and "
      "flows south-east through ten countries into the Black Sea."),
     ("Dnieper", "The Dnieper rises in the Valdai Hills of Russia and flows south through Belarus and Ukraine "
      "into the Black Sea."),
     ("Rhine", "The Rhine rises in the Swiss Alps and flows north through Germany and the Netherlands into the "
      "North Sea."),
     ("Volga", "The Volga is the longest river in Europe and flows into the Caspian Sea.")),
    "The Danube flows into the Black Sea. The Dnieper flows into the Black Sea. So they both flow into the Black "
    "Sea. So the answer is: yes.")

SETS: dict[str, tuple[WikiDemo, ...]] = {
    "wiki": WIKI_DEMOS,
    "wiki-balanced": tuple(BOTH_BLACK_SEA if demo.qid == "hopkit-wiki-04" else demo for demo in WIKI_DEMOS),
}


def render(demos: tuple[WikiDemo, ...] = WIKI_DEMOS) -> str:
    """The demonstrations as text in the IRCoT authors' file layout."""
    blocks = []
    for demo in demos:
        lines = [f'# METADATA: {{"qid": "{demo.qid}"}}']
        for title, text in demo.paragraphs:
            lines += [f"Wikipedia Title: {title}", text, ""]
        lines += [f"Q: {demo.question}", f"A: {demo.chain}", "", ""]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)
