/* The rules of The Passing Game in C, once (RULES.md R2-R7, D1-D4, D6, D11).
 *
 * Included by the extensions: _fastround.c (the state behind Round),
 * _kernel.c (the searches) and _vecenv.c (the batched RL environment).
 * Everything here is the Python core's vocabulary: tiles are indices 0..27
 * in the order of passing_game.TILES, a hand is a 28-bit mask, a move code
 * is tile * 2 + end (0 left, 1 right), 56 draw, 57 pass. The pure-Python
 * engine is the reference; tests/test_fastround.py, tests/test_kernel.py and
 * tests/test_rl_vector.py replay the extensions against it.
 */
#ifndef PASSING_GAME_RULES_H
#define PASSING_GAME_RULES_H

#include <stdint.h>

#define NTILES 28
#define LOCKED 2 /* R2.4: the last two tiles of the boneyard are never drawn */
#define DRAW_CODE 56
#define PASS_CODE 57
#define NCODES 58
#define MAX_MOVES 60
#define NO_PLACE 0xff

/* The rules variants as bit flags; passing_game.bots.kernel.flags builds the same
 * bits in Python (tests/test_kernel.py checks they agree). */
#define F_DRAW_CONTINUE 1 /* D1: after a draw the same seat acts again */
#define F_FORCED 2        /* D2: pass only when nothing else is legal */
#define F_PARTNERSHIPS 4  /* D6 */
#define F_PAIRWISE 8      /* D4 pairwise scoring */
#define F_PASS_TO_END 16  /* the kernel's playout policy only: its D3 pass */
#define F_ALL 31

enum { GOING = 0, DOMINO = 1, BLOCK = 2, ALL_PASS = 3 };

/* One round's state, small enough to copy for every playout (ints: the
 * search's loops run measurably faster on them than on bytes). */
typedef struct {
    uint32_t hand[4];
    uint8_t bone[NTILES]; /* the pile as dealt; bone[bpos:nbone] is still to draw */
    int left, right;      /* open ends, -1 on an empty train */
    int nbone, bpos, players, to_move, passes, flags, reason;
} RState;

static uint8_t LOW[NTILES], HIGH[NTILES], PIPS[NTILES];
static uint32_t SUIT[7]; /* the tiles showing each number */

static void rules_init_tables(void) {
    int i = 0;
    for (int a = 0; a <= 6; a++) SUIT[a] = 0;
    for (int a = 0; a <= 6; a++)
        for (int b = a; b <= 6; b++, i++) {
            LOW[i] = (uint8_t)a;
            HIGH[i] = (uint8_t)b;
            PIPS[i] = (uint8_t)(a + b);
            SUIT[a] |= 1u << i;
            SUIT[b] |= 1u << i;
        }
}

/* The tiles of the double-``max_pip`` set (Rules.tiles, issue 28's smaller
 * sets keep the double-six's indices), in index order; returns how many. */
static inline int rules_set(int max_pip, uint8_t *set) {
    int n = 0;
    for (int i = 0; i < NTILES; i++)
        if (HIGH[i] <= max_pip) set[n++] = (uint8_t)i;
    return n;
}

static inline int mask_pips(uint32_t m) {
    int total = 0;
    for (; m; m &= m - 1) total += PIPS[__builtin_ctz(m)];
    return total;
}

/* R4.3: a draw is open while more than the two locked tiles remain. */
static inline int rules_can_draw(const RState *s) { return s->nbone - s->bpos > LOCKED; }

/* The plays open to a hand: ml on the left end, mr on the right; a tile that
 * fits where both ends show the same number counts once, on the left. */
static inline void rules_fits(const RState *s, uint32_t hand, uint32_t *ml, uint32_t *mr) {
    if (s->left < 0) {
        *ml = hand;
        *mr = 0;
    } else {
        *ml = hand & SUIT[s->left];
        *mr = s->right != s->left ? hand & SUIT[s->right] : 0;
    }
}

/* The legal move codes in the order Round.legal_moves lists them: plays by
 * tile, left before right, then draw (R4.3), then pass (R4.4, D2). */
static inline int rules_legal(const RState *s, int *out) {
    int n = 0;
    uint32_t ml, mr;
    rules_fits(s, s->hand[s->to_move], &ml, &mr);
    for (uint32_t m = ml | mr; m; m &= m - 1) {
        int t = __builtin_ctz(m);
        if (ml >> t & 1) out[n++] = t * 2;
        if (mr >> t & 1) out[n++] = t * 2 + 1;
    }
    if (rules_can_draw(s)) out[n++] = DRAW_CODE;
    if (!(s->flags & F_FORCED) || n == 0) out[n++] = PASS_CODE;
    return n;
}

/* Whether the seat to move may make ``code``: everything legal_moves lists,
 * and also a play on the right where both ends show its number (R4.1). */
static inline int rules_is_legal(const RState *s, int code) {
    if (s->reason != GOING || code < 0 || code >= NCODES) return 0;
    uint32_t hand = s->hand[s->to_move];
    if (code < DRAW_CODE) {
        int t = code >> 1, end = code & 1 ? s->right : s->left;
        return (hand >> t & 1) && (end < 0 || LOW[t] == end || HIGH[t] == end);
    }
    if (code == DRAW_CODE) return rules_can_draw(s);
    if (!(s->flags & F_FORCED)) return 1; /* D2: passing is free */
    uint32_t ml, mr;
    rules_fits(s, hand, &ml, &mr);
    return !(ml | mr) && !rules_can_draw(s);
}

