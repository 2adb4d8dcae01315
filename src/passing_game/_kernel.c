/*
 * The search kernel: the search bots' whole searches in C (flat Monte Carlo
 * for pimc, the ISMCTS tree for ismcts and the omniscient yardstick, over
 * guessed worlds handed over by passing_game.bots.fast; P23), their playout
 * policy, and the engine benchmark's random rounds. The rules themselves are
 * _rules.h, shared with _fastround.c; tests/test_kernel.py replays the
 * kernel's random rounds through passing_game.Round step by step and checks
 * the policy playouts and the per-move values of the search against the
 * Python search model.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "_rules.h"

typedef struct { uint64_t s; } Rng;

static inline uint64_t rng_next(Rng *r) {
    /* splitmix64: small, fast, good enough for playouts */
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int rng_below(Rng *r, int n) {
    return (int)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* A probability as a threshold on 32 random bits. */
static uint32_t eps_threshold(double eps) {
    return eps <= 0 ? 0 : eps >= 1 ? 0xFFFFFFFFu : (uint32_t)(eps * 4294967296.0);
}

static inline int popcount(uint32_t m) { return __builtin_popcount(m); }

static inline int side_of(const RState *s, int seat) {
    return (s->flags & F_PARTNERSHIPS) ? seat % 2 : seat;
}

/* Whether seat p's side holds strictly the lowest count now. */
static int lowest(const RState *s, int p) {
    int pips[4];
    for (int i = 0; i < s->players; i++) pips[i] = mask_pips(s->hand[i]);
    if (s->flags & F_PARTNERSHIPS)
        return pips[p] + pips[(p + 2) % 4] < pips[(p + 1) % 4] + pips[(p + 3) % 4];
    for (int i = 0; i < s->players; i++)
        if (i != p && pips[i] <= pips[p]) return 0;
    return 1;
}

/* The playout policy: the heaviest playable tile (doubles first on equal
 * pips; with probability eps a random playable tile); unable to play, pass
 * when the side's count is strictly lowest, else draw if allowed, else pass.
 * Under forced passing it never passes while it can draw. With
 * F_PASS_TO_END (and free passing) it also passes while it could play when
 * every other seat has passed and its side is strictly lowest: that pass
 * ends the round (D3). This is bots.policy.policy_move, move for move. */
/* How a playout chooses its plays: ``threshold`` is the share of random
 * plays (eps_threshold); with ``learned`` a play is the best linear score
 * ``w`` of the features below (bots.policy.learned_play), else the heaviest
 * tile. Passing and drawing follow the same rule either way. */
#define NFEAT 5
/* The model of play's features (bots.playmodel.FEATURES), in its order. */
enum {
    M_PIP, M_DBL, M_HEAVIEST, M_FOLLOW, M_OPEN, M_VARIETY,
    M_PASS, M_PASS_FITS, M_PASS_FITTING, M_PASS_SIZE, M_PASS_LEAD,
    M_DRAW, M_DRAW_FITS, M_DRAW_FITTING, M_DRAW_SIZE, M_DRAW_LEAD,
    M_PASS_CLOSES, M_PASS_CLOSES_FITS, M_PASS_MARGIN, M_PASS_CLOSES_MARGIN, M_DRAW_MARGIN,
    NMODEL
};
#define MARGIN_SCALE 20.0
typedef struct {
    uint32_t threshold;
    int learned;
    double w[NFEAT];
    int fitted;        /* moves drawn from the model of play (model_move) */
    double beta[NMODEL];
} Pol;

/* The features of laying tile t so that the open ends become nl and nr
 * (bots.policy.FEATURES, in that order): its pips / 12; a double; how many
 * of the mover's other tiles fit the new ends / 7; the next seat holds
 * nothing for the new ends (it sees the world's hands); how many numbers
 * the mover's other tiles still show / 7. */
static double play_score(const RState *s, int p, int t, int nl, int nr, const double *w) {
    uint32_t rest = s->hand[p] & ~(1u << t), open = SUIT[nl] | SUIT[nr];
    int next = (p + 1) % s->players, variety = 0;
    for (int a = 0; a <= 6; a++) variety += (rest & SUIT[a]) != 0;
    return w[0] * PIPS[t] / 12.0 + w[1] * (LOW[t] == HIGH[t]) + w[2] * popcount(rest & open) / 7.0 +
           w[3] * ((s->hand[next] & open) == 0) + w[4] * variety / 7.0;
}

/* The learned policy's play among the fitting tiles ``ml``/``mr`` (ties to
 * the lower tile, then the left end). */
static int learned_play(const RState *s, uint32_t ml, uint32_t mr, const double *w) {
    int p = s->to_move, best = -1;
    double key = -1e300;
    for (uint32_t mm = ml | mr; mm; mm &= mm - 1) {
        int t = __builtin_ctz(mm);
        for (int end = 0; end < 2; end++) {
            if (!((end ? mr : ml) >> t & 1)) continue;
            int nl, nr;
            if (s->left < 0) {
                nl = LOW[t];
                nr = HIGH[t];
            } else if (end == 0) {
                nl = LOW[t] == s->left ? HIGH[t] : LOW[t];
                nr = s->right;
            } else {
                nl = s->left;
                nr = LOW[t] == s->right ? HIGH[t] : LOW[t];
            }
            double k = play_score(s, p, t, nl, nr, w);
            if (k > key) {
                key = k;
                best = t * 2 + end;
            }
        }
    }
    return best;
}

/* The model of play's score of each legal move of the mover (bots.playmodel:
 * a conditional logit, each move scored by the coefficients ``b`` on its
 * features) for its hand in this world, where what it cannot see is the
 * other hands and the boneyard. As bots.policy.model_scores, move for move.
 * Fills ``codes`` and ``score``; returns how many moves. */
static int model_scores(const RState *s, const double *b, int *codes, double *score) {
    int p = s->to_move, n = rules_legal(s, codes);
    uint32_t hand = s->hand[p], unseen = 0;
    int partner = 0, rivals = 0;
    for (int i = 0; i < s->players; i++) {
        if (i == p) continue;
        unseen |= s->hand[i];
        if (side_of(s, i) == side_of(s, p))
            partner += popcount(s->hand[i]);
        else
            rivals += popcount(s->hand[i]);
    }
    for (int i = s->bpos; i < s->nbone; i++) unseen |= 1u << s->bone[i];
    int count = popcount(unseen);
    double mean = count ? (double)mask_pips(unseen) / count : 0.0;
    double ahead = (mask_pips(hand) + (partner - rivals) * mean) / MARGIN_SCALE;
    uint32_t ml, mr;
    rules_fits(s, hand, &ml, &mr);
    uint32_t fitting = ml | mr;
    int heaviest = -1, nfit = popcount(fitting);
    for (uint32_t m = fitting; m; m &= m - 1)
        if (PIPS[__builtin_ctz(m)] > heaviest) heaviest = PIPS[__builtin_ctz(m)];
    double fits = nfit ? 1.0 : 0.0, many = nfit / 7.0, size = popcount(hand) / 7.0;
    double lead = s->left < 0 ? 1.0 : 0.0, closes = s->passes >= s->players - 1 ? 1.0 : 0.0;
    for (int k = 0; k < n; k++) {
        int code = codes[k];
        if (code == PASS_CODE) {
            score[k] = b[M_PASS] + b[M_PASS_FITS] * fits + b[M_PASS_FITTING] * many +
                       b[M_PASS_SIZE] * size + b[M_PASS_LEAD] * lead + b[M_PASS_CLOSES] * closes +
                       b[M_PASS_CLOSES_FITS] * closes * fits + b[M_PASS_MARGIN] * ahead +
                       b[M_PASS_CLOSES_MARGIN] * closes * ahead;
        } else if (code == DRAW_CODE) {
            score[k] = b[M_DRAW] + b[M_DRAW_FITS] * fits + b[M_DRAW_FITTING] * many +
                       b[M_DRAW_SIZE] * size + b[M_DRAW_LEAD] * lead + b[M_DRAW_MARGIN] * ahead;
        } else {
            int t = code >> 1, nl, nr;
            if (s->left < 0) {
                nl = LOW[t];
                nr = HIGH[t];
            } else if ((code & 1) == 0) {
                nl = PIPS[t] - s->left;
                nr = s->right;
            } else {
                nl = s->left;
                nr = PIPS[t] - s->right;
            }
            uint32_t rest = hand & ~(1u << t), ends = SUIT[nl] | SUIT[nr];
            int variety = 0;
            for (int a = 0; a <= 6; a++) variety += (rest & SUIT[a]) != 0;
            score[k] = b[M_PIP] * PIPS[t] / 12.0 + b[M_DBL] * (LOW[t] == HIGH[t]) +
                       b[M_HEAVIEST] * (PIPS[t] == heaviest) +
                       b[M_FOLLOW] * popcount(rest & ends) / 7.0 +
                       b[M_OPEN] * popcount(unseen & ends) / 7.0 + b[M_VARIETY] * variety / 7.0;
        }
    }
    return n;
}

/* A move drawn from the model of play (the softmax of model_scores). */
static int model_move(const RState *s, Rng *r, const Pol *pol) {
    int codes[MAX_MOVES];
    double score[MAX_MOVES], top = -1e300, total = 0;
    int n = model_scores(s, pol->beta, codes, score);
    for (int k = 0; k < n; k++)
        if (score[k] > top) top = score[k];
    for (int k = 0; k < n; k++) total += score[k] = exp(score[k] - top);
    double u = (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0) * total;
    for (int k = 0; k < n - 1; k++) {
        if (u < score[k]) return codes[k];
        u -= score[k];
    }
    return codes[n - 1];
}

static int policy(RState *s, Rng *r, const Pol *pol) {
    if (pol->fitted) return model_move(s, r, pol);
    int p = s->to_move;
    uint32_t threshold = pol->threshold;
    uint32_t ml, mr;
    rules_fits(s, s->hand[p], &ml, &mr);
    uint32_t m = ml | mr;
    if (m && (s->flags & F_PASS_TO_END) && !(s->flags & F_FORCED) &&
        s->passes == s->players - 1 && lowest(s, p))
        return PASS_CODE;
    if (m) {
        int t = -1;
        if (threshold && (uint32_t)(rng_next(r) >> 32) < threshold) {
            int k = rng_below(r, popcount(m));
            uint32_t mm = m;
            while (k--) mm &= mm - 1;
            t = __builtin_ctz(mm);
        } else if (pol->learned) {
            return learned_play(s, ml, mr, pol->w);
        } else {
            int key = -1;
            for (uint32_t mm = m; mm; mm &= mm - 1) {
                int i = __builtin_ctz(mm);
                int k = PIPS[i] * 2 + (LOW[i] == HIGH[i]);
                if (k > key) {
                    key = k;
                    t = i;
                }
            }
        }
        return (ml >> t & 1) ? t * 2 : t * 2 + 1;
    }
    if (rules_can_draw(s) && ((s->flags & F_FORCED) || !lowest(s, p))) return DRAW_CODE;
    return PASS_CODE;
}

/* ---- search: worlds, utilities, flat Monte Carlo, ISMCTS ------------- */

/* What a finished round is worth to each side (bots.utility.utilities):
 * with two sides the pip margin, else the side's points less the mean of
 * the others' points (relative) or its own points. Returns the sides. */
static int utilities(const RState *s, int relative, double *out) {
    Score sc;
    rules_score(s, &sc);
    if (sc.sides == 2) {
        double d = (double)(sc.count[1] - sc.count[0]);
        out[0] = d;
        out[1] = -d;
        return 2;
    }
    for (int i = 0; i < sc.sides; i++) {
        double mine = sc.winner == i ? sc.points : 0;
        if (relative) {
            double others = sc.winner >= 0 ? sc.points - mine : 0;
            out[i] = mine - others / (sc.sides - 1);
        } else {
            out[i] = mine;
        }
    }
    return sc.sides;
}


static inline void run_policy(RState *s, Rng *r, const Pol *pol) {
    while (s->reason == GOING) rules_apply(s, policy(s, r, pol));
}

/* Guesses at the hidden tiles. The searching seat's own hand and the public
 * position are in ``base``; ``hands``/``bones`` hold ``npool`` full deals.
 * Mode 0: always deal 0 as given (the truth, for the omniscient yardstick).
 * Mode 1: a deal drawn by weight (``cum``: cumulative weights, the pool of
 * bots.sampling.Sampler), its boneyard shuffled (its order is never
 * evidence). Mode 2: every tile outside ``seat``'s hand dealt afresh,
 * uniformly, keeping every hand's size (nothing weighs the deals).
 * Mode 3: deal 0's hands as given, its boneyard shuffled (a yardstick that
 * sees the hands but not the boneyard's order). */
typedef struct {
    int mode, npool, seat;
    const uint32_t *hands; /* npool * 4 */
    const uint8_t *bones;  /* npool * NTILES */
    const int *nbones;     /* npool */
    const double *cum;     /* npool, mode 1 */
    RState base;
} Worlds;

static inline void shuffle_tiles(uint8_t *t, int n, Rng *r) {
    for (int i = n - 1; i > 0; i--) {
        int j = rng_below(r, i + 1);
        uint8_t tmp = t[i];
        t[i] = t[j];
        t[j] = tmp;
    }
}

static void sample_world(const Worlds *w, Rng *r, RState *out) {
    int k = 0;
    if (w->mode == 1 && w->npool > 1) {
        double total = w->cum[w->npool - 1];
        double u = (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0) * total;
        int lo = 0, hi = w->npool - 1; /* first index with cum > u */
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (w->cum[mid] > u)
                hi = mid;
            else
                lo = mid + 1;
        }
        k = lo;
    }
    *out = w->base;
    for (int p = 0; p < 4; p++) out->hand[p] = w->hands[k * 4 + p];
    out->nbone = w->nbones[k];
    memcpy(out->bone, w->bones + k * NTILES, (size_t)out->nbone);
    out->bpos = 0;
    if (w->mode == 1 || w->mode == 3) {
        shuffle_tiles(out->bone, out->nbone, r);
    } else if (w->mode == 2) {
        uint8_t tiles[NTILES];
        int n = 0, sizes[4];
        for (int p = 0; p < out->players; p++) {
            sizes[p] = popcount(out->hand[p]);
            if (p == w->seat) continue;
            for (uint32_t m = out->hand[p]; m; m &= m - 1) tiles[n++] = (uint8_t)__builtin_ctz(m);
        }
        for (int i = 0; i < out->nbone; i++) tiles[n++] = out->bone[i];
        shuffle_tiles(tiles, n, r);
        int j = 0;
        for (int p = 0; p < out->players; p++) {
            if (p == w->seat) continue;
            uint32_t m = 0;
            for (int i = 0; i < sizes[p]; i++) m |= 1u << tiles[j++];
            out->hand[p] = m;
        }
        for (int i = 0; i < out->nbone; i++) out->bone[i] = tiles[j++];
    }
}

