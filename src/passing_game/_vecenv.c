/* N rounds of The Passing Game stepped by one call: the batched RL environment.
 *
 * passing_game.rl.vector_env wraps VecCore (defined here). The rules are
 * _rules.h, shared with _fastround.c and _kernel.c; this file adds what a
 * learner sees: the observation of passing_game.rl.encoding.encode (the same
 * layout, float for float), the legal-action mask and the rewards, written
 * straight into arrays the caller binds once (any object with the buffer
 * protocol; the Python wrapper checks shapes and dtypes, this file checks
 * sizes so nothing is written outside them).
 *
 * Self-play: every seat is the learner. A step acts for the seat to move;
 * the observation returned is the next seat to move's, or, once the round is
 * over, the view of the seat that made the last move. Against opponents (the
 * greedy and heuristic bots, ported here move for move, and a uniformly
 * random one, DECISIONS P35) the learner holds
 * one seat and the bots move inside step() until its turn, as in
 * PassingGame-v0. An episode is a round or a match (R8, D5). Every deal is
 * Round.new's or Match's: a 24-byte BLAKE2b digest of the seed and round
 * number (dealing.deal_digest, computed here) shuffled by rules_deal, the code
 * Round.new deals with. Each game draws its episodes' seeds (and the
 * learner's seat) as PassingGame-v0.reset draws them from its np_random:
 * from its own copy of NumPy's PCG64, which Python seeds at reset.
 * tests/test_rl_vector.py plays the batch against single Rounds, Matches,
 * encoding.encode and PassingGameEnv.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_rules.h"

#define TRAIN_MID 28
#define TABLE 256 /* entries of the pass and draw count tables (> max_round_moves) */

/* Reward kinds, in the order of vector_env.REWARDS. */
enum { R_MARGIN = 0, R_POINTS = 1, R_WIN = 2 };
/* Opponents, in the order of vector_env.OPPONENTS: none is self-play. */
enum { OPP_NONE = 0, OPP_GREEDY = 1, OPP_HEURISTIC = 2, OPP_RANDOM = 3 };
/* Rules.leader, in the order of rules.LEADER_RULES (D5). */
enum { LEAD_RANDOM = 0, LEAD_ROTATE = 1, LEAD_WINNER = 2 };

/* BLAKE2b (RFC 7693), unkeyed, for dealing.deal_digest: hashlib.blake2b(text,
 * digest_size=24). Lets a game be dealt again inside step() without Python. */
static const uint64_t B2_IV[8] = {0x6A09E667F3BCC908ull, 0xBB67AE8584CAA73Bull, 0x3C6EF372FE94F82Bull,
                                  0xA54FF53A5F1D36F1ull, 0x510E527FADE682D1ull, 0x9B05688C2B3E6C1Full,
                                  0x1F83D9ABFB41BD6Bull, 0x5BE0CD19137E2179ull};
static const uint8_t B2_SIGMA[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3}};

static inline uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

#define B2_G(a, b, c, d, x, y)           \
    do {                                 \
        v[a] = v[a] + v[b] + (x);        \
        v[d] = rotr64(v[d] ^ v[a], 32);  \
        v[c] = v[c] + v[d];              \
        v[b] = rotr64(v[b] ^ v[c], 24);  \
        v[a] = v[a] + v[b] + (y);        \
        v[d] = rotr64(v[d] ^ v[a], 16);  \
        v[c] = v[c] + v[d];              \
        v[b] = rotr64(v[b] ^ v[c], 63);  \
    } while (0)

static void b2_compress(uint64_t h[8], const unsigned char block[128], uint64_t t, int last) {
    uint64_t v[16], m[16];
    for (int i = 0; i < 16; i++) {
        m[i] = 0;
        for (int k = 7; k >= 0; k--) m[i] = m[i] << 8 | block[8 * i + k];
    }
    for (int i = 0; i < 8; i++) v[i] = h[i], v[i + 8] = B2_IV[i];
    v[12] ^= t;
    if (last) v[14] = ~v[14];
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = B2_SIGMA[r];
        B2_G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        B2_G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        B2_G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        B2_G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        B2_G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        B2_G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        B2_G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        B2_G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++) h[i] ^= v[i] ^ v[i + 8];
}

/* The 24-byte digest of text[0:len]. */
static void blake2b_24(const unsigned char *text, size_t len, unsigned char out[24]) {
    uint64_t h[8];
    unsigned char block[128];
    for (int i = 0; i < 8; i++) h[i] = B2_IV[i];
    h[0] ^= 0x01010000ull ^ 24;
    size_t done = 0;
    while (len - done > 128) {
        b2_compress(h, text + done, done + 128, 0);
        done += 128;
    }
    memset(block, 0, sizeof(block));
    memcpy(block, text + done, len - done);
    b2_compress(h, block, len, 1);
    for (int i = 0; i < 24; i++) out[i] = (unsigned char)(h[i / 8] >> (8 * (i % 8)));
}

static int put_decimal(char *text, uint64_t v) {
    char digits[24];
    int n = 0, len = 0;
    do digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n) text[len++] = digits[--n];
    return len;
}

/* dealing.deal_digest(seed, number) for a whole-number seed from 0 to 2**64 - 1. */
static void deal_digest(uint64_t seed, int number, unsigned char out[24]) {
    char text[64];
    int len = 13;
    memcpy(text, "passing-game|", 13);
    len += put_decimal(text + len, seed);
    text[len++] = '|';
    len += put_decimal(text + len, (uint64_t)number);
    blake2b_24((const unsigned char *)text, (size_t)len, out);
}

