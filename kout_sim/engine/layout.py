"""Named offsets of the kernel arrays: the action space, the rule parameters and the hand state.

Everything a kernel reads is a plain ``int64`` numpy array indexed by these constants (numba folds
module-level ints into the compiled code), so a kernel branches on rule data, not on game names.

Action space (one integer space for every decision)::

    0 .. 54            a card id (kout_sim.cards): a card play
    CALL + 0           pass
    CALL + b           a bid of b tricks (b = 1 .. 15)
    CALL + TRUMP + s   trump choice, suit s (0..3 = S H D C)

Within one decision the legal set is an ``int64`` bitmask relative to the phase: bit ``card`` in the
play phase, bit ``call index`` (0 = pass, b = bid, TRUMP + s) in the call phases.
"""

from __future__ import annotations

# ---- action space --------------------------------------------------------------------------------
CALL = 64  # first call action: CALL + call index
PASS = 0  # call index of a pass
TRUMP = 16  # call index of the first trump choice (TRUMP + suit)

# Baloot call indices (phase-relative bits in the auction and doubling phases), see docs/baloot.md
BC_PASS = 0
BC_HOKUM = 1  # round 1: trump = the face-up suit
BC_SUN = 2
BC_ASHKAL = 3
BC_CONFIRM = 4
BC_HOKUM_SUIT = 5  # round 2: BC_HOKUM_SUIT + suit
BC_DOUBLE = 9
BC_DOUBLE_CLOSED = 10
BC_TRIPLE = 11
BC_FOUR = 12
BC_FOUR_CLOSED = 13
BC_GAHWA = 14
BC_KAWESH = 15  # RULES.md 3.2.7: a first five of 7s, 8s and 9s voids the hand, same dealer
BALOOT_CALL_NAMES = (
    "pass",
    "hokum",
    "sun",
    "ashkal",
    "confirm",
    "hokum:S",
    "hokum:H",
    "hokum:D",
    "hokum:C",
    "double",
    "double_closed",
    "triple",
    "four",
    "four_closed",
    "gahwa",
    "kawesh",
)

# ---- families -----------------------------------------------------------------------------------
FAMILY_KOUT = 0
FAMILY_BALOOT = 1

# ---- phases ------------------------------------------------------------------------------------
PH_AUCTION = 0
PH_TRUMP = 1
PH_PLAY = 2
PH_OVER = 3
PH_COMPLETION = 4  # Baloot: the auction is over, the completion cards are due
PH_DOUBLING = 5  # Baloot: the doubling ladder
PHASE_NAMES = ("auction", "trump", "play", "over", "completion", "doubling")

# ---- joker models --------------------------------------------------------------------------------
JOKER_LADDER = 0  # Kout Bo: RJ > trump A > BJ, leads restricted (RULES.md 1.6-1.8)
JOKER_SINGLE = 1  # Bahraini: JK wins any trick, never led but forced (RULES.md 2.7-2.8)

# ---- dealer rotation -------------------------------------------------------------------------------
ROTATE_NEXT = 0  # RULES.md 1.2: deal passes to dealer+1
ROTATE_OWNERSHIP = 1  # RULES.md 2.12: by score ownership

# ---- match end reasons -------------------------------------------------------------------------------
REASON_NONE = 0
REASON_TARGET = 1
REASON_KOUT = 2
REASON_BAWAN_FIRST = 3
REASON_INZILI = 4
REASON_FORCED_JOKER = 5
REASON_GAHWA = 6
REASON_NAMES = (None, "target", "kout", "bawan_first_hand", "inzili", "forced_joker", "gahwa")