/* Flat Monte Carlo over worlds (PIMC at depth 1): in each guessed world,
 * each root move followed by ``playouts`` policy playouts; the same world
 * for every move. Adds each move's value for ``side`` to ``totals``. */
static void flat_search(const Worlds *w, const int *moves, int nmoves, int worlds, int playouts,
                        int side, int relative, const Pol *pol, Rng *r, double *totals) {
    RState world, sim;
    double u[4];
    for (int i = 0; i < worlds; i++) {
        sample_world(w, r, &world);
        for (int j = 0; j < nmoves; j++) {
            for (int k = 0; k < playouts; k++) {
                sim = world;
                rules_apply(&sim, moves[j]);
                run_policy(&sim, r, pol);
                utilities(&sim, relative, u);
                totals[j] += u[side];
            }
        }
    }
}

/* The ISMCTS tree: nodes in one growing array, children as sibling lists. */
typedef struct {
    int32_t child, sibling;
    int32_t code; /* move code, or DRAWN + tile under the searcher's own draw */
    int32_t side; /* the side that chose the move; -1 at the root */
    uint32_t visits, avails;
    double reward;
} Node;

typedef struct {
    Node *n;
    int32_t len, cap, limit;
} Tree;

#define DRAWN 100
#define CLASSED 200 /* + the class of an opponent's hand, under its decision (split) */
#define REWARD_SCALE 20.0
#define MAX_PATH 512