/* splitmix64: the random opponent's stream (DECISIONS P35). */
static inline uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* NumPy's PCG64 (128-bit LCG, XSL-RR output, and the half of a draw it keeps
 * for the next 32-bit one): the bit generator of Gymnasium's np_random, so a
 * game draws what PassingGame-v0.reset draws with the same seed. Python
 * hands over the state of np.random.PCG64 (bit_generator.state) at reset. */
typedef struct {
    uint64_t hi, lo, inc_hi, inc_lo; /* the state and the increment */
    uint32_t half;                   /* uinteger: the kept half, when has_half */
    int has_half;                    /* has_uint32 */
} Pcg;

#define PCG_MUL_HI 2549297995355413924ull
#define PCG_MUL_LO 4865540595714422341ull

/* The 128-bit product of two 64-bit numbers, as hi and lo (no __int128 needed). */
static inline void mul_64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
    uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = mid << 32 | (uint32_t)p00;
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* PCG64.random_raw(): step the state, then output from the new state. */
static uint64_t pcg_next64(Pcg *r) {
    uint64_t hi, lo;
    mul_64(r->lo, PCG_MUL_LO, &hi, &lo);
    hi += r->hi * PCG_MUL_LO + r->lo * PCG_MUL_HI;
    lo += r->inc_lo;
    hi += r->inc_hi + (lo < r->inc_lo);
    r->hi = hi;
    r->lo = lo;
    uint64_t x = hi ^ lo;
    unsigned rot = (unsigned)(hi >> 58);
    return x >> rot | x << ((64 - rot) & 63);
}

/* The 32-bit draw: the low half of a new 64-bit one (the high half kept), or the kept half. */
static uint32_t pcg_next32(Pcg *r) {
    if (r->has_half) {
        r->has_half = 0;
        return r->half;
    }
    uint64_t x = pcg_next64(r);
    r->has_half = 1;
    r->half = (uint32_t)(x >> 32);
    return (uint32_t)x;
}

/* Generator.integers(n), 2 <= n <= 4: Lemire's method on 32-bit draws, as NumPy's. */
static int pcg_below(Pcg *r, uint32_t n) {
    uint64_t m = (uint64_t)pcg_next32(r) * n;
    uint32_t left = (uint32_t)m;
    if (left < n) {
        uint32_t threshold = (UINT32_MAX - (n - 1)) % n;
        while (left < threshold) {
            m = (uint64_t)pcg_next32(r) * n;
            left = (uint32_t)m;
        }
    }
    return (int)(m >> 32);
}

/* Generator.integers(2**62): Lemire's method on a 64-bit draw, which never
 * rejects for a power of two, so the draw's top 62 bits. */
static inline uint64_t pcg_seed62(Pcg *r) { return pcg_next64(r) >> 2; }

/* One game of the batch: the rules state and the public record encode reads
 * (the round's part, cleared by deal()), then the episode's. */
typedef struct {
    RState st;
    uint32_t drawn[4];  /* tiles each seat drew this round */
    uint32_t played[4]; /* tiles each seat laid */
    uint8_t passed_on[4], drew_on[4]; /* numbers open when the seat passed / drew, as bits */
    uint8_t npass[4], ndraw[4];
    uint8_t short_on[4]; /* bots.knowledge's short: numbers a seat passed or drew on, not laid since */
    uint8_t train[2 * TRAIN_MID]; /* tiles on the train, train[tstart:tend] left to right */
    int tstart, tend, leader, last;
    /* the episode (a round, or a match) */
    int dealt, done, number; /* number: the round of the match, from 1 */
    int agent;     /* the learner's seat against opponents; -1 in self-play */
    uint8_t bot[4]; /* OPP_* of each seat (the learner's OPP_NONE) */
    uint64_t seed; /* the Round.new / Match seed of the episode */
    int scores[4]; /* each side's match score */
    float carry[4]; /* rewards of rounds the bots ended before the learner's first turn */
    uint64_t dice;  /* splitmix64 state of the random opponent, from the episode's first deal */
    Pcg rng;        /* PassingGame-v0's np_random: the episodes' seeds and the learner's seat */
} Game;

/* The arrays bound by bind(), in this order. */
enum { B_OBS, B_MASK, B_REWARD, B_REWARDS, B_POINTS, B_TERMINATED, B_SEAT, B_ILLEGAL, NBUF };

typedef struct {
    PyObject_HEAD
    Game *games;
    Py_ssize_t n;
    int players, hand, flags, sides, reward_kind, obs_size, boneyard_size, bound;
    int ntiles;            /* the set's tiles (Rules.max_pip, issue 28): 28 for the double-six */
    uint8_t set[NTILES];   /* their indices, rules_set */
    uint32_t set_mask;
    int opponent, seat; /* any opponents; the learner's seat against them, -1 at random a round */
    uint8_t opp[3];     /* OPP_* of the other seats, in seat order (PassingGame-v0's opponents) */
    double hw[8];       /* the heuristic's margin and weights, as HeuristicBot holds them (H_*) */
    int target;         /* Rules.target: the match ends there, the scores part is scaled by it */
    int match, leader_rule; /* episode a match (else one round); LEAD_* for its later rounds */
    int busy;           /* step() runs without the GIL: every other call is refused */
    float penalty;
    Py_buffer buf[NBUF];
    /* offsets of the observation's parts (encoding._PARTS) */
    int o_hand, o_drawn, o_played, o_train, o_left, o_right, o_empty, o_sizes, o_bone, o_can_draw,
        o_to_move, o_leader, o_passes, o_draws, o_passed_on, o_drew_on, o_in_row, o_scores;
    float pass_tab[TABLE], draw_tab[TABLE];
} VecCore;

