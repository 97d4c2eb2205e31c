"""The Codenames word list the harness ships, grouped by topic, and a similarity built on it.

TextArena's Codenames draws its 25 board words from NLTK's Basic English word list (the
nouns a part-of-speech tagger finds in it, shorter than 8 letters), and downloads that list
and the tagger from the network when its module is imported. The harness never downloads:
it plays Codenames with the list below instead. The words are common English nouns chosen
and grouped by topic for this project (no outside list was copied); they are part of the
project and under its licence (MIT). Every word is lower case, letters only, shorter than 8
letters (as TextArena's filter keeps), and no word contains another nor a topic name, so
that a topic name is always a legal clue (TextArena refuses a clue that is part of a board
word or holds one).

The topics are the word-similarity table of the Codenames code agents: two words are
similar (1) when they share a topic and unrelated (0) otherwise.
"""

from __future__ import annotations

import functools

TOPICS: dict[str, tuple[str, ...]] = {
    "beast": (
        "horse",
        "tiger",
        "rabbit",
        "mouse",
        "donkey",
        "camel",
        "zebra",
        "monkey",
        "wolf",
        "sheep",
        "goat",
        "lion",
        "bear",
        "deer",
        "fox",
    ),
    "bird": (
        "eagle",
        "parrot",
        "owl",
        "duck",
        "goose",
        "swan",
        "raven",
        "robin",
        "pigeon",
        "turkey",
        "falcon",
        "hawk",
    ),
    "meal": (
        "bread",
        "cheese",
        "butter",
        "soup",
        "rice",
        "pasta",
        "salad",
        "cake",
        "cookie",
        "honey",
        "sugar",
        "salt",
        "pepper",
        "egg",
    ),
    "orchard": (
        "apple",
        "pear",
        "cherry",
        "plum",
        "peach",
        "lemon",
        "orange",
        "grape",
        "melon",
        "banana",
        "mango",
    ),
    "anatomy": (
        "hand",
        "foot",
        "knee",
        "elbow",
        "finger",
        "nose",
        "mouth",
        "tooth",
        "heart",
        "lung",
        "brain",
        "skin",
        "neck",
        "ankle",
    ),
    "workshop": (
        "hammer",
        "saw",
        "drill",
        "nail",
        "screw",
        "wrench",
        "chisel",
        "ladder",
        "rope",
        "bucket",
        "shovel",
        "axe",
    ),
    "dwelling": (
        "door",
        "porch",
        "roof",
        "wall",
        "floor",
        "stairs",
        "kitchen",
        "garden",
        "chimney",
        "attic",
        "cellar",
        "garage",
    ),
    "landscape": (
        "river",
        "hill",
        "valley",
        "forest",
        "desert",
        "island",
        "meadow",
        "cliff",
        "canyon",
        "volcano",
        "glacier",
        "lake",
    ),
    "climate": (
        "sleet",
        "snow",
        "storm",
        "thunder",
        "cloud",
        "wind",
        "fog",
        "frost",
        "hail",
        "drizzle",
        "tornado",
    ),
    "wardrobe": (
        "shirt",
        "jacket",
        "coat",
        "skirt",
        "sock",
        "shoe",
        "boot",
        "glove",
        "scarf",
        "dress",
        "belt",
        "collar",
    ),
    "transport": (
        "taxi",
        "bus",
        "train",
        "truck",
        "bicycle",
        "ship",
        "jet",
        "subway",
        "tram",
        "ferry",
        "rocket",
        "wagon",
    ),
    "orchestra": (
        "piano",
        "violin",
        "guitar",
        "drum",
        "flute",
        "trumpet",
        "harp",
        "cello",
        "banjo",
        "organ",
        "tuba",
    ),
    "athletics": (
        "tennis",
        "soccer",
        "golf",
        "hockey",
        "boxing",
        "rugby",
        "cricket",
        "skiing",
        "archery",
        "karate",
        "cycling",
    ),
    "trade": (
        "doctor",
        "farmer",
        "baker",
        "pilot",
        "judge",
        "nurse",
        "lawyer",
        "tailor",
        "teacher",
        "soldier",
        "ranger",
        "miner",
    ),
    "cosmos": (
        "star",
        "planet",
        "moon",
        "comet",
        "galaxy",
        "meteor",
        "orbit",
        "sun",
        "nebula",
    ),
    "office": (
        "pencil",
        "paper",
        "stapler",
        "desk",
        "folder",
        "binder",
        "printer",
        "eraser",
        "ink",
        "chalk",
    ),
    "metal": ("iron", "copper", "silver", "gold", "tin", "zinc", "steel", "bronze", "lead"),
    "furniture": (
        "chair",
        "table",
        "bed",
        "sofa",
        "shelf",
        "lamp",
        "mirror",
        "carpet",
        "closet",
        "stool",
        "bench",
    ),
    "royalty": (
        "king",
        "queen",
        "prince",
        "castle",
        "tiara",
        "throne",
        "knight",
        "palace",
        "sword",
        "shield",
    ),
    "ocean": (
        "wave",
        "shark",
        "whale",
        "coral",
        "beach",
        "harbor",
        "anchor",
        "sail",
        "oyster",
        "squid",
        "tide",
    ),
}
"""Topic name -> its words (the topic names themselves are never board words)."""


@functools.cache
def word_list() -> tuple[str, ...]:
    """Every board word, in a fixed order (topics in order, words in order)."""
    return tuple(w for words in TOPICS.values() for w in words)


@functools.cache
def topic_of() -> dict[str, str]:
    """Board word -> its topic."""
    return {w: t for t, words in TOPICS.items() for w in words}


def similarity(a: str, b: str) -> float:
    """1.0 for two words of one topic (or a word and its topic's name), else 0.0."""
    ta, tb = topic_of().get(a, a), topic_of().get(b, b)
    return 1.0 if ta == tb else 0.0


def clashes(clue: str, board: list[str] | tuple[str, ...]) -> bool:
    """True when TextArena would refuse `clue` on this board (it is part of a board word or
    holds one)."""
    return any(clue in w or w in clue for w in board)