static int32_t tree_add(Tree *t, int32_t parent, int code, int side) {
    if (t->len >= t->cap) {
        if (t->cap >= t->limit) return -1;
        int32_t cap = t->cap * 2 > t->limit ? t->limit : t->cap * 2;
        Node *n = (Node *)realloc(t->n, (size_t)cap * sizeof(Node));
        if (!n) return -1;
        t->n = n;
        t->cap = cap;
    }
    int32_t i = t->len++;
    Node *x = &t->n[i];
    x->child = -1;
    x->code = code;
    x->side = side;
    x->visits = 0;
    x->avails = 1;
    x->reward = 0.0;
    if (parent >= 0) {
        x->sibling = t->n[parent].child;
        t->n[parent].child = i;
    } else {
        x->sibling = -1;
    }
    return i;
}

static inline int32_t tree_find(const Tree *t, int32_t parent, int code) {
    for (int32_t c = t->n[parent].child; c >= 0; c = t->n[c].sibling)
        if (t->n[c].code == code) return c;
    return -1;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* SO-ISMCTS from ``w->seat``'s point of view, as bots.ismcts.search_tree:
 * a guessed world per iteration, UCB1 with availability counts among the
 * children legal in that world, one new node per iteration (and chance
 * nodes for the tile the searcher draws), opponents following the policy
 * with probability ``opponent_policy`` (the policy ``opp``), a playout with
 * the policy ``pol``, and the sides'
 * utilities backed up. Stops after ``iterations`` or ``seconds`` (if > 0).
 * Returns the iterations run; the root is node 0. A full tree stops growing
 * (the walk then ends in a playout). */
static long ismcts(const Worlds *w, Tree *t, long iterations, double seconds, double exploration,
                   const Pol *pol, const Pol *opp, int relative, double opponent_policy, int split,
                   double disguise, Rng *r) {
    RState s;
    int32_t path[MAX_PATH];
    int moves[MAX_MOVES];
    double u[4];
    uint32_t opp_threshold = eps_threshold(opponent_policy);
    uint32_t disguise_threshold = eps_threshold(disguise);
    int opp_always = opponent_policy >= 1;
    double deadline = seconds > 0 ? now_seconds() + seconds : 0;
    int seat = w->seat;
    long done = 0;
    while (done < iterations) {
        if (seconds > 0 && (done & 63) == 0 && done > 0 && now_seconds() >= deadline) break;
        sample_world(w, r, &s);
        int mine = side_of(&s, seat);
        /* A disguised iteration deals the searcher's hand again as its
         * opponents would guess it (from its tiles and the boneyard's), plays
         * the searcher's moves by its tree's best mean and updates only the
         * opponents' statistics: their choices in the tree then answer the
         * hands the searcher might hold, not the one it holds. */
        int disguised = disguise_threshold && (uint32_t)(rng_next(r) >> 32) < disguise_threshold;
        if (disguised) {
            uint8_t tiles[NTILES];
            int n = 0, k = popcount(s.hand[seat]);
            for (uint32_t m = s.hand[seat]; m; m &= m - 1) tiles[n++] = (uint8_t)__builtin_ctz(m);
            for (int i = s.bpos; i < s.nbone; i++) tiles[n++] = s.bone[i];
            shuffle_tiles(tiles, n, r);
            s.hand[seat] = 0;
            for (int i = 0; i < k; i++) s.hand[seat] |= 1u << tiles[i];
            for (int i = k; i < n; i++) s.bone[s.bpos + i - k] = tiles[i];
        }
        int32_t node = 0;
        int np = 0;
        path[np++] = 0;
        while (s.reason == GOING && np < MAX_PATH - 2) {
            int mover = s.to_move;
            if (disguised && mover == seat) {
                int n = rules_legal(&s, moves);
                int32_t best = -1;
                int best_code = -1;
                double best_mean = -1e300;
                for (int i = 0; i < n; i++) {
                    int32_t c = tree_find(t, node, moves[i]);
                    if (c >= 0 && t->n[c].visits && t->n[c].reward / t->n[c].visits > best_mean) {
                        best_mean = t->n[c].reward / t->n[c].visits;
                        best = c;
                        best_code = moves[i];
                    }
                }
                if (best < 0) break; /* out of the tree: a playout */
                rules_apply(&s, best_code);
                node = best;
                path[np++] = node;
                if (best_code == DRAW_CODE) {
                    int32_t outcome = tree_find(t, node, DRAWN + s.bone[s.bpos - 1]);
                    if (outcome < 0) break;
                    node = outcome;
                    path[np++] = node;
                }
                continue;
            }
            if (opp_threshold && mover != seat &&
                (opp_always || (uint32_t)(rng_next(r) >> 32) < opp_threshold)) {
                int code = policy(&s, r, opp);
                int32_t child = tree_find(t, node, code);
                if (child < 0) child = tree_add(t, node, code, side_of(&s, mover));
                rules_apply(&s, code);
                if (child < 0) break; /* the tree is full: finish with a playout */
                node = child;
                path[np++] = node;
                continue;
            }
            if (split && mover != seat) {
                /* The opponent's statistics kept apart by what its hand can
                 * do: how many of its tiles fit (0, 1, 2, 3 or more). */
                uint32_t ml, mr;
                rules_fits(&s, s.hand[mover], &ml, &mr);
                int fit = __builtin_popcount(ml | mr);
                int key = CLASSED + (fit > 3 ? 3 : fit);
                if (split == 2) {
                    /* (or: how many fit each end, 0, 1 or 2 and more) */
                    int fl = __builtin_popcount(ml), fr = __builtin_popcount(mr);
                    key = CLASSED + 3 * (fl > 2 ? 2 : fl) + (fr > 2 ? 2 : fr);
                }
                int32_t cls = tree_find(t, node, key);
                if (cls < 0) cls = tree_add(t, node, key, side_of(&s, mover));
                if (cls < 0) break;
                node = cls;
                path[np++] = node;
            }
            int n = rules_legal(&s, moves);
            int untried[MAX_MOVES], nu = 0;
            int32_t best = -1;
            int best_code = -1;
            double best_score = -1e300;
            for (int i = 0; i < n; i++) {
                int32_t c = tree_find(t, node, moves[i]);
                if (c < 0) {
                    untried[nu++] = moves[i];
                    continue;
                }
                Node *x = &t->n[c];
                x->avails++;
                if (nu == 0) {
                    double score = x->reward / x->visits +
                                   exploration * sqrt(log((double)x->avails) / x->visits);
                    if (score > best_score) {
                        best_score = score;
                        best = c;
                        best_code = moves[i];
                    }
                }
            }
            int expanded = 0;
            if (nu) {
                best_code = untried[rng_below(r, nu)];
                best = tree_add(t, node, best_code, side_of(&s, mover));
                expanded = 1;
            }
            rules_apply(&s, best_code);
            if (best < 0) break;
            node = best;
            path[np++] = node;
            if (best_code == DRAW_CODE && mover == seat) {
                int key = DRAWN + s.bone[s.bpos - 1];
                int32_t outcome = tree_find(t, node, key);
                if (outcome < 0) outcome = tree_add(t, node, key, t->n[node].side);
                if (outcome < 0) break;
                node = outcome;
                path[np++] = node;
            }
            if (expanded) break;
        }
        if (s.reason == GOING) run_policy(&s, r, pol);
        utilities(&s, relative, u);
        for (int i = 0; i < np; i++) {
            Node *x = &t->n[path[i]];
            if (disguised && (x->side < 0 || x->side == mine)) continue;
            x->visits++;
            if (x->side >= 0) x->reward += u[x->side] / REWARD_SCALE;
        }
        done++;
    }
    return done;
}

/* ---- Python glue ------------------------------------------------------ */

static int parse_flags(long players, long flags) {
    if (players < 2 || players > 4) {
        PyErr_Format(PyExc_ValueError, "players must be 2, 3 or 4, got %ld", players);
        return -1;
    }
    if (flags & ~(long)F_ALL) {
        PyErr_Format(PyExc_ValueError, "unknown flag bits in %ld", flags);
        return -1;
    }
    if ((flags & F_PARTNERSHIPS) && players != 4) {
        PyErr_SetString(PyExc_ValueError, "partnerships need 4 players");
        return -1;
    }
    return 0;
}

static void shuffle_deal(RState *s, Rng *r, int hand_size) {
    uint8_t tiles[NTILES];
    for (int i = 0; i < NTILES; i++) tiles[i] = (uint8_t)i;
    shuffle_tiles(tiles, NTILES, r);
    int k = 0;
    for (int p = 0; p < 4; p++) s->hand[p] = 0;
    for (int p = 0; p < s->players; p++)
        for (int i = 0; i < hand_size; i++) s->hand[p] |= 1u << tiles[k++];
    s->nbone = 0;
    while (k < NTILES) s->bone[s->nbone++] = tiles[k++];
    s->bpos = 0;
    s->left = s->right = -1;
    s->passes = 0;
    s->reason = GOING;
    s->to_move = rng_below(r, s->players);
}

PyDoc_STRVAR(random_rounds_doc,
"random_rounds(players, hand_size, flags, rounds, seed) -> actions\n\n"
"Deal and play ``rounds`` whole rounds choosing uniformly among the legal\n"
"moves; returns the number of actions played. For benchmarks.");

static PyObject *random_rounds(PyObject *Py_UNUSED(self), PyObject *args) {
    int players, hand_size, flags;
    long long rounds;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iiiLK", &players, &hand_size, &flags, &rounds, &seed)) return NULL;
    if (parse_flags(players, flags) < 0) return NULL;
    if (hand_size < 1 || players * hand_size > NTILES - LOCKED) {
        PyErr_SetString(PyExc_ValueError, "hand_size leaves no room for the two locked tiles");
        return NULL;
    }
    long long actions = 0;
    Rng r = {seed};
    RState s;
    int moves[MAX_MOVES];
    Py_BEGIN_ALLOW_THREADS
    for (long long i = 0; i < rounds; i++) {
        s.players = players;
        s.flags = flags;
        shuffle_deal(&s, &r, hand_size);
        while (s.reason == GOING) {
            int n = rules_legal(&s, moves);
            rules_apply(&s, moves[rng_below(&r, n)]);
            actions++;
        }
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(actions);
}

/* The learned policy's weights from Python: None for the heaviest-tile
 * policy, else a sequence of NFEAT numbers. */
static int read_weights(PyObject *obj, Pol *pol) {
    if (obj == Py_None) return 0;
    PyObject *seq = PySequence_Fast(obj, "weights must be None or a sequence of numbers");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NFEAT) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "weights must hold %d numbers", NFEAT);
        return -1;
    }
    for (int i = 0; i < NFEAT; i++) {
        pol->w[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    pol->learned = 1;
    return 0;
}

/* The model of play's coefficients from Python: None (the policy), else
 * NMODEL numbers (bots.playmodel.FITTED's). */
static int read_model(PyObject *obj, Pol *pol) {
    if (obj == Py_None) return 0;
    PyObject *seq = PySequence_Fast(obj, "the model must be None or a sequence of numbers");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NMODEL) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "the model must hold %d numbers", NMODEL);
        return -1;
    }
    for (int i = 0; i < NMODEL; i++) {
        pol->beta[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    pol->fitted = 1;
    return 0;
}

PyDoc_STRVAR(duel_doc,
"duel(players, hand_size, flags, weights_a, weights_b, eps, deals, seed) -> points\n\n"
"Two playout policies (weights: None for the heaviest tile) on ``deals``\n"
"duplicate deals of a two-sided game (2 players, or 4 in partnerships): each\n"
"deal played with A in each side's seats; returns A's points less B's, summed\n"
"over the 2 x deals rounds. For training the learned policy by self-play.");

static PyObject *duel(PyObject *Py_UNUSED(self), PyObject *args) {
    int players, hand_size, flags;
    PyObject *wa, *wb;
    double eps;
    long long deals;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "iiiOOdLK", &players, &hand_size, &flags, &wa, &wb, &eps, &deals,
                          &seed))
        return NULL;
    if (parse_flags(players, flags) < 0) return NULL;
    if (hand_size < 1 || players * hand_size > NTILES - LOCKED || deals < 0 ||
        !(players == 2 || (flags & F_PARTNERSHIPS)) || !(eps >= 0 && eps <= 1)) {
        PyErr_SetString(PyExc_ValueError,
                        "duel: two sides (2 players, or 4 in partnerships), hands that leave "
                        "the locked tiles, deals >= 0, eps in [0, 1]");
        return NULL;
    }
    Pol pol[2] = {{eps_threshold(eps), 0, {0}, 0, {0}}, {eps_threshold(eps), 0, {0}, 0, {0}}};
    if (read_weights(wa, &pol[0]) < 0 || read_weights(wb, &pol[1]) < 0) return NULL;
    Rng r = {seed};
    long long total = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long long d = 0; d < deals; d++) {
        RState dealt, s;
        dealt.players = players;
        dealt.flags = flags;
        shuffle_deal(&dealt, &r, hand_size);
        for (int a_side = 0; a_side < 2; a_side++) {
            s = dealt;
            while (s.reason == GOING) {
                int side = side_of(&s, s.to_move) % 2;
                rules_apply(&s, policy(&s, &r, &pol[side == a_side ? 0 : 1]));
            }
            Score sc;
            rules_score(&s, &sc);
            if (sc.winner >= 0) total += sc.winner == a_side ? sc.points : -sc.points;
        }
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(total);
}