static int g_tables_ready = 0;

static int vec_init(VecCore *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"num_envs", "players", "hand_size", "flags", "reward", "illegal_penalty",
                             "opponents", "seat", "target", "match", "leader", "heuristic", "max_pip", NULL};
    Py_ssize_t n;
    int players, hand, flags, reward, seat = -1, target = 0, match = 0, leader = 0, max_pip = 6;
    const char *opps = "";
    Py_ssize_t nopps = 0;
    double hw[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    double penalty;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "niiiid|y#iipi(dddddddd)i", kwlist, &n, &players, &hand, &flags,
                                     &reward, &penalty, &opps, &nopps, &seat, &target, &match, &leader, &hw[0],
                                     &hw[1], &hw[2], &hw[3], &hw[4], &hw[5], &hw[6], &hw[7], &max_pip))
        return -1;
    if (!g_tables_ready) {
        rules_init_tables();
        g_tables_ready = 1;
    }
    uint8_t set[NTILES];
    int ntiles = max_pip >= 2 && max_pip <= 6 ? rules_set(max_pip, set) : 0;
    if (n < 1 || ntiles == 0 || players < 2 || players > 4 || hand < 1 || players * hand > ntiles - LOCKED ||
        (flags & ~(F_ALL & ~F_PASS_TO_END)) || ((flags & F_PARTNERSHIPS) && players != 4) || reward < 0 ||
        reward > R_WIN || (nopps != 0 && nopps != players - 1) || seat < -1 || seat >= players ||
        target < 0 || (match && target < 1) || leader < LEAD_RANDOM || leader > LEAD_WINNER) {
        PyErr_SetString(PyExc_ValueError, "VecCore: arguments out of range");
        return -1;
    }
    if (self->games) {
        PyErr_SetString(PyExc_RuntimeError, "VecCore is initialised once");
        return -1;
    }
    self->games = PyMem_Calloc((size_t)n, sizeof(Game));
    if (!self->games) {
        PyErr_NoMemory();
        return -1;
    }
    self->n = n;
    self->players = players;
    self->hand = hand;
    self->flags = flags;
    self->sides = (flags & F_PARTNERSHIPS) ? 2 : players;
    self->reward_kind = reward;
    self->penalty = (float)penalty;
    self->opponent = nopps > 0;
    memcpy(self->hw, hw, sizeof(hw));
    for (Py_ssize_t j = 0; j < nopps; j++) {
        if (opps[j] < OPP_GREEDY || opps[j] > OPP_RANDOM) {
            PyErr_SetString(PyExc_ValueError, "VecCore: an opponent is 1 (greedy), 2 (heuristic) or 3 (random)");
            return -1;
        }
        self->opp[j] = (uint8_t)opps[j];
    }
    self->seat = seat;
    self->target = target;
    self->match = match;
    self->leader_rule = leader;
    self->ntiles = ntiles;
    memcpy(self->set, set, (size_t)ntiles);
    self->set_mask = 0;
    for (int i = 0; i < ntiles; i++) self->set_mask |= 1u << set[i];
    self->boneyard_size = ntiles - players * hand;
    int o = 0, p = players;
    self->o_hand = o, o += NTILES;
    self->o_drawn = o, o += NTILES;
    self->o_played = o, o += p * NTILES;
    self->o_train = o, o += NTILES;
    self->o_left = o, o += 7;
    self->o_right = o, o += 7;
    self->o_empty = o, o += 1;
    self->o_sizes = o, o += p;
    self->o_bone = o, o += 1;
    self->o_can_draw = o, o += 1;
    self->o_to_move = o, o += p;
    self->o_leader = o, o += p;
    self->o_passes = o, o += p;
    self->o_draws = o, o += p;
    self->o_passed_on = o, o += p * 7;
    self->o_drew_on = o, o += p * 7;
    self->o_in_row = o, o += 1;
    self->o_scores = o, o += self->sides;
    self->obs_size = o;
    /* encode adds 1 / scale into a float32 entry once per pass (or draw), so
     * the n-th count is n such float additions, tabulated here. */
    int max_draws = self->boneyard_size - LOCKED;
    int max_round_moves = players * (ntiles - LOCKED + max_draws + 1);
    float pass_step = (float)(1.0 / ((double)max_round_moves / players));
    float draw_step = (float)(1.0 / (double)(max_draws > 1 ? max_draws : 1));
    self->pass_tab[0] = self->draw_tab[0] = 0.0f;
    for (int k = 1; k < TABLE; k++) {
        self->pass_tab[k] = self->pass_tab[k - 1] + pass_step;
        self->draw_tab[k] = self->draw_tab[k - 1] + draw_step;
    }
    return 0;
}

static void vec_release(VecCore *self) {
    if (self->bound)
        for (int b = 0; b < NBUF; b++) PyBuffer_Release(&self->buf[b]);
    self->bound = 0;
}

