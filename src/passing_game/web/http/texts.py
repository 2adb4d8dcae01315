"""Every text the page shows, for the catalog at ``/api/i18n``.

The page never carries its own wording: it asks the server for this
catalog, whose values go through ``passing_game.i18n._`` in the language
asked for, so gettext catalogs translate the page like the terminal game.
Keys are the English texts themselves, except the rules variants (their
values in ``Rules``, which are not sentences). ``{name}`` placeholders are
filled in by the page. Texts with a count are ``web.http.i18n.PAGE_PLURALS``.
"""

from __future__ import annotations

from passing_game.i18n import N_
from passing_game.web.botapi.words import BOT_TEXTS
from passing_game.web.chat.words import CHAT_TEXTS
from passing_game.web.ladder.words import LADDER_TEXTS
from passing_game.web.learn.words import LEARN_TEXTS
from passing_game.web.practice.words import PRACTICE_TEXTS
from passing_game.web.profiles.words import PROFILE_TEXTS
from passing_game.web.puzzles.words import PUZZLE_TEXTS
from passing_game.web.ratings.words import RATING_TEXTS
from passing_game.web.reputation import REPUTATION_TEXTS
from passing_game.web.review.words import REVIEW_TEXTS
from passing_game.web.social.words import SOCIAL_TEXTS
from passing_game.web.table.fairness import FAIRNESS_TEXTS
from passing_game.web.tournament.words import TOURNAMENT_TEXTS