/* Read a state from Python: (hands, bone, bpos, left, right, to_move, passes, players, flags). */
static int read_state(PyObject *const *args, RState *s) {
    PyObject *hands = args[0], *bone = args[1];
    memset(s, 0, sizeof *s);
    long v[7]; /* bpos, left, right, to_move, passes, players, flags */
    for (int i = 0; i < 7; i++) v[i] = PyLong_AsLong(args[2 + i]);
    if (PyErr_Occurred() || parse_flags(v[5], v[6]) < 0) return -1;
    if (v[1] < -1 || v[1] > 6 || v[2] < -1 || v[2] > 6 || (v[1] < 0) != (v[2] < 0) || v[3] < 0 ||
        v[3] >= v[5] || v[4] < 0 || v[4] >= v[5] || v[0] < 0 || v[0] > NTILES) {
        PyErr_SetString(PyExc_ValueError, "state out of range");
        return -1;
    }
    s->bpos = (int)v[0];
    s->left = (int)v[1];
    s->right = (int)v[2];
    s->to_move = (int)v[3];
    s->passes = (int)v[4];
    s->players = (int)v[5];
    s->flags = (int)v[6];
    if (!PySequence_Check(hands) || PySequence_Size(hands) != s->players) {
        PyErr_SetString(PyExc_ValueError, "hands must hold one mask per seat");
        return -1;
    }
    uint32_t seen = 0;
    for (int p = 0; p < s->players; p++) {
        PyObject *item = PySequence_GetItem(hands, p);
        if (!item) return -1;
        unsigned long m = PyLong_AsUnsignedLong(item);
        Py_DECREF(item);
        if (PyErr_Occurred()) return -1;
        if (m >> NTILES || (m & seen)) {
            PyErr_SetString(PyExc_ValueError, "hands must be disjoint 28-bit masks");
            return -1;
        }
        s->hand[p] = (uint32_t)m;
        seen |= (uint32_t)m;
    }
    Py_ssize_t nb = PySequence_Size(bone);
    if (nb < 0 || nb > NTILES) {
        PyErr_SetString(PyExc_ValueError, "bone must be a sequence of at most 28 tiles");
        return -1;
    }
    for (Py_ssize_t i = 0; i < nb; i++) {
        PyObject *item = PySequence_GetItem(bone, i);
        if (!item) return -1;
        long t = PyLong_AsLong(item);
        Py_DECREF(item);
        if (PyErr_Occurred()) return -1;
        if (t < 0 || t >= NTILES) {
            PyErr_SetString(PyExc_ValueError, "tiles are indices 0..27");
            return -1;
        }
        s->bone[i] = (uint8_t)t;
    }
    s->nbone = (int)nb;
    if (s->bpos > s->nbone) {
        PyErr_SetString(PyExc_ValueError, "state out of range");
        return -1;
    }
    s->reason = GOING;
    return 0;
}