static void vec_dealloc(VecCore *self) {
    vec_release(self);
    PyMem_Free(self->games);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Observation of seat ``me`` in game ``g`` (encoding.encode, part by part). */
static void encode(const VecCore *e, const Game *g, int me, float *o) {
    const RState *s = &g->st;
    int n = e->players;
    memset(o, 0, sizeof(float) * (size_t)e->obs_size);
    for (uint32_t m = s->hand[me]; m; m &= m - 1) o[e->o_hand + __builtin_ctz(m)] = 1.0f;
    for (uint32_t m = g->drawn[me]; m; m &= m - 1) o[e->o_drawn + __builtin_ctz(m)] = 1.0f;
    for (int k = g->tstart; k < g->tend; k++)
        o[e->o_train + g->train[k]] = (float)((double)(k - g->tstart + 1) / 28.0);
    if (s->left < 0) {
        o[e->o_empty] = 1.0f;
    } else {
        o[e->o_left + s->left] = 1.0f;
        o[e->o_right + s->right] = 1.0f;
    }
    for (int r = 0; r < n; r++) {
        int seat = (me + r) % n;
        float *row = o + e->o_played + r * NTILES;
        for (uint32_t m = g->played[seat]; m; m &= m - 1) row[__builtin_ctz(m)] = 1.0f;
        o[e->o_sizes + r] = (float)((double)__builtin_popcount(s->hand[seat]) / 28.0);
        o[e->o_passes + r] = e->pass_tab[g->npass[seat]];
        o[e->o_draws + r] = e->draw_tab[g->ndraw[seat]];
        for (int v = 0; v < 7; v++) {
            if (g->passed_on[seat] >> v & 1) o[e->o_passed_on + r * 7 + v] = 1.0f;
            if (g->drew_on[seat] >> v & 1) o[e->o_drew_on + r * 7 + v] = 1.0f;
        }
    }
    if (e->boneyard_size) o[e->o_bone] = (float)((double)(s->nbone - s->bpos) / e->boneyard_size);
    o[e->o_can_draw] = rules_can_draw(s) ? 1.0f : 0.0f;
    if (s->reason == GOING) o[e->o_to_move + (s->to_move - me + n) % n] = 1.0f;
    o[e->o_leader + (g->leader - me + n) % n] = 1.0f;
    o[e->o_in_row] = (float)((double)s->passes / n);
    /* the match scores (with one-round episodes: 0, then the round's points
     * once it is over, as PassingGame-v0's final view shows them) */
    if (e->target > 0) {
        int mine = (e->flags & F_PARTNERSHIPS) ? me % 2 : me;
        for (int side = 0; side < e->sides; side++) {
            double v = (double)g->scores[side] / e->target;
            o[e->o_scores + (side - mine + e->sides) % e->sides] = (float)(v < 1.0 ? v : 1.0);
        }
    }
}

/* The seat whose view a game reports: the learner's against opponents; in
 * self-play the seat to move, or once the round is over the last mover. */
static inline int obs_seat(const Game *g) {
    return g->agent >= 0 ? g->agent : g->st.reason == GOING ? g->st.to_move : g->last;
}

/* The observation, mask and seat of game i into the bound arrays. */
static void report(const VecCore *e, Py_ssize_t i) {
    const Game *g = &e->games[i];
    int seat = obs_seat(g);
    encode(e, g, seat, (float *)e->buf[B_OBS].buf + i * e->obs_size);
    uint8_t *mask = (uint8_t *)e->buf[B_MASK].buf + i * NCODES;
    memset(mask, 0, NCODES);
    if (g->st.reason == GOING && g->st.to_move == seat) {
        int legal[MAX_MOVES], k = rules_legal(&g->st, legal);
        for (int j = 0; j < k; j++) mask[legal[j]] = 1;
    }
    ((int8_t *)e->buf[B_SEAT].buf)[i] = (int8_t)seat;
}

/* bots.simple.GreedyBot, move for move: the heaviest play, ties to the
 * double, then to the end leaving the higher number, then the first listed
 * (Python's max); unable to play, draw if allowed, else pass. */
static int greedy(const RState *s) {
    int legal[MAX_MOVES], k = rules_legal(s, legal), best = -1, key = -1;
    for (int j = 0; j < k; j++) {
        int code = legal[j];
        if (code >= DRAW_CODE) continue;
        int t = code >> 1;
        int open = s->left < 0 ? HIGH[t] : PIPS[t] - ((code & 1) ? s->right : s->left);
        int kj = PIPS[t] * 16 + (LOW[t] == HIGH[t]) * 8 + open;
        if (kj > key) {
            key = kj;
            best = code;
        }
    }
    if (best >= 0) return best;
    return rules_can_draw(s) ? DRAW_CODE : PASS_CODE;
}

/* bots.simple.RandomBot's choice, uniform over the legal moves, from the
 * game's own stream rather than RandomBot's seeded Mersenne Twister (so not
 * the same choices: DECISIONS P35). The modulo's bias is below 2**-57. */
static int uniform(Game *g) {
    int legal[MAX_MOVES], k = rules_legal(&g->st, legal);
    return legal[splitmix64(&g->dice) % (uint64_t)k];
}

/* bots.heuristic.HeuristicBot, move for move, with the margin and weights
 * Python gives (its scores in doubles, summed in the same order). */
enum { H_MARGIN, H_PIPS, H_DOUBLE, H_FOLLOW, H_VARIETY, H_BLOCK, H_SHUT, H_FEED };
static int heuristic(const Game *g, const double *w, int partners, uint32_t set_mask) {
    const RState *s = &g->st;
    int me = s->to_move, n = s->players, legal[MAX_MOVES], k = rules_legal(s, legal);
    uint32_t mine = s->hand[me], played = 0;
    for (int p = 0; p < n; p++) played |= g->played[p];
    uint32_t unseen = set_mask & ~mine & ~played;
    int can_pass = 0, can_draw = 0, best = -1, best_open = 0;
    double best_score = 0.0;
    for (int j = 0; j < k; j++) {
        int code = legal[j];
        if (code == PASS_CODE) can_pass = 1;
        if (code == DRAW_CODE) can_draw = 1;
        if (code >= DRAW_CODE) continue;
        int t = code >> 1, left, right; /* bots.explain.ends_after */
        if (s->left < 0) {
            left = LOW[t];
            right = HIGH[t];
        } else if (code & 1) {
            left = s->left;
            right = PIPS[t] - s->right;
        } else {
            left = PIPS[t] - s->left;
            right = s->right;
        }
        uint32_t open = SUIT[left] | SUIT[right], rest = mine & ~(1u << t);
        int follow = __builtin_popcount(rest & open), variety = 0, others_can = __builtin_popcount(unseen & open);
        if (follow > 2) follow = 2;
        for (int v = 0; v < 7; v++) variety += (rest & SUIT[v]) != 0;
        double score = w[H_PIPS] * PIPS[t] + w[H_DOUBLE] * (LOW[t] == HIGH[t]);
        score += w[H_FOLLOW] * follow + w[H_VARIETY] * variety;
        score -= w[H_FEED] * others_can;
        if (rest == 0) {
            score += 100.0;
        } else if (s->left >= 0 && others_can == 0) {
            score += w[H_SHUT];
        } else {
            int numbers = 1 << left | 1 << right, side = partners ? me % 2 : me;
            for (int p = 0; p < n; p++)
                if ((partners ? p % 2 : p) != side && (g->short_on[p] & numbers) == numbers)
                    score += w[H_BLOCK];
        }
        if (best < 0 || score > best_score) {
            best = code;
            best_score = score;
            best_open = (int)open;
        }
    }
    /* bots.explain.likely_lowest: the others at the unseen tiles' mean pips */
    int nunseen = __builtin_popcount(unseen);
    double mean = nunseen ? (double)mask_pips(unseen) / nunseen : 0.0, est[4];
    for (int p = 0; p < n; p++) est[p] = p == me ? (double)mask_pips(mine) : __builtin_popcount(s->hand[p]) * mean;
    int sides = n, side = me;
    if (partners) {
        est[0] = est[0] + est[2];
        est[1] = est[1] + est[3];
        sides = 2;
        side = me % 2;
    }
    double low = -1.0;
    for (int v = 0; v < sides; v++)
        if (v != side && (low < 0 || est[v] < low)) low = est[v];
    int lowest = est[side] < w[H_MARGIN] * low;
    if (best >= 0) {
        int free_gain = !(unseen & (uint32_t)best_open) || __builtin_popcount(mine) == 1;
        if (can_pass && s->passes == n - 1 && lowest && !free_gain) return PASS_CODE;
        return best;
    }
    if (can_draw && ((s->flags & F_FORCED) || !lowest)) return DRAW_CODE;
    return can_pass ? PASS_CODE : DRAW_CODE;
}

/* Deal a round from its digest; ``leader`` -1: the deal's random seat. */
static void deal(const VecCore *e, Game *g, const unsigned char *digest, int leader) {
    uint8_t tiles[NTILES];
    int drawn = rules_deal(digest, e->players, e->set, e->ntiles, tiles);
    if (leader < 0) leader = drawn;
    memset(g, 0, offsetof(Game, dealt));
    RState *s = &g->st;
    s->players = e->players;
    s->flags = e->flags;
    for (int p = 0; p < e->players; p++)
        for (int k = 0; k < e->hand; k++) s->hand[p] |= 1u << tiles[p * e->hand + k];
    s->nbone = e->ntiles - e->players * e->hand;
    memcpy(s->bone, tiles + e->players * e->hand, (size_t)s->nbone);
    s->left = s->right = -1;
    s->to_move = g->leader = g->last = leader;
    g->tstart = g->tend = TRAIN_MID;
}

static void play(Game *g, int code);
static int greedy(const RState *s);
static int heuristic(const Game *g, const double *w, int partners, uint32_t set_mask);
static int uniform(Game *g);

static inline int side_of(const VecCore *e, int seat) { return (e->flags & F_PARTNERSHIPS) ? seat % 2 : seat; }

/* A round is over: add its points (``pt``, by side) and rewards (``rw``, by
 * seat), as PassingGame-v0 pays them; in a match deal the next round
 * (Match._start_round: leader by D5). Returns whether the episode is over. */
static int round_over(const VecCore *e, Game *g, float *rw, int32_t *pt) {
    Score sc;
    rules_score(&g->st, &sc);
    if (sc.winner >= 0) {
        pt[sc.winner] += sc.points;
        g->scores[sc.winner] += sc.points;
    }
    if (!(e->match && e->reward_kind == R_WIN))
        for (int p = 0; p < e->players; p++) {
            int own = sc.winner == side_of(e, p) ? sc.points : 0, others = sc.winner >= 0 ? sc.points - own : 0;
            rw[p] += e->reward_kind == R_POINTS   ? (float)own
                     : e->reward_kind == R_MARGIN ? (float)(own - others)
                     : own > 0                    ? 1.0f
                     : others > 0                 ? -1.0f
                                                  : 0.0f;
        }
    if (!e->match) return 1;
    if (sc.winner >= 0 && g->scores[sc.winner] >= e->target) { /* R8 */
        if (e->reward_kind == R_WIN)
            for (int p = 0; p < e->players; p++) rw[p] += side_of(e, p) == sc.winner ? 1.0f : -1.0f;
        return 1;
    }
    int leader = -1;
    if (e->leader_rule == LEAD_ROTATE) {
        leader = (g->leader + 1) % e->players;
    } else if (e->leader_rule == LEAD_WINNER && sc.winner >= 0) { /* match.winner_leader */
        int a = sc.winner, b = sc.winner + 2;
        leader = !(e->flags & F_PARTNERSHIPS) ? a : sc.pips[b] < sc.pips[a] ? b : a;
    }
    unsigned char digest[24];
    deal_digest(g->seed, ++g->number, digest);
    deal(e, g, digest, leader);
    return 0;
}

/* After a move: finished rounds are scored (and in a match the next dealt)
 * and the opponents move, until it is the learner's turn or the episode is
 * over (``done``). */
static void advance(const VecCore *e, Game *g, float *rw, int32_t *pt) {
    for (;;) {
        if (g->st.reason != GOING) {
            if (round_over(e, g, rw, pt)) {
                g->done = 1;
                return;
            }
        } else if (g->agent >= 0 && g->st.to_move != g->agent) {
            int bot = g->bot[g->st.to_move];
            play(g, bot == OPP_GREEDY      ? greedy(&g->st)
                    : bot == OPP_HEURISTIC ? heuristic(g, e->hw, e->flags & F_PARTNERSHIPS, e->set_mask)
                                           : uniform(g));
        } else {
            return;
        }
    }
}

/* Start an episode as PassingGame-v0.reset does, from the numbers it draws
 * from its np_random (the game's ``rng``): against opponents the learner's
 * seat (when drawn) and a seed for each bot (C's bots need none), then the
 * Match seed, and the bots move first. An episode the bots end before the
 * learner's first turn is dealt again from the next seed, as PassingGame-v0
 * deals again; in a match, rounds they end first are paid with the learner's
 * first step. */
static void start(VecCore *e, Game *g) {
    Pcg rng = g->rng;
    int agent = -1;
    if (e->opponent) {
        agent = e->seat >= 0 ? e->seat : pcg_below(&rng, (uint32_t)e->players);
        for (int p = 1; p < e->players; p++) pcg_next64(&rng); /* the bots' seeds */
    }
    for (;;) {
        unsigned char digest[24];
        uint64_t seed = pcg_seed62(&rng); /* Match(rules, seed) */
        deal_digest(seed, 1, digest);
        memset(g, 0, sizeof(*g));
        g->rng = rng;
        deal(e, g, digest, -1);
        g->dealt = 1;
        g->number = 1;
        g->seed = seed;
        g->agent = agent;
        memcpy(&g->dice, digest, sizeof(g->dice)); /* the deal's digest: a game's choices repeat with it */
        if (agent < 0) return;
        for (int p = 0, j = 0; p < e->players; p++) g->bot[p] = p == agent ? OPP_NONE : e->opp[j++];
        int32_t pt[4] = {0, 0, 0, 0};
        advance(e, g, g->carry, pt);
        if (!g->done) return;
    }
}

/* Make ``code`` (legal) for the seat to move, keeping the public record. */
static void play(Game *g, int code) {
    RState *s = &g->st;
    int seat = s->to_move;
    uint8_t open = s->left < 0 ? 0 : (uint8_t)(1u << s->left | 1u << s->right);
    g->last = seat;
    if (code < DRAW_CODE) {
        int t = code >> 1;
        g->played[seat] |= 1u << t;
        g->short_on[seat] &= (uint8_t)~(1u << LOW[t] | 1u << HIGH[t]);
        if (g->tstart == g->tend)
            g->train[g->tend++] = (uint8_t)t;
        else if (code & 1)
            g->train[g->tend++] = (uint8_t)t;
        else
            g->train[--g->tstart] = (uint8_t)t;
        rules_apply(s, code);
    } else if (code == DRAW_CODE) {
        g->drew_on[seat] |= open;
        g->short_on[seat] |= open;
        g->ndraw[seat]++;
        g->drawn[seat] |= 1u << rules_apply(s, code);
    } else {
        g->passed_on[seat] |= open;
        g->short_on[seat] |= open;
        g->npass[seat]++;
        rules_apply(s, code);
    }
}

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t count, const char *name,
                      int writable) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) return -1;
    if (view->itemsize != itemsize || view->len != itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes, got %zd bytes", name, count, itemsize,
                     view->len);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* bind(obs, mask, reward, rewards, points, terminated, seat, illegal): the
 * arrays every later call writes: float32 (n, obs_size), uint8/bool (n, 58),
 * float32 (n,), float32 (n, 4), int32 (n, 4), bool (n,), int8 (n,), bool (n,). */