# ---- rule parameters P (int64) -----------------------------------------------------------------------
P_N_PLAYERS = 0
P_N_TRICKS = 1
P_BID_MIN = 2
P_BID_MAX = 3
P_MALZOOM = 4  # 1: a forced dealer bid of exactly BID_MIN is Malzoom (RULES.md 1.3)
P_MALZOOM_MADE = 5
P_MALZOOM_FAILED = 6
P_TRUMP_MUST_HOLD = 7  # 1: trump must be a suit the bidder holds (RULES.md 2.4)
P_FIRST_LEAD = 8  # first leader = bidder + this (RULES.md 1.4: 0, 2.5: 1)
P_JOKER_MODEL = 9
P_RJ_LEAD_BID = 10  # contract from which the bidding team may lead RJ (RULES.md 1.6(b))
P_BJ_LEAD_BID = 11  # contract from which the bidding team may lead BJ (RULES.md 1.6(a))
P_JOKER_SCOPE_ANYONE = 12  # 1: 1.6(a)(b) apply to every seat
P_FREE_JOKER_HONOURS = 13  # trump honours (from the Ace down) whose fall frees joker leads, 1.6(c)
P_PLAY_ALL = 14  # 1: no early stop (RULES.md 1.11 option play_all_tricks)
P_TARGET = 15
P_SIGNED_SCORE = 16  # 1: one signed counter (RULES.md 2.10)
P_ROTATION = 17
P_BAWAN_FIRST = 18  # a made contract of this size on the first hand wins the match (0 = none)
P_KOUT_AT = 19  # a team at >= this while the other has exactly 0 wins (0 = none)
P_INSTANT_BID = 20  # a contract of this size decides the match: made wins, failed loses (0 = none)
P_DECK = 21  # deck mask
P_N_CARDS = 22
P_SUIT_MASK = 24  # 4 entries: deck cards of each suit
P_JOKER_MASK = 28  # jokers of the deck
P_DRAW_JOKER_RANK = 29  # rank value of a joker in the first-dealer draw (Ace = 14)
P_FIRST_DEALER = 30  # -1 low draw, -2 uniformly random seat, else the fixed seat
P_MADE = 32  # 16 entries: points banked by the bidding team for a made contract b
P_FAILED = 48  # 16 entries: points banked by the defenders for a failed contract b
P_FAMILY = 64
# Baloot options (RULES.md §3, docs/baloot.md)
P_SUN_BEFORE_YOU = 65
P_ACE_P1_ONLY = 66
P_DOUBLING = 67
P_MERCY = 68
P_UNDERTRUMP = 69
P_OVERTRUMP_LEAD = 70  # 0 vs_opponent, 1 always, 2 never
P_BALOOT_ON_LOSS = 71  # 0 owner, 1 void, 2 winner
P_TIE = 72  # 0 split, 1 buyer_loses, 2 buyer_loses_hokum_only
P_KABOOT_ALL = 73  # 1 all, 0 own
P_DOUBLED_PROJ_MULT = 74  # 0 by_level, 1 multiplied
P_GAHWA_BANK = 75  # 0: the Gahwa winner wins the match; else the points banked instead
P_SECOND_SUN = 76  # 1: second_sun_chance, the passers before a round-1 Hokum are asked for Sun
P_KAWESH = 77  # 1: option kawesh (RULES.md 3.2.7)
P_SIZE = 80

FIRST_DEALER_LOW_DRAW = -1
FIRST_DEALER_RANDOM = -2

# ---- card tables STR (int64[16, 256]) ---------------------------------------------------------------------
# STR[row, card] for row = trump suit 0..3 (T_NO_TRUMP: Sun): > 0 for cards that rank as trump or joker
# under that trump; other cards rank by STR[T_LED, card] when of the led suit, else 0 (never win).
# STR[T_POINTS + row, card]: card points (Baloot). STR[T_RUN1 / T_RUN2, pattern]: the maximal runs of
# an 8-bit rank pattern of one suit (7 .. A), as project codes (Baloot projects, 0 = none).
# STR[T_ABOVE_LED / T_ABOVE_TRUMP, card] (Baloot): the cards of its suit that outrank it (a card
# mask), by the order of a plain suit and by the order of the trump suit (RULES.md 3.1).
T_LED = 4
T_NO_TRUMP = 5
T_POINTS = 6
T_RUN1 = 12
T_RUN2 = 13
T_ABOVE_LED = 14
T_ABOVE_TRUMP = 15
T_ROWS = 16
T_COLS = 256
STRENGTH_TRUMP_BASE = 50
# project codes: class * 1000 + 100 * (sequence) + top (rank index 0..7 of 7..A in sequence order)
PROJ_SIRA = 1
PROJ_FIFTY = 2
PROJ_HUNDRED = 3
PROJ_FOUR_HUNDRED = 4
PROJ_NAMES = ("", "sira", "fifty", "hundred", "four_hundred")