static PyObject *pips_tuple(const RState *s) {
    PyObject *out = PyTuple_New(s->players);
    if (!out) return NULL;
    for (int p = 0; p < s->players; p++)
        PyTuple_SET_ITEM(out, p, PyLong_FromLong(mask_pips(s->hand[p])));
    return out;
}

PyDoc_STRVAR(playout_doc,
"playout(hands, bone, bpos, left, right, to_move, passes, players, flags, eps, seed,\n"
"weights) -> (reason, pips, actions)\n\n"
"Play a position to the end with the playout policy (``weights``: None for the\n"
"heaviest tile, else the learned policy's weights); ``reason`` is 1 domino,\n"
"2 block, 3 all-pass; ``pips`` each seat's count at the end.");

static PyObject *playout(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "playout takes 12 arguments");
        return NULL;
    }
    RState s;
    if (read_state(args, &s) < 0) return NULL;
    double eps = PyFloat_AsDouble(args[9]);
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[10]);
    if (PyErr_Occurred()) return NULL;
    Pol pol = {eps_threshold(eps), 0, {0}, 0, {0}};
    if (read_weights(args[11], &pol) < 0) return NULL;
    Rng r = {seed};
    long actions = 0;
    while (s.reason == GOING) {
        rules_apply(&s, policy(&s, &r, &pol));
        actions++;
    }
    PyObject *pips = pips_tuple(&s);
    if (!pips) return NULL;
    return Py_BuildValue("(iNl)", s.reason, pips, actions);
}