static int check_free(const VecCore *self);

static PyObject *vec_bind(VecCore *self, PyObject *args) {
    PyObject *objs[NBUF];
    if (check_free(self) < 0) return NULL;
    if (!PyArg_ParseTuple(args, "OOOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4], &objs[5], &objs[6],
                          &objs[7]))
        return NULL;
    static const char *names[NBUF] = {"obs", "mask", "reward", "rewards", "points", "terminated", "seat", "illegal"};
    const Py_ssize_t n = self->n, sizes[NBUF] = {4, 1, 4, 4, 4, 1, 1, 1};
    const Py_ssize_t counts[NBUF] = {n * self->obs_size, n * NCODES, n, n * 4, n * 4, n, n, n};
    Py_buffer views[NBUF];
    for (int b = 0; b < NBUF; b++)
        if (get_buffer(objs[b], &views[b], sizes[b], counts[b], names[b], 1) < 0) {
            while (b-- > 0) PyBuffer_Release(&views[b]);
            return NULL;
        }
    vec_release(self);
    memcpy(self->buf, views, sizeof(views));
    self->bound = 1;
    Py_RETURN_NONE;
}

/* Whether no step() of this object is running in another thread (the flag is
 * read and written only with the GIL held). */
static int check_free(const VecCore *self) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "VecCore: a step() is running in another thread");
        return -1;
    }
    return 0;
}