# ---- hand state S (int64) -------------------------------------------------------------------------------
S_PHASE = 0
S_DEALER = 1
S_TO_ACT = 2
S_N_CALLS = 3
S_HIGH_BID = 4  # standing bid (0 = none)
S_BIDDER = 5
S_MALZOOM = 6
S_TRUMP = 7
S_LEADER = 8
S_N_IN_TRICK = 9
S_LED = 10  # led suit of the current trick (-1 = none yet)
S_TRUMP_LEAD = 11  # 1: the trick was opened by a permitted joker lead (RULES.md 1.7)
S_RANKLESS = 12  # 1: the trick was opened by an unleadable joker (RULES.md 1.8)
S_N_DONE = 13  # completed tricks
S_PLAYED = 14  # mask of the cards of completed tricks
S_MADE = 15  # -1 unknown, 0 failed, 1 made
S_MATCH_WINNER = 16  # team that wins the match by this hand alone (-1 none)
S_FORCED_JOKER = 17  # 1: a forced joker lead ended the hand (RULES.md 2.8)
S_N_ACTIONS = 18
S_TRICKS = 20  # 2 entries: tricks per team
S_POINTS = 22  # 2 entries: points banked this hand per team
S_HAND = 24  # 6 entries: each seat's cards
S_TRICK = 30  # 6 entries: cards of the current trick in play order
S_WINNERS = 36  # 16 entries: seat winning each completed trick
S_JOKER_LEADS = 52  # mask of joker ids led this hand with permission
S_JOKER_FORCED = 53  # mask of joker ids led rankless (RULES.md 1.8)
# What the plays so far have shown about the hands (public; kout_sim.players.sampler reads it):
#   bit seat * 8 + k, k = 0..3: the seat holds no card of suit k (failed to follow, RULES.md 1.5,
#       2.6, 3.4.1; or a lead that was legal only without such cards, 1.8, 3.3.1);
#   bit seat * 8 + 4 + j, j = 0..2: the seat holds no joker 52 + j (BJ, RJ, JK; 1.8);
#   bit seat * 8 + 7: the seat has played a card of the trump suit (2.4 is then fulfilled);
#   Baloot only (4 seats, so bits 32.. are free): bit 32 + seat * 8 + r: the seat holds no trump
#       of rank index r + 5 (7 .. A), shown by a play legal only without a higher trump (3.4.2-3).
# Entered by engine.game.record_play where a state may be sampled (a search's position, a loop that
# may stop mid-hand, NumbaHand), not by apply_card: a hand played out without a search has none.
S_VOIDS = 54
# Baloot (docs/baloot.md); S_TRUMP holds the table row (trump suit, or T_NO_TRUMP in Sun)
B_FACE_UP = 56
B_ROUND = 57
B_STAGE = 58  # auction stage: 0 bidding, 1 Sun-before-you claims, 2 the Hokum bidder confirms,
#   3 second_sun_chance (the passers before a round-1 Hokum are asked for Sun)
B_HOKUM_BIDDER = 59
B_HOKUM_SUIT = 60
B_SUN_CALLER = 61
B_SUN_ASHKAL = 62
B_PASSED = 63  # mask of seats that passed in this round
B_MODE = 64  # 0 none / void, 1 Sun, 2 Hokum
B_ASHKAL = 65
B_VOID = 66  # 1: void (all passed twice), 2: void by a Kawesh (RULES.md 3.2.7: same dealer)
B_TAKER = 67  # seat that takes the face-up card
B_DOUBLER = 68
B_DOUBLE = 69  # multiplier 1..4
B_GAHWA = 70
B_CLOSED = 71
B_DBL_STAGE = 72
B_CARD_PTS = 73  # 2 entries
B_PROJ_TEAM = 75  # team whose projects count (-1 none)
B_BALOOT_SEAT = 76  # seat holding a Baloot (-1 none)
B_KABOOT = 77  # team taking all tricks (-1 none)
B_MATCH_SCORE = 78  # 2 entries: match points before the hand (the Sun doubling gate)
B_PROJ = 80  # 8 entries: seat * 2 + k, the project codes of each seat's reading
B_PROJ_RAW = 88  # 2 entries: raw value of each team's counted projects
B_PROJ_GP = 90  # 2 entries: game points of each team's counted projects
B_STOCK = 92  # 11 entries: the undealt cards in dealing order (simulation)
B_BALOOT_TO = 103  # team whose points include the Baloot (-1 none)
S_SIZE = 104
# Kout only (public record of the hand, read by the auction-aware sampler kout_sim.players.auction;
# these slots are Baloot's B_STOCK in the other family, which never writes them in Kout):
K_CALL_LOG = (
    92  # the auction calls in order, one byte each (call index + 1; 0 = none), from dealer+1
)
K_SEAT_PLAYED = 93  # 6 entries: the cards each seat has played this hand (current trick included)