PyDoc_STRVAR(model_scores_doc,
"model_scores(hands, bone, bpos, left, right, to_move, passes, players, flags,\n"
"coefficients) -> [(code, score)]\n\n"
"The model of play's score of each legal move of the seat to move (the tree's\n"
"opponents draw their moves from its softmax; bots.policy.model_scores is the\n"
"same). For the differential test.");

static PyObject *py_model_scores(PyObject *Py_UNUSED(self), PyObject *const *args,
                                 Py_ssize_t nargs) {
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "model_scores takes 10 arguments");
        return NULL;
    }
    RState s;
    if (read_state(args, &s) < 0) return NULL;
    Pol pol = {0, 0, {0}, 0, {0}};
    if (read_model(args[9], &pol) < 0) return NULL;
    if (!pol.fitted) {
        PyErr_SetString(PyExc_ValueError, "model_scores needs the model's coefficients");
        return NULL;
    }
    int codes[MAX_MOVES];
    double score[MAX_MOVES];
    int n = model_scores(&s, pol.beta, codes, score);
    PyObject *out = PyList_New(n);
    for (int k = 0; out && k < n; k++) {
        PyObject *item = Py_BuildValue("(id)", codes[k], score[k]);
        if (!item) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, k, item);
    }
    return out;
}

PyDoc_STRVAR(trace_doc,
"trace(hands, bone, bpos, left, right, to_move, passes, players, flags, seed)\n"
"-> (steps, reason, pips)\n\n"
"Play a position to the end with uniformly random legal moves, recording each\n"
"step as (legal codes, chosen code, to_move, left, right, hand sizes,\n"
"boneyard size) before the move. For the differential test.");

static PyObject *trace(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "trace takes 10 arguments");
        return NULL;
    }
    RState s;
    if (read_state(args, &s) < 0) return NULL;
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[9]);
    if (PyErr_Occurred()) return NULL;
    Rng r = {seed};
    PyObject *steps = PyList_New(0);
    if (!steps) return NULL;
    int moves[MAX_MOVES];
    while (s.reason == GOING) {
        int n = rules_legal(&s, moves);
        int chosen = moves[rng_below(&r, n)];
        PyObject *codes = PyTuple_New(n);
        PyObject *sizes = PyTuple_New(s.players);
        if (!codes || !sizes) goto fail;
        for (int i = 0; i < n; i++) PyTuple_SET_ITEM(codes, i, PyLong_FromLong(moves[i]));
        for (int p = 0; p < s.players; p++)
            PyTuple_SET_ITEM(sizes, p, PyLong_FromLong(popcount(s.hand[p])));
        PyObject *step = Py_BuildValue("(NiiiiNi)", codes, chosen, s.to_move, s.left, s.right,
                                       sizes, s.nbone - s.bpos);
        if (!step || PyList_Append(steps, step) < 0) {
            Py_XDECREF(step);
            goto fail;
        }
        Py_DECREF(step);
        rules_apply(&s, chosen);
    }
    PyObject *pips = pips_tuple(&s);
    if (!pips) goto fail;
    return Py_BuildValue("(NiN)", steps, s.reason, pips);
fail:
    Py_DECREF(steps);
    return NULL;
}

/* Read the eleven world arguments shared by the search entry points:
 * (hands_pool, bones_pool, cum, mode, left, right, to_move, passes, players,
 * flags, seat). On success the caller frees the arrays with free_worlds. */
static void free_worlds(Worlds *w) {
    PyMem_Free((void *)w->hands);
    PyMem_Free((void *)w->bones);
    PyMem_Free((void *)w->nbones);
    PyMem_Free((void *)w->cum);
    w->hands = NULL;
    w->bones = NULL;
    w->nbones = NULL;
    w->cum = NULL;
}