static int check_bound(const VecCore *self) {
    if (check_free(self) < 0) return -1;
    if (!self->bound) {
        PyErr_SetString(PyExc_RuntimeError, "VecCore: bind() the arrays first");
        return -1;
    }
    return 0;
}

/* get_indices(obj, view): the int64 game numbers in obj, each one a game of the batch. */
static int get_indices(const VecCore *self, PyObject *obj, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->itemsize != 8 || view->len % 8) {
        PyErr_SetString(PyExc_ValueError, "indices: int64 game numbers");
        PyBuffer_Release(view);
        return -1;
    }
    const int64_t *ix = view->buf;
    for (Py_ssize_t j = 0; j < view->len / 8; j++)
        if (ix[j] < 0 || ix[j] >= self->n) {
            PyErr_Format(PyExc_ValueError, "indices: %lld is not a game of the batch", (long long)ix[j]);
            PyBuffer_Release(view);
            return -1;
        }
    return 0;
}

/* seed(indices, states): the generator of game indices[k] from states[6k:6k+6]
 * (uint64: the PCG64 state's high and low halves, the increment's, has_uint32
 * and uinteger of np.random.PCG64's bit_generator.state); no game is dealt. */
static PyObject *vec_seed(VecCore *self, PyObject *args) {
    PyObject *idx_obj, *states_obj;
    Py_buffer idx, states;
    if (check_free(self) < 0) return NULL;
    if (!PyArg_ParseTuple(args, "OO", &idx_obj, &states_obj)) return NULL;
    if (get_indices(self, idx_obj, &idx) < 0) return NULL;
    Py_ssize_t k = idx.len / 8;
    if (get_buffer(states_obj, &states, 8, 6 * k, "states", 0) < 0) {
        PyBuffer_Release(&idx);
        return NULL;
    }
    const int64_t *ix = idx.buf;
    const uint64_t *st = states.buf;
    for (Py_ssize_t j = 0; j < k; j++, st += 6) {
        Pcg *r = &self->games[ix[j]].rng;
        r->hi = st[0];
        r->lo = st[1];
        r->inc_hi = st[2];
        r->inc_lo = st[3];
        r->has_half = st[4] != 0;
        r->half = (uint32_t)st[5];
    }
    PyBuffer_Release(&idx);
    PyBuffer_Release(&states);
    Py_RETURN_NONE;
}

