"""The commands of `cattle`: name, defining module and help text, in the order `cattle --help`
lists them. Written by `python -m cli.indexer` from the commands themselves; do not edit."""

COMMANDS: tuple[tuple[str, str, str], ...] = (
    (
        "demo",
        "cli.commands",
        "Play one standard game (tracker, setrace, economy and random), store it, print the table.",
    ),
    (
        "play",
        "cli.commands",
        "Play one game and store it (Cattle Trade unless --game names another).\n\nA seat given as `human` is played by you at this terminal (docs/humans.md):\nexit code 4 if your input ended before the game did, 130 after Ctrl-C (the\ngame is still finished, your seat playing its default action, and stored).",
    ),
    ("games", "cli.commands", "List the stored games (of every game, or of one with --game)."),
    ("show", "cli.commands", "Print a game's timeline, complete or as one seat saw it."),
    (
        "replay",
        "cli.commands",
        "Show the state (or a seat's observation) at any point, or verify a stored game.",
    ),
    (
        "sql",
        "cli.commands",
        "Run one read-only SQL query over the store, in a sandbox that cannot change anything.",
    ),
    (
        "agents",
        "cli.commands",
        "List the agent names --agents accepts in a game (Cattle Trade unless --game).",
    ),
    (
        "costs",
        "cli.llm",
        "Model calls, tokens, cost, format-error and fallback rates of the stored games.\n\nThen how each decision went (ok, repaired, unparsable, illegal, truncated, refused,\ntimeout, error, budget). One section per kind of game unless --merge-games.",
    ),
    (
        "reparse",
        "cli.llm",
        "Read the stored model answers again with today's parser (no model is called).\n\nPer agent and game: the decisions that would now go otherwise (defaults that become\nmoves, moves that become defaults), with examples. The store is not written.",
    ),
    (
        "rerun",
        "cli.llm",
        "Play a stored game's seed and configuration again (same deck) with one seat changed.",
    ),
    (
        "loopback",
        "cli.llm",
        "Serve a local stand-in model (OpenAI and Anthropic protocols) that plays legal moves.\n\nIt plays every built-in game: Cattle Trade, PACT, OpenSpiel, TextArena and GameBench.",
    ),
    (
        "metrics",
        "cli.metrics",
        "Print the metric table with 95% bootstrap intervals: Cattle Trade's behaviour table\n(Table 3 columns), or another game's with --game (PACT: CMS, shares, offsets, Glicko-2).",
    ),
    (
        "export",
        "cli.metrics",
        "Write games, events, every analysis view and the derived tables to files.",
    ),
    (
        "paper",
        "cli.cattle.paper",
        "Play the paper's code-agent setting (mixed games, compositions C1..C7, a stand-in in the\nmodel's seat) and print Table 3 and the TrueSkill table beside the paper's values.",
    ),
    (
        "arena",
        "cli.textarena.arena",
        "MindGames' arena: TrueSkill per game and track, errors and roles of TextArena games.",
    ),
    (
        "recover",
        "cli.recover",
        "Mark games left running by a process that died as abandoned (events are kept).",
    ),
    (
        "resume",
        "cli.recover",
        "Continue an unfinished game with model seats from its stored events.\n\nDecisions the log already holds are answered from it (no model is asked again); play\ngoes on live from where the log ends.",
    ),
    (
        "report",
        "cli.report",
        "Write the HTML report (ratings, figures, metric tables) for a selection of games of\none game (Cattle Trade unless --game).",
    ),
    (
        "serve",
        "cli.serve",
        "Browse the stored games in a web browser: step through any game as any seat saw it,\nwith every model exchange (the store is only read; a running tournament goes on).\n\nWho may see what. Spectators (whoever can open the address) see every finished game in\nevery view; a game in play, and every game of a tournament with games still to be\nplayed, is closed to them until it has ended, or with --spectator-delay shown only as\nevery seat saw it, that many seconds behind. A person at a `human?via=web` seat plays\nthrough their seat's own link, which shows that seat's prompt alone and takes its\nanswers. The operator (who runs this command) gets the key of /seats on this terminal:\nthat page lists the seats waiting and their links, to hand each person their own.",
    ),
    (
        "publish",
        "cli.serve",
        "Write the replay viewer as static files (an index, one page and one JSON per game)\nthat any static host can serve, or a browser can open from disk.",
    ),
    (
        "tournament",
        "cli.tournament",
        "Run (or resume) a scheduled tournament and store every game.\n\nBudgets (--max-calls, --max-tokens, --max-cost) hold for all the tournament's games\ntogether: once one is reached, model seats play their recorded default for the rest,\nand each game records why (docs/bounds.md).\n\nA `human` in --agents is you, at this terminal: your games are played one at a time,\nwithout a progress bar. If your input ends or you press Ctrl-C, the game under way ends\nwith your seat playing its default, your games not begun stay unplayed (finish them with\n--resume), and the exit code is 4 (end of input) or 130 (Ctrl-C); see docs/humans.md.\n\nCattle Trade's default format is mixed, with the compositions C1 tracker+setrace+economy,\nC2 2x tracker+economy, C3 2x economy+setrace, C4 2x setrace+tracker, C5 2x\nsetrace+economy, C6 2x economy+tracker, C7 2x tracker+setrace. Other games default to\nduplicate: every lineup plays each deal once per seat rotation (in PACT, every pair\nplays both roles on the same drawn values), and team games (GameBench's Codenames and\nSea Battle) to teams: two agents a game, each filling one team, both sides of each deal.\n\n--game gamebench plays GameBench's protocol over every GameBench game (or those --only\nnames), each in its default preset: every pair of --agents plays --games matches in\nevery game, one agent a side (its copies fill a team), each deal from both sides. The\nagent `heuristic` is each game's own heuristic agent (docs/gamebench.md). A `human`\nthere plays the matches of its pairings as above (GameBench's human baseline).",
    ),
    (
        "ratings",
        "cli.tournament",
        "Ratings per agent, recomputed from the stored games (TrueSkill and Glicko-2: of one\ngame, the only one stored or the one --game names; Bradley-Terry: of every game).",
    ),
    (
        "league",
        "cli.league",
        "Run a standing league, or show it.\n\n`cattle league FILE` plays the league its file describes, one round of games after\nanother, until stopped (Ctrl-C parks the games in play: the next run continues them),\nuntil --games or --minutes, or until nobody may play; run it again to resume where it\nstopped. The file is read again before every round: agents and games added to it join.\n`cattle league table` prints the live table, per game and overall (the same figures as\n`cattle ratings --tournament LEAGUE`), `status` what runs and what was spent against the\nbudgets, `replay` chooses every stored round again and says whether the choices agree.",
    ),
    (
        "verify",
        "cli.verify",
        "Check stored games column by column and re-simulate them byte for byte.\n\nExit code 0 when every game is verified, 1 when one fails a check, 3 when one is\nunfinished (running or abandoned; accepted with --allow-unfinished). Stops at the first\nsuch game unless --keep-going.",
    ),
)