static int read_worlds(PyObject *const *args, Worlds *w) {
    memset(w, 0, sizeof *w);
    PyObject *hands_pool = args[0], *bones_pool = args[1], *cum = args[2];
    w->mode = (int)PyLong_AsLong(args[3]);
    w->seat = (int)PyLong_AsLong(args[10]);
    if (PyErr_Occurred()) return -1;
    if (w->mode < 0 || w->mode > 3) {
        PyErr_Format(PyExc_ValueError, "mode must be 0..3, got %d", w->mode);
        return -1;
    }
    if (!PySequence_Check(hands_pool) || !PySequence_Check(bones_pool)) {
        PyErr_SetString(PyExc_ValueError, "the pools must be sequences");
        return -1;
    }
    Py_ssize_t npool = PySequence_Size(hands_pool);
    if (npool < 1 || npool > 1000000 || PySequence_Size(bones_pool) != npool) {
        PyErr_SetString(PyExc_ValueError, "the pools must hold the same number (>= 1) of deals");
        return -1;
    }
    w->npool = (int)npool;
    uint32_t *hands = PyMem_Calloc((size_t)npool * 4, sizeof(uint32_t));
    uint8_t *bones = PyMem_Calloc((size_t)npool * NTILES, 1);
    int *nbones = PyMem_Calloc((size_t)npool, sizeof(int));
    double *cumw = PyMem_Calloc((size_t)npool, sizeof(double));
    w->hands = hands;
    w->bones = bones;
    w->nbones = nbones;
    w->cum = cumw;
    if (!hands || !bones || !nbones || !cumw) {
        PyErr_NoMemory();
        goto fail;
    }
    PyObject *zero = PyLong_FromLong(0);
    if (!zero) goto fail;
    for (Py_ssize_t k = 0; k < npool; k++) {
        PyObject *h = PySequence_GetItem(hands_pool, k);
        PyObject *b = h ? PySequence_GetItem(bones_pool, k) : NULL;
        if (!b) {
            Py_XDECREF(h);
            Py_DECREF(zero);
            goto fail;
        }
        PyObject *state_args[9] = {h, b, zero, args[4], args[5], args[6], args[7], args[8], args[9]};
        RState s;
        int bad = read_state(state_args, &s);
        Py_DECREF(h);
        Py_DECREF(b);
        if (bad < 0) {
            Py_DECREF(zero);
            goto fail;
        }
        uint32_t seen = 0;
        for (int p = 0; p < s.players; p++) seen |= s.hand[p];
        for (int i = 0; i < s.nbone; i++) {
            if (seen >> s.bone[i] & 1) {
                Py_DECREF(zero);
                PyErr_SetString(PyExc_ValueError, "a tile is dealt twice");
                goto fail;
            }
            seen |= 1u << s.bone[i];
        }
        for (int p = 0; p < 4; p++) hands[k * 4 + p] = s.hand[p];
        memcpy(bones + k * NTILES, s.bone, (size_t)s.nbone);
        nbones[k] = s.nbone;
        if (k == 0) w->base = s;
    }
    Py_DECREF(zero);
    if (w->seat < 0 || w->seat >= w->base.players) {
        PyErr_SetString(PyExc_ValueError, "seat out of range");
        goto fail;
    }
    if (w->mode == 1) {
        if (!PySequence_Check(cum) || PySequence_Size(cum) != npool) {
            PyErr_SetString(PyExc_ValueError, "mode 1 needs one cumulative weight per deal");
            goto fail;
        }
        double last = 0.0;
        for (Py_ssize_t k = 0; k < npool; k++) {
            PyObject *item = PySequence_GetItem(cum, k);
            if (!item) goto fail;
            double v = PyFloat_AsDouble(item);
            Py_DECREF(item);
            if (PyErr_Occurred()) goto fail;
            if (!(v >= last)) {
                PyErr_SetString(PyExc_ValueError, "cumulative weights must not decrease");
                goto fail;
            }
            cumw[k] = last = v;
        }
        if (!(last > 0.0)) {
            PyErr_SetString(PyExc_ValueError, "the weights must not all be 0");
            goto fail;
        }
    }
    return 0;
fail:
    free_worlds(w);
    return -1;
}

PyDoc_STRVAR(sample_worlds_doc,
"sample_worlds(hands_pool, bones_pool, cum, mode, left, right, to_move, passes,\n"
"players, flags, seat, count, seed) -> [(hands, bone), ...]\n\n"
"``count`` worlds drawn as the searches draw them (see Worlds in _kernel.c).\n"
"For tests.");

static PyObject *sample_worlds(PyObject *Py_UNUSED(self), PyObject *const *args,
                               Py_ssize_t nargs) {
    if (nargs != 13) {
        PyErr_SetString(PyExc_TypeError, "sample_worlds takes 13 arguments");
        return NULL;
    }
    Worlds w;
    if (read_worlds(args, &w) < 0) return NULL;
    long count = PyLong_AsLong(args[11]);
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[12]);
    PyObject *out = NULL;
    if (PyErr_Occurred()) goto done;
    if (count < 0 || count > 1000000) {
        PyErr_SetString(PyExc_ValueError, "count must be 0..1000000");
        goto done;
    }
    out = PyList_New(count);
    if (!out) goto done;
    Rng r = {seed};
    for (long i = 0; i < count; i++) {
        RState s;
        sample_world(&w, &r, &s);
        PyObject *hands = PyTuple_New(s.players), *bone = PyTuple_New(s.nbone);
        if (!hands || !bone) {
            Py_XDECREF(hands);
            Py_XDECREF(bone);
            Py_CLEAR(out);
            goto done;
        }
        for (int p = 0; p < s.players; p++)
            PyTuple_SET_ITEM(hands, p, PyLong_FromUnsignedLong(s.hand[p]));
        for (int j = 0; j < s.nbone; j++) PyTuple_SET_ITEM(bone, j, PyLong_FromLong(s.bone[j]));
        PyList_SET_ITEM(out, i, Py_BuildValue("(NN)", hands, bone));
    }
done:
    free_worlds(&w);
    return out;
}

/* Read a list of root move codes and check each is legal in deal 0. */
static int read_moves(PyObject *seq, const Worlds *w, int *moves) {
    if (w->base.to_move != w->seat) {
        PyErr_SetString(PyExc_ValueError, "the searching seat is not to move");
        return -1;
    }
    if (!PySequence_Check(seq)) {
        PyErr_SetString(PyExc_ValueError, "moves must be a sequence of move codes");
        return -1;
    }
    Py_ssize_t n = PySequence_Size(seq);
    int legal_codes[MAX_MOVES];
    int nlegal = rules_legal(&w->base, legal_codes);
    if (n < 1 || n > nlegal) {
        PyErr_SetString(PyExc_ValueError, "moves must be some of the legal moves");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        if (!item) return -1;
        long code = PyLong_AsLong(item);
        Py_DECREF(item);
        if (PyErr_Occurred()) return -1;
        int ok = 0;
        for (int j = 0; j < nlegal; j++) ok |= legal_codes[j] == code;
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "move code %ld is not legal here", code);
            return -1;
        }
        moves[i] = (int)code;
    }
    return (int)n;
}

PyDoc_STRVAR(search_flat_doc,
"search_flat(hands_pool, bones_pool, cum, mode, left, right, to_move, passes,\n"
"players, flags, seat, moves, worlds, playouts, eps, relative, seed) -> totals\n\n"
"Flat Monte Carlo (PIMC at depth 1): in each of ``worlds`` guessed worlds,\n"
"each move of ``moves`` followed by ``playouts`` policy playouts; returns the\n"
"summed value of each move for the seat's side.");

static PyObject *search_flat(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 17) {
        PyErr_SetString(PyExc_TypeError, "search_flat takes 17 arguments");
        return NULL;
    }
    Worlds w;
    if (read_worlds(args, &w) < 0) return NULL;
    PyObject *out = NULL;
    int moves[MAX_MOVES];
    int n = read_moves(args[11], &w, moves);
    long worlds = PyLong_AsLong(args[12]);
    long playouts = PyLong_AsLong(args[13]);
    double eps = PyFloat_AsDouble(args[14]);
    int relative = PyObject_IsTrue(args[15]);
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[16]);
    if (n < 0 || PyErr_Occurred() || relative < 0) goto done;
    if (worlds < 1 || worlds > 100000000 || playouts < 1 || playouts > 1000000) {
        PyErr_SetString(PyExc_ValueError, "worlds and playouts must be at least 1");
        goto done;
    }
    double totals[MAX_MOVES] = {0};
    Rng r = {seed};
    int side = side_of(&w.base, w.seat);
    Pol pol = {eps_threshold(eps), 0, {0}, 0, {0}};
    Py_BEGIN_ALLOW_THREADS
    flat_search(&w, moves, n, (int)worlds, (int)playouts, side, relative, &pol, &r, totals);
    Py_END_ALLOW_THREADS
    out = PyList_New(n);
    if (!out) goto done;
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyFloat_FromDouble(totals[i]));
done:
    free_worlds(&w);
    return out;
}