/* deal(indices): start an episode in game indices[k] from its generator (seed()
 * first) and report it. */
static PyObject *vec_deal(VecCore *self, PyObject *arg) {
    Py_buffer idx;
    if (check_bound(self) < 0) return NULL;
    if (get_indices(self, arg, &idx) < 0) return NULL;
    const int64_t *ix = idx.buf;
    for (Py_ssize_t j = 0; j < idx.len / 8; j++) {
        start(self, &self->games[ix[j]]);
        report(self, ix[j]);
    }
    PyBuffer_Release(&idx);
    Py_RETURN_NONE;
}

/* step(actions): one move in every game (int64 (n,)); illegal actions are
 * replaced as the single environment replaces them (pass, else the first
 * legal move) and charged the penalty. A game that ended on the last step is
 * dealt again instead (Gymnasium's next-step autoreset: its action ignored,
 * reward 0): the next episode from the game's generator, as PassingGame-v0's
 * reset() deals it. Writes every bound array. */
static PyObject *vec_step(VecCore *self, PyObject *arg) {
    if (check_bound(self) < 0) return NULL;
    Py_buffer act;
    if (get_buffer(arg, &act, 8, self->n, "actions", 0) < 0) return NULL;
    for (Py_ssize_t i = 0; i < self->n; i++)
        if (!self->games[i].dealt) {
            PyBuffer_Release(&act);
            PyErr_Format(PyExc_RuntimeError, "game %zd was never dealt", i);
            return NULL;
        }
    const int64_t *actions = act.buf;
    float *reward = self->buf[B_REWARD].buf, *rewards = self->buf[B_REWARDS].buf;
    int32_t *points = self->buf[B_POINTS].buf;
    uint8_t *terminated = self->buf[B_TERMINATED].buf, *illegal = self->buf[B_ILLEGAL].buf;
    /* The GIL is released: the buffers stay exported (NumPy cannot free or
     * resize them) and ``busy`` keeps bind/deal/step/state of this object out. */
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS;
    for (Py_ssize_t i = 0; i < self->n; i++) {
        Game *g = &self->games[i];
        RState *s = &g->st;
        float *rw = rewards + 4 * i;
        int32_t *pt = points + 4 * i;
        reward[i] = rw[0] = rw[1] = rw[2] = rw[3] = 0.0f;
        pt[0] = pt[1] = pt[2] = pt[3] = 0;
        terminated[i] = illegal[i] = 0;
        if (g->done) {
            start(self, g);
            report(self, i);
            continue;
        }
        for (int p = 0; p < 4; p++) {
            rw[p] = g->carry[p];
            g->carry[p] = 0.0f;
        }
        int legal[MAX_MOVES], k = rules_legal(s, legal), code = legal[0], seat = s->to_move;
        int64_t a = actions[i];
        uint64_t ok = 0;
        for (int j = 0; j < k; j++) ok |= 1ull << legal[j];
        if (a >= 0 && a < NCODES && (ok >> a & 1)) {
            code = (int)a;
        } else {
            illegal[i] = 1;
            rw[seat] -= self->penalty;
            if (ok >> PASS_CODE & 1) code = PASS_CODE;
        }
        play(g, code);
        advance(self, g, rw, pt);
        terminated[i] = (uint8_t)g->done;
        reward[i] = rw[seat];
        report(self, i);
    }
    Py_END_ALLOW_THREADS;
    self->busy = 0;
    PyBuffer_Release(&act);
    Py_RETURN_NONE;
}