#: Page text key -> English text (marked for extraction, translated on request).
PAGE_TEXTS: dict[str, str] = {
    "Seat {n}": N_("Seat {n}"),
    "You": N_("You"),
    "A person (invite with the code)": N_("A person (invite with the code)"),
    "Bot: {level}": N_("Bot: {level}"),
    "Who sits in seat {n}": N_("Who sits in seat {n}"),
    "your partner": N_("your partner"),
    "opponent": N_("opponent"),
    "Players": N_("Players"),
    "New table": N_("New table"),
    # The lobby's list of the tables where you hold a seat (issue 24, item 2; yours.js).
    "Your games": N_("Your games"),
    "The game is over.": N_("The game is over."),
    "Waiting for the other players.": N_("Waiting for the other players."),
    "Adjourned: it waits for you.": N_("Adjourned: it waits for you."),
    "Your turn.": N_("Your turn."),
    # TRANSLATORS: {player} is a name (a person's, or a bot's such as "Easy bot").
    "{player} to move.": N_("{player} to move."),
    # TRANSLATORS: a button: go back to an adjourned game.
    "Resume": N_("Resume"),
    # TRANSLATORS: a button: go back to a game that goes on.
    "Continue": N_("Continue"),
    # TRANSLATORS: a button: open a finished game's table.
    "Look": N_("Look"),
    # The lobby's first card: a game against the computer in one tap (issue 24, item 1).
    "Play the computer": N_("Play the computer"),
    # TRANSLATORS: the button that starts a game against the chosen level.
    "Play": N_("Play"),
    "Your name": N_("Your name"),
    "Seats": N_("Seats"),
    "Rules and variants": N_("Rules and variants"),
    "Drawing": N_("Drawing"),
    "Passing": N_("Passing"),
    "Scoring": N_("Scoring"),
    "Who leads each round": N_("Who leads each round"),
    "Target score": N_("Target score"),
    "Create table": N_("Create table"),
    "Join a friend's table": N_("Join a friend's table"),
    "Table code": N_("Table code"),
    "Join": N_("Join"),
    "Watch": N_("Watch"),
    "The Passing Game": N_("The Passing Game"),
    "A domino game for 2 to 4 players. Play friends or bots in your browser.": N_(
        "A domino game for 2 to 4 players. Play friends or bots in your browser."
    ),
    "Please give your name.": N_("Please give your name."),
    "{tile} does not fit either end.": N_("{tile} does not fit either end."),
    "Wait for your turn.": N_("Wait for your turn."),
    "The train": N_("The train"),
    "The train is empty: any tile may lead.": N_("The train is empty: any tile may lead."),
    "Left end shows {n}": N_("Left end shows {n}"),
    "Last tile played": N_("Last tile played"),
    "Right end shows {n}": N_("Right end shows {n}"),
    "bot": N_("bot"),
    "waiting to join": N_("waiting to join"),
    "online": N_("online"),
    "offline": N_("offline"),
    "{name} (you)": N_("{name} (you)"),
    "to move": N_("to move"),
    "Team {a}+{b}": N_("Team {a}+{b}"),
    "Boneyard": N_("Boneyard"),
    "{d} to draw · {l} locked": N_("{d} to draw · {l} locked"),
    "Your hand": N_("Your hand"),
    "fits both ends": N_("fits both ends"),
    "can lead": N_("can lead"),
    "fits the left end": N_("fits the left end"),
    "fits the right end": N_("fits the right end"),
    "fits": N_("fits"),
    "No tiles in hand.": N_("No tiles in hand."),
    "Which end?": N_("Which end?"),
    "Play {tile} on which end? Tap an end of the train, or:": N_(
        "Play {tile} on which end? Tap an end of the train, or:"
    ),
    "Left end: it will show {n}": N_("Left end: it will show {n}"),
    "Right end: it will show {n}": N_("Right end: it will show {n}"),
    "Play on the left end: it will show {n}": N_("Play on the left end: it will show {n}"),
    "Play on the right end: it will show {n}": N_("Play on the right end: it will show {n}"),
    "{tile} does not fit that end.": N_("{tile} does not fit that end."),
    "Cancel": N_("Cancel"),
    "Score pad · first to {n}": N_("Score pad · first to {n}"),
    "Round": N_("Round"),
    "Total": N_("Total"),
    "Moves this round": N_("Moves this round"),
    "No moves yet this round.": N_("No moves yet this round."),
    "empty": N_("empty"),
    "Rematch": N_("Rematch"),
    "Rematch offered": N_("Rematch offered"),
    "Accept the rematch": N_("Accept the rematch"),
    "A rematch starts when everyone accepts. Waiting for: {names}": N_(
        "A rematch starts when everyone accepts. Waiting for: {names}"
    ),
    "This game is not rated: a player never made a move.": N_(
        "This game is not rated: a player never made a move."
    ),
    "guest": N_("guest"),
    "Playing without an account": N_("Playing without an account"),
    "account suspended": N_("account suspended"),
    "Download the record": N_("Download the record"),
    "Back to the lobby": N_("Back to the lobby"),
    "Close": N_("Close"),
    "Next round": N_("Next round"),
    "The next round has started.": N_("The next round has started."),
    "Round {n} is over": N_("Round {n} is over"),
    "Hands revealed": N_("Hands revealed"),
    "Locked in the boneyard, never drawn:": N_("Locked in the boneyard, never drawn:"),
    "Table": N_("Table"),
    "Copy link": N_("Copy link"),
    "connected": N_("connected"),
    "reconnecting…": N_("reconnecting…"),
    "Round {n}": N_("Round {n}"),
    "Shortcut: D": N_("Shortcut: D"),
    "Draw": N_("Draw"),
    "Shortcut: P": N_("Shortcut: P"),
    "Pass": N_("Pass"),
    "Shortcut: H": N_("Shortcut: H"),
    # The tile tracker (issue 24, item 5; static/tracker.js).
    # TRANSLATORS: the button that opens the tile tracker.
    "Tiles": N_("Tiles"),
    "Shortcut: T": N_("Shortcut: T"),
    "Tile tracker": N_("Tile tracker"),
    "Each number is on seven tiles": N_("Each number is on seven tiles"),
    # TRANSLATORS: a column heading of the tile tracker: the number of pips (0 to 6).
    "Number": N_("Number"),
    "On the train": N_("On the train"),
    "In your hand": N_("In your hand"),
    # TRANSLATORS: tiles this player has not seen: in other hands or the boneyard.
    "Unseen": N_("Unseen"),
    # TRANSLATORS: no tiles in this list.
    "None": N_("None"),
    "Numbers the others may lack": N_("Numbers the others may lack"),
    # TRANSLATORS: a player's name, then the numbers (0 to 6) they may lack.
    "{name}: {numbers}": N_("{name}: {numbers}"),
    "A player who passed or drew with a number open, and has not laid that number since, may lack it.": N_(  # noqa: E501
        "A player who passed or drew with a number open, and has not laid that number since, may lack it."  # noqa: E501
    ),
    "Nobody has passed or drawn on an open number yet.": N_(
        "Nobody has passed or drawn on an open number yet."
    ),
    "Passing and drawing are allowed even with a tile that fits, so this is a clue, not a certainty.": N_(  # noqa: E501
        "Passing and drawing are allowed even with a tile that fits, so this is a clue, not a certainty."  # noqa: E501
    ),
    "Counting the tiles…": N_("Counting the tiles…"),
    "Hint": N_("Hint"),
    "Your pips: {n}": N_("Your pips: {n}"),
    "You are watching this table. Hands stay hidden.": N_(
        "You are watching this table. Hands stay hidden."
    ),
    "Share this code or link with your friends:": N_("Share this code or link with your friends:"),
    "Last round's result": N_("Last round's result"),
    "Moves": N_("Moves"),
    "Table {code}": N_("Table {code}"),
    "Take a seat": N_("Take a seat"),
    "Link copied.": N_("Link copied."),
    "Connecting…": N_("Connecting…"),
    # The language switch and the rules panel (web/http/i18n.py; counted texts are there too).
    "Language": N_("Language"),
    "Rules of the game": N_("Rules of the game"),
    "rule.draw.ends-turn": N_("A draw ends the turn"),
    "rule.draw.continue": N_("After a draw, the drawer acts again"),
    "rule.passing.free": N_("Pass whenever you like"),
    "rule.passing.forced": N_("Pass only when you cannot play or draw"),
    "rule.scoring.literal": N_("Winner scores the others' sum minus their own"),
    "rule.scoring.pairwise": N_("Winner scores the difference to each other count"),
    "rule.leader.random": N_("At random every round"),
    "rule.leader.rotate": N_("The next seat clockwise"),
    "rule.leader.winner": N_("The last round's winner"),
    "Target preset": N_("Target preset"),
    "Used when no target score is given": N_("Used when no target score is given"),
    "rule.target_preset.seeds": N_("101 for 2-3 players, 61 for 4"),
    "rule.target_preset.alternate": N_("101 for 2 players or partnerships, 61 otherwise"),
    # The table as it plays (issue 11): connection, seats, moves, clocks, leaving.
    "Partnerships (seats 1+3 against 2+4)": N_("Partnerships (seats 1+3 against 2+4)"),
    "Clock": N_("Clock"),
    "No clock": N_("No clock"),
    "When someone's time runs out, the game makes a move for them.": N_(
        "When someone's time runs out, the game makes a move for them."
    ),
    "Connection lost: reconnecting…": N_("Connection lost: reconnecting…"),
    "Nothing you click is sent until the connection is back.": N_(
        "Nothing you click is sent until the connection is back."
    ),
    "Try again now": N_("Try again now"),
    "Not sent: you are offline.": N_("Not sent: you are offline."),
    # TRANSLATORS: a bubble on an opponent's seat for a moment, just after it passed.
    "Passes": N_("Passes"),
    # TRANSLATORS: a bubble on an opponent's seat for a moment, just after it drew.
    "Draws a tile": N_("Draws a tile"),
    # TRANSLATORS: before a seat's last move of the round, e.g. "Last move: pass".
    "Last move:": N_("Last move:"),
    "Last moves": N_("Last moves"),
    # The last.* phrases fill three slots: after "Last move:" on your own seat card, after
    # "Last move:" on the others' cards, and after a seat's name in the recent moves, where
    # your own seat is named "You". So each is a noun phrase that fits every person.
    # TRANSLATORS: any seat's last move, after "Last move:" or a name, "You" included: a noun
    # phrase, not a verb, e.g. gl "pase".
    "last.pass": N_("passed"),
    # TRANSLATORS: another seat's last move, after "Last move:" or its name: a noun phrase.
    "last.draw": N_("drew a tile"),
    # TRANSLATORS: your own last move, after "Last move:" or "You"; {tile} is like [2|3].
    "last.drawn": N_("drew {tile}"),
    # TRANSLATORS: any seat's last move, after "Last move:" or a name; {tile} is like [3|5].
    "last.left": N_("{tile} on the left"),
    # TRANSLATORS: any seat's last move, after "Last move:" or a name; {tile} is like [3|5].
    "last.right": N_("{tile} on the right"),
    # TRANSLATORS: the round's first tile, after "Last move:" or a name; {tile} is like [3|5].
    "last.lead": N_("{tile} to lead"),
    # TRANSLATORS: after a move the clock made for a person who ran out of time.
    "(auto-played)": N_("(auto-played)"),
    # TRANSLATORS: after a move a stand-in bot made for a person who is away.
    "(stand-in)": N_("(stand-in)"),
    "Stand-in bot playing": N_("Stand-in bot playing"),
    "left the table": N_("left the table"),
    # TRANSLATORS: a person's seat status when the game waits for them (nobody else is a person).
    "away: the game waits": N_("away: the game waits"),
    # TRANSLATORS: a seat's clock while it is not running, e.g. "0:20 a move, 0:40 in the bank".
    "{move} a move, {bank} in the bank": N_("{move} a move, {bank} in the bank"),
    "The game is adjourned.": N_("The game is adjourned."),
    "It waits for you: nothing is played until you are back.": N_(
        "It waits for you: nothing is played until you are back."
    ),
    "Resume the game": N_("Resume the game"),
    # TRANSLATORS: {name} is the person's name, as on their seat.
    "The game is adjourned until {name} is back.": N_(
        "The game is adjourned until {name} is back."
    ),
    "Are you still there?": N_("Are you still there?"),
    "Your move time is spent. When your bank runs out too, the game is adjourned until you are back.": N_(  # noqa: E501
        "Your move time is spent. When your bank runs out too, the game is adjourned until you"
        " are back."
    ),
    "The game is adjourned and waits for you: the table's link brings you back to it.": N_(
        "The game is adjourned and waits for you: the table's link brings you back to it."
    ),
    "ran out of time": N_("ran out of time"),
    "invited, not here yet": N_("invited, not here yet"),
    # TRANSLATORS: on a running clock once the time for the move is used up.
    "bank": N_("bank"),
    "Time bank": N_("Time bank"),
    "Sounds": N_("Sounds"),
    "Menu": N_("Menu"),
    "Tell me when it is my turn": N_("Tell me when it is my turn"),
    "Notifications are blocked in this browser.": N_("Notifications are blocked in this browser."),
    # TRANSLATORS: the browser tab's title while it is hidden, and a notification.
    "Your turn": N_("Your turn"),
    "Passing now ends the round": N_("Passing now ends the round"),
    "The round ends and every hand is counted as it is now.": N_(
        "The round ends and every hand is counted as it is now."
    ),
    "Pass anyway": N_("Pass anyway"),
    "Leave the table": N_("Leave the table"),
    "Leave the table?": N_("Leave the table?"),
    "A stand-in bot plays for you, and the others are told. The table's link brings you back.": N_(
        "A stand-in bot plays for you, and the others are told. The table's link brings you back."
    ),
    "Your seat opens for someone else.": N_("Your seat opens for someone else."),
    "You left the table.": N_("You left the table."),
    "Take my seat back": N_("Take my seat back"),
    "Resign": N_("Resign"),
    "Resign the game?": N_("Resign the game?"),
    "Your opponent wins the game now.": N_("Your opponent wins the game now."),
    "You resigned.": N_("You resigned."),
    "{name} resigned.": N_("{name} resigned."),
    "Seat options": N_("Seat options"),
    "Invite someone to this seat": N_("Invite someone to this seat"),
    "Whoever opens the link takes this seat.": N_("Whoever opens the link takes this seat."),
    "Make an invitation link": N_("Make an invitation link"),
    "Let a bot play this seat": N_("Let a bot play this seat"),
    "The bot plays this seat for the rest of the game.": N_(
        "The bot plays this seat for the rest of the game."
    ),
    "Level": N_("Level"),
    "Hand the seat to the bot": N_("Hand the seat to the bot"),
    "You are invited to take seat {n}.": N_("You are invited to take seat {n}."),
    "You are invited to take a seat at this table.": N_(
        "You are invited to take a seat at this table."
    ),
    # TRANSLATORS: a score pad column for a partnership: "Your team" or "Team" over "Seats 1+3".
    "Your team": N_("Your team"),
    "Team": N_("Team"),
    "Seats {a}+{b}": N_("Seats {a}+{b}"),
    # Quick play, the public tables and the daily deal
    # (issue 13: web/quickplay/service.py, web/daily.py).
    "Play now": N_("Play now"),
    "Sit down with other people who want to play now.": N_(
        "Sit down with other people who want to play now."
    ),
    "Playing as {name}": N_("Playing as {name}"),
    "Rated game": N_("Rated game"),
    "Sign in to play rated games.": N_("Sign in to play rated games."),
    "Looking for players…": N_("Looking for players…"),
    "Rated": N_("Rated"),
    # TRANSLATORS: a quick-play game that does not count for the ratings.
    "Casual": N_("Casual"),
    # TRANSLATORS: how long the person has waited for players, e.g. "Waiting for 0:42".
    "Waiting for {time}": N_("Waiting for {time}"),
    "Nobody else yet? Bots can fill the empty seats.": N_(
        "Nobody else yet? Bots can fill the empty seats."
    ),
    "A game with bots is not rated.": N_("A game with bots is not rated."),
    "Fill the empty seats with bots": N_("Fill the empty seats with bots"),
    "Stop waiting": N_("Stop waiting"),
    "List this table": N_("List this table"),
    "Anyone can find a listed table in the public tables, to join or to watch.": N_(
        "Anyone can find a listed table in the public tables, to join or to watch."
    ),
    "Public tables": N_("Public tables"),
    "Refresh": N_("Refresh"),
    "No public tables right now.": N_("No public tables right now."),
    "Waiting for players": N_("Waiting for players"),
    "Playing": N_("Playing"),
    "Partnerships": N_("Partnerships"),
    "The server could not be reached; try again.": N_(
        "The server could not be reached; try again."
    ),
    "Daily deal": N_("Daily deal"),
    # TRANSLATORS: {day} is a date written 2026-01-31.
    "Daily deal · {day}": N_("Daily deal · {day}"),
    "One attempt per account. Ranked by net: your points minus the bot's.": N_(
        "One attempt per account. Ranked by net: your points minus the bot's."
    ),
    "Sign in to play the daily deal.": N_("Sign in to play the daily deal."),
    "Play today's deal": N_("Play today's deal"),
    "See your game": N_("See your game"),
    "Back to your game": N_("Back to your game"),
    "Previous day": N_("Previous day"),
    "Next day": N_("Next day"),
    "No results yet today.": N_("No results yet today."),
    "No results for this day.": N_("No results for this day."),
    "The day's results": N_("The day's results"),
    "Rank": N_("Rank"),
    "Net: your points minus the bot's. Matchpoints: the share of the others you beat on net, a tie counting half.": N_(  # noqa: E501
        "Net: your points minus the bot's. Matchpoints: the share of the others you beat on net, a tie counting half."  # noqa: E501
    ),
    "Net: your points minus the bot's. A rank comes once someone else has played this deal.": N_(
        "Net: your points minus the bot's. A rank comes once someone else has played this deal."
    ),
    "Player": N_("Player"),
    "Points": N_("Points"),
    # TRANSLATORS: a column of the daily deal's table: the bot's points.
    "Bot": N_("Bot"),
    # TRANSLATORS: a column of the daily deal's table: the player's points minus the bot's.
    "Net": N_("Net"),
    # TRANSLATORS: as in duplicate bridge: the share of the others beaten (a tie counts half).
    "Matchpoints": N_("Matchpoints"),
    # TRANSLATORS: a percentage, e.g. "66.7%"; {n} is already written as a number of the language.
    "{n}%": N_("{n}%"),
    # Accounts, ratings and "My games" on the page (issue 13: static/account.js).
    "Something went wrong; try again.": N_("Something went wrong; try again."),
    "Welcome, {name}! Your account is ready.": N_("Welcome, {name}! Your account is ready."),
    "Signed in as {name}.": N_("Signed in as {name}."),
    "You are signed out.": N_("You are signed out."),
    "Your password is changed.": N_("Your password is changed."),
    "Your account is deleted. Its games stay, without your name.": N_(
        "Your account is deleted. Its games stay, without your name."
    ),
    "Sign in": N_("Sign in"),
    "Your account: {name}": N_("Your account: {name}"),
    "Sign in or create an account": N_("Sign in or create an account"),
    "User name": N_("User name"),
    "Password": N_("Password"),
    "Create the account": N_("Create the account"),
    "Create an account": N_("Create an account"),
    "Your games on any device and a rating; the tables of this browser become yours.": N_(
        "Your games on any device and a rating; the tables of this browser become yours."
    ),
    "Your games on any device; the tables of this browser become yours.": N_(
        "Your games on any device; the tables of this browser become yours."
    ),
    "I have an account: sign in": N_("I have an account: sign in"),
    "New here? Create an account": N_("New here? Create an account"),
    "Leaderboard": N_("Leaderboard"),
    "My games": N_("My games"),
    "Download my games": N_("Download my games"),
    "Change the password": N_("Change the password"),
    "Sign out": N_("Sign out"),
    "Delete the account…": N_("Delete the account…"),
    "Current password": N_("Current password"),
    "New password": N_("New password"),
    # A way back in when the password is lost (web/accounts/recovery.py).
    "Your recovery codes": N_("Your recovery codes"),
    "Each code lets you back into your account once if you lose your password. Keep them somewhere safe: they are shown only now.": N_(  # noqa: E501
        "Each code lets you back into your account once if you lose your password. Keep"
        " them somewhere safe: they are shown only now."
    ),
    "I have kept them": N_("I have kept them"),
    "Lost your password?": N_("Lost your password?"),
    "Use one of the recovery codes shown when the account was made. None left? A moderator can give you one.": N_(  # noqa: E501
        "Use one of the recovery codes shown when the account was made. None left? A"
        " moderator can give you one."
    ),
    "Recovery code": N_("Recovery code"),
    "Back in with a new password": N_("Back in with a new password"),
    "You are back in, {name}: your password is changed.": N_(
        "You are back in, {name}: your password is changed."
    ),
    "Your other devices are signed out.": N_("Your other devices are signed out."),
    "Delete the account?": N_("Delete the account?"),
    "This cannot be undone. Your games stay, without your name; you leave the leaderboards.": N_(
        "This cannot be undone. Your games stay, without your name; you leave the leaderboards."
    ),
    "Your password, to confirm": N_("Your password, to confirm"),
    "Delete my account": N_("Delete my account"),
    "In progress": N_("In progress"),
    "Won": N_("Won"),
    "Lost": N_("Lost"),
    "Place {n} of {m}": N_("Place {n} of {m}"),
    "Not rated": N_("Not rated"),
    "Removed from the ratings": N_("Removed from the ratings"),
    "{before} → {after}": N_("{before} → {after}"),
    "Loading…": N_("Loading…"),
    "No games yet.": N_("No games yet."),
    "Date": N_("Date"),
    "Result": N_("Result"),
    "Rating": N_("Rating"),
    "Replay": N_("Replay"),
    "Open the table": N_("Open the table"),
    "Two players": N_("Two players"),
    "Three players": N_("Three players"),
    "Four players": N_("Four players"),
    "Four players in teams": N_("Four players in teams"),
    "Nobody is rated here yet.": N_("Nobody is rated here yet."),
    "Place": N_("Place"),
    "Games": N_("Games"),
    "Only people who are signed in sit at a rated table; the result changes their ratings.": N_(
        "Only people who are signed in sit at a rated table; the result changes their ratings."
    ),
    "Rating changes": N_("Rating changes"),
    # A rating change in words, the help, the leaderboard's note (issue 24, item 9).
    **RATING_TEXTS,
    **LEARN_TEXTS,
    **PUZZLE_TEXTS,
    **PRACTICE_TEXTS,
    **FAIRNESS_TEXTS,
    **REVIEW_TEXTS,
    **REPUTATION_TEXTS,
    **TOURNAMENT_TEXTS,
    **PROFILE_TEXTS,
    **LADDER_TEXTS,
    **CHAT_TEXTS,
    **SOCIAL_TEXTS,
    **BOT_TEXTS,
}