PyDoc_STRVAR(search_ismcts_doc,
"search_ismcts(hands_pool, bones_pool, cum, mode, left, right, to_move, passes,\n"
"players, flags, seat, iterations, seconds, exploration, eps, opponent_policy,\n"
"relative, seed, max_nodes, weights, opponent_weights, opponent_model,\n"
"playout_model[, opponent_split[, disguise]]) -> (iterations run, nodes,\n"
"[(code, visits, reward)])\n\n"
"Single-observer ISMCTS for ``seat`` (see bots.ismcts); ``weights`` steer the\n"
"playouts, ``opponent_weights`` the opponents' moves in the tree (None: the\n"
"heaviest tile); ``opponent_split`` (0, 1, 2) and ``disguise`` (a share of the\n"
"iterations) are IsmctsBot's options of those names. Returns the root's\n"
"children with their visits and summed rewards (points / 20).");

static PyObject *search_ismcts(PyObject *Py_UNUSED(self), PyObject *const *args,
                               Py_ssize_t nargs) {
    if (nargs < 23 || nargs > 25) {
        PyErr_SetString(PyExc_TypeError, "search_ismcts takes 23 to 25 arguments");
        return NULL;
    }
    Worlds w;
    if (read_worlds(args, &w) < 0) return NULL;
    PyObject *out = NULL;
    Tree t = {NULL, 0, 0, 0};
    long iterations = PyLong_AsLong(args[11]);
    double seconds = PyFloat_AsDouble(args[12]);
    double exploration = PyFloat_AsDouble(args[13]);
    double eps = PyFloat_AsDouble(args[14]);
    double opponent_policy = PyFloat_AsDouble(args[15]);
    int relative = PyObject_IsTrue(args[16]);
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[17]);
    long max_nodes = PyLong_AsLong(args[18]);
    long split = nargs > 23 ? PyLong_AsLong(args[23]) : 0;
    double disguise = nargs > 24 ? PyFloat_AsDouble(args[24]) : 0.0;
    if (PyErr_Occurred() || relative < 0) goto done;
    if (w.base.to_move != w.seat) {
        PyErr_SetString(PyExc_ValueError, "the searching seat is not to move");
        goto done;
    }
    if (iterations < 1 || max_nodes < 16 || max_nodes > 200000000 || !(exploration >= 0) ||
        !(opponent_policy >= 0 && opponent_policy <= 1) || split < 0 || split > 2 ||
        !(disguise >= 0 && disguise < 1)) {
        PyErr_SetString(PyExc_ValueError,
                        "need iterations >= 1, max_nodes >= 16, exploration >= 0, "
                        "opponent_policy in [0, 1], opponent_split 0, 1 or 2 and disguise "
                        "in [0, 1)");
        goto done;
    }
    t.limit = (int32_t)max_nodes;
    t.cap = 4096 < t.limit ? 4096 : t.limit;
    t.n = (Node *)malloc((size_t)t.cap * sizeof(Node));
    if (!t.n) {
        PyErr_NoMemory();
        goto done;
    }
    tree_add(&t, -1, -1, -1);
    Rng r = {seed};
    Pol pol = {eps_threshold(eps), 0, {0}, 0, {0}}, opp = {eps_threshold(eps), 0, {0}, 0, {0}};
    if (read_weights(args[19], &pol) < 0 || read_weights(args[20], &opp) < 0) goto done;
    if (read_model(args[21], &opp) < 0 || read_model(args[22], &pol) < 0) goto done;
    long done_iterations;
    Py_BEGIN_ALLOW_THREADS
    done_iterations = ismcts(&w, &t, iterations, seconds, exploration, &pol, &opp, relative,
                             opponent_policy, (int)split, disguise, &r);
    Py_END_ALLOW_THREADS
    PyObject *children = PyList_New(0);
    if (!children) goto done;
    for (int32_t c = t.n[0].child; c >= 0; c = t.n[c].sibling) {
        PyObject *item = Py_BuildValue("(ikd)", t.n[c].code, (unsigned long)t.n[c].visits,
                                       t.n[c].reward);
        if (!item || PyList_Append(children, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(children);
            goto done;
        }
        Py_DECREF(item);
    }
    out = Py_BuildValue("(liN)", done_iterations, t.len, children);
done:
    free(t.n);
    free_worlds(&w);
    return out;
}

static PyMethodDef methods[] = {
    {"random_rounds", random_rounds, METH_VARARGS, random_rounds_doc},
    {"duel", duel, METH_VARARGS, duel_doc},
    {"playout", (PyCFunction)(void (*)(void))playout, METH_FASTCALL, playout_doc},
    {"trace", (PyCFunction)(void (*)(void))trace, METH_FASTCALL, trace_doc},
    {"model_scores", (PyCFunction)(void (*)(void))py_model_scores, METH_FASTCALL,
     model_scores_doc},
    {"sample_worlds", (PyCFunction)(void (*)(void))sample_worlds, METH_FASTCALL,
     sample_worlds_doc},
    {"search_flat", (PyCFunction)(void (*)(void))search_flat, METH_FASTCALL, search_flat_doc},
    {"search_ismcts", (PyCFunction)(void (*)(void))search_ismcts, METH_FASTCALL,
     search_ismcts_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "passing_game._kernel",
    "The compiled search kernel (see passing_game.bots.kernel).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    rules_init_tables();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyModule_AddIntConstant(m, "DRAW_CODE", DRAW_CODE);
    PyModule_AddIntConstant(m, "PASS_CODE", PASS_CODE);
    PyModule_AddIntConstant(m, "F_DRAW_CONTINUE", F_DRAW_CONTINUE);
    PyModule_AddIntConstant(m, "F_FORCED", F_FORCED);
    PyModule_AddIntConstant(m, "F_PARTNERSHIPS", F_PARTNERSHIPS);
    PyModule_AddIntConstant(m, "F_PAIRWISE", F_PAIRWISE);
    PyModule_AddIntConstant(m, "F_PASS_TO_END", F_PASS_TO_END);
    return m;
}