/* R6.2: the round ends at once when no hand can play and no draw is left. */
static inline void rules_check_block(RState *s) {
    if (s->left < 0 || rules_can_draw(s)) return;
    uint32_t open = SUIT[s->left] | SUIT[s->right];
    for (int i = 0; i < s->players; i++)
        if (s->hand[i] & open) return;
    s->reason = BLOCK;
}

/* Make a move known to be legal (R4, R6, D1, D3). Returns how a play's tile
 * was laid (left number * 8 + right number), a draw's tile, or NO_PLACE. */
static inline int rules_apply(RState *s, int code) {
    int p = s->to_move, placed;
    if (code < DRAW_CODE) {
        int t = code >> 1; /* the number a play leaves open is its pips less the one it covers */
        s->hand[p] &= ~(1u << t);
        if (s->left < 0) {
            s->left = LOW[t];
            s->right = HIGH[t];
            placed = s->left * 8 + s->right;
        } else if ((code & 1) == 0) {
            int old = s->left;
            s->left = PIPS[t] - old;
            placed = s->left * 8 + old;
        } else {
            int old = s->right;
            s->right = PIPS[t] - old;
            placed = old * 8 + s->right;
        }
        s->passes = 0;
        if (s->hand[p] == 0) {
            s->reason = DOMINO; /* R6.1 */
            return placed;
        }
        s->to_move = (p + 1) % s->players;
        rules_check_block(s);
        return placed;
    }
    if (code == DRAW_CODE) {
        placed = s->bone[s->bpos++];
        s->hand[p] |= 1u << placed;
        s->passes = 0;
        if (!(s->flags & F_DRAW_CONTINUE)) s->to_move = (p + 1) % s->players;
        rules_check_block(s);
        return placed;
    }
    if (++s->passes >= s->players)
        s->reason = ALL_PASS; /* D3 */
    else
        s->to_move = (p + 1) % s->players;
    return NO_PLACE;
}

/* The seeded deal (dealing.seeded_deal, R2.1-R2.3, D9) from its 24-byte BLAKE2b
 * digest: the ``ntiles`` tiles of ``set`` (rules_set; all 28 for the
 * double-six) shuffled into ``tiles`` (hands first, seat by seat, then the
 * pile, next draw first); returns the deal's random seat. */
static inline int rules_deal(const unsigned char *digest, int players, const uint8_t *set, int ntiles,
                             uint8_t *tiles) {
    uint32_t x[6]; /* the digest as little-endian 32-bit limbs */
    for (int k = 0; k < 6; k++) {
        const unsigned char *b = digest + 4 * k;
        x[k] = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) | ((uint32_t)b[3] << 24);
    }
    int top = 5;
    for (int i = 0; i < ntiles; i++) tiles[i] = set[i];
    /* Python divides x by i + 1 for i = n-1..1, one digit at a time. Dividing by
     * a product of consecutive divisors that fits 32 bits, then splitting the
     * remainder digit by digit, gives the same digits (mixed radix) with a
     * quarter of the long divisions. */
    for (int i = ntiles - 1; i > 0;) {
        uint64_t prod = 1;
        int stop = i;
        while (stop > 0 && prod * (uint64_t)(stop + 1) <= 0xFFFFFFFFu) {
            prod *= (uint64_t)(stop + 1);
            stop--;
        }
        uint64_t rem = 0;
        while (top > 0 && x[top] == 0) top--;
        for (int k = top; k >= 0; k--) {
            uint64_t cur = (rem << 32) | x[k];
            x[k] = (uint32_t)(cur / prod);
            rem = cur % prod;
        }
        for (; i > stop; i--) {
            uint32_t j = (uint32_t)(rem % (uint64_t)(i + 1));
            rem /= (uint64_t)(i + 1);
            uint8_t t = tiles[i];
            tiles[i] = tiles[j];
            tiles[j] = t;
        }
    }
    uint64_t rem = 0;
    for (int k = top; k >= 0; k--) rem = ((rem << 32) | x[k]) % (uint64_t)players;
    return (int)rem;
}

/* A finished round's score (R7, D4, D6, D11). */
typedef struct {
    int sides, winner, points; /* winner -1 on a tie for the lowest count */
    int pips[4], count[4];     /* each seat's pips; each side's count */
} Score;

static inline void rules_score(const RState *s, Score *out) {
    int sides = s->players, low, nlow = 0, sum = 0;
    for (int i = 0; i < s->players; i++) out->pips[i] = mask_pips(s->hand[i]);
    if (s->flags & F_PARTNERSHIPS) {
        sides = 2;
        out->count[0] = out->pips[0] + out->pips[2];
        out->count[1] = out->pips[1] + out->pips[3];
    } else {
        for (int i = 0; i < sides; i++) out->count[i] = out->pips[i];
    }
    low = out->count[0];
    for (int i = 0; i < sides; i++) {
        sum += out->count[i];
        if (out->count[i] < low) low = out->count[i];
    }
    out->sides = sides;
    out->winner = -1;
    for (int i = 0; i < sides; i++)
        if (out->count[i] == low) {
            nlow++;
            out->winner = i;
        }
    if (nlow > 1) out->winner = -1;
    /* literal: the others' counts less the winner's; pairwise: each other's margin */
    out->points = out->winner < 0 ? 0 : (s->flags & F_PAIRWISE) ? sum - low * sides : sum - 2 * low;
}

#endif