/* state(i): game i's hands as bit masks, the pile still to draw, the seat to
 * move (None once over) and the seed its episode was dealt from (Round.new's
 * or Match's), for the tests to compare with a Round. */
static PyObject *vec_state(VecCore *self, PyObject *arg) {
    if (check_free(self) < 0) return NULL;
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->n) {
        PyErr_SetString(PyExc_IndexError, "no such game in the batch");
        return NULL;
    }
    const RState *s = &self->games[i].st;
    PyObject *hands = PyTuple_New(self->players), *pile = PyList_New(0);
    if (!hands || !pile) goto fail;
    for (int p = 0; p < self->players; p++) {
        PyObject *v = PyLong_FromUnsignedLong(s->hand[p]);
        if (!v) goto fail;
        PyTuple_SET_ITEM(hands, p, v);
    }
    for (int k = s->bpos; k < s->nbone; k++) {
        PyObject *v = PyLong_FromLong(s->bone[k]);
        if (!v || PyList_Append(pile, v) < 0) {
            Py_XDECREF(v);
            goto fail;
        }
        Py_DECREF(v);
    }
    const Game *g = &self->games[i];
    PyObject *seed = PyLong_FromUnsignedLongLong(g->seed);
    if (!seed) goto fail;
    if (s->reason == GOING) return Py_BuildValue("NNiN", hands, pile, s->to_move, seed);
    return Py_BuildValue("NNON", hands, pile, Py_None, seed);
fail:
    Py_XDECREF(hands);
    Py_XDECREF(pile);
    return NULL;
}

static PyObject *vec_obs_size(VecCore *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->obs_size);
}

static PyObject *vec_num_envs(VecCore *self, void *closure) {
    (void)closure;
    return PyLong_FromSsize_t(self->n);
}

/* digest(seed, number=1): dealing.deal_digest(seed, number) computed in C, for the tests. */
static PyObject *mod_digest(PyObject *module, PyObject *args) {
    (void)module;
    unsigned long long seed;
    int number = 1;
    if (!PyArg_ParseTuple(args, "K|i", &seed, &number)) return NULL;
    if (number < 1) {
        PyErr_SetString(PyExc_ValueError, "number: a round number from 1");
        return NULL;
    }
    unsigned char out[24];
    deal_digest(seed, number, out);
    return PyBytes_FromStringAndSize((const char *)out, 24);
}

static PyMethodDef mod_methods[] = {
    {"digest", (PyCFunction)mod_digest, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef vec_methods[] = {
    {"bind", (PyCFunction)vec_bind, METH_VARARGS, NULL},
    {"seed", (PyCFunction)vec_seed, METH_VARARGS, NULL},
    {"deal", (PyCFunction)vec_deal, METH_O, NULL},
    {"step", (PyCFunction)vec_step, METH_O, NULL},
    {"state", (PyCFunction)vec_state, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef vec_getset[] = {
    {"obs_size", (getter)vec_obs_size, NULL, NULL, NULL},
    {"num_envs", (getter)vec_num_envs, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject VecCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "passing_game._vecenv.VecCore",
    .tp_basicsize = sizeof(VecCore),
    .tp_dealloc = (destructor)vec_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)vec_init,
    .tp_methods = vec_methods,
    .tp_getset = vec_getset,
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "passing_game._vecenv", "N rounds stepped by one call (passing_game.rl.vector_env).", -1,
    mod_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__vecenv(void) {
    if (PyType_Ready(&VecCoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moddef);
    if (!m) return NULL;
    Py_INCREF(&VecCoreType);
    if (PyModule_AddObject(m, "VecCore", (PyObject *)&VecCoreType) < 0) {
        Py_DECREF(&VecCoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