MODE_SUN = 1
MODE_HOKUM = 2

# ---- match state MS (int64) -------------------------------------------------------------------------------
M_SCORE = 0  # 2 entries (signed-score presets use M_SCORE only)
M_DEALER = 2
M_N_HANDS = 3
M_WINNER = 4  # -1 while running
M_REASON = 5
M_SIZE = 8

# ---- per-hand result row R (int64), as recorded by the batch drivers --------------------------------------
R_DEALER = 0
R_BIDDER = 1
R_CONTRACT = 2
R_MALZOOM = 3
R_TRUMP = 4
R_TRICKS = 5  # 2 entries
R_N_DONE = 7
R_MADE = 8  # -1 when a forced joker lead ended the hand
R_POINTS = 9  # 2 entries
R_MATCH_WINNER = 11
R_FORCED_JOKER = 12
R_JOKER_LEADS = 13
R_JOKER_FORCED = 14
R_N_ACTIONS = 15
R_HAND = 16  # 6 entries: dealt hands
R_MATCH = 22  # match index (stream index of the match)
R_HAND_IDX = 23  # hand number within the match
R_SCORE_BEFORE = 24  # 2 entries (signed-score presets: entry 0 only)
R_SCORE_AFTER = 26  # 2 entries
R_MODE = 28  # Baloot: 0 void, 1 Sun, 2 Hokum
R_CARD_PTS = 29  # 2 entries
R_DOUBLE = 31
R_GAHWA = 32
R_KABOOT = 33
R_PROJ_TEAM = 34
R_PROJ_GP = 35  # 2 entries
R_BALOOT_SEAT = 37
R_ASHKAL = 38
R_FACE_UP = 39
R_CALLS = 40  # 4 entries: the calls in order, 8 per entry, one byte each (call index + 1; 0 = none)
R_WINNERS = 44  # 2 entries: seat winning each completed trick, one byte each (seat + 1; 0 = none)
R_N_CALLS = 46
R_BIDDER_PROJ = 48  # Baloot: 2 entries, the buyer's project codes (0 = none)
R_FIRST_DEAL = 50  # Baloot: 4 entries, each seat's five-card first deal (RULES.md 3.2.1)
# the bidder's hand features (-1: does not apply) and the joker holders
R_B_TRUMP_LEN = 54
R_B_HONOURS = 55  # top four trumps held: A K Q J (Kout), J 9 A T (Baloot Hokum)
R_B_JOKERS = 56
R_B_SIDE_ACES = 57
R_B_SIDE_KINGS = 58
R_B_VOIDS = 59
R_B_CARD_PTS = 60  # Baloot: card points of the buyer's eight cards under the mode
R_HOLDER = 61  # 3 entries: seat dealt BJ, RJ, JK (-1: not in the deck)
R_SIZE = 64
MAX_CALLS = 32  # calls recorded in R_CALLS (a hand never has more)

# ---- traced decisions (the actions table): one int32 per decision ------------------------------------
# bits 0-7: the global action id (card id, or CALL + call index); 8-11: the seat; 12-19: legal actions
MAX_ACTIONS = 96  # decisions traced per hand (a hand never has more: 54 cards + calls in kout_bo_6)

# ---- per-match result row (int64) ---------------------------------------------------------------------------
X_MATCH = 0
X_FIRST_DEALER = 1
X_N_HANDS = 2
X_WINNER = 3
X_REASON = 4
X_SCORE = 5  # 2 entries
X_SIZE = 8
