/* The exact two-player round as an explicit game tree: CFR+, best response,
 * policy values (issue 28, item 2; docs/SOLVED.md, DECISIONS.md P66).
 *
 * The game is one round of The Passing Game for two players on a small set
 * (Rules.max_pip, P64), modelled as the OpenSpiel game is (rl.openspiel_game):
 * chance deals the two hands (every pair of disjoint hands equally likely)
 * and the leader (R3.1), and each draw is a chance node over the tiles left
 * in the boneyard, all equally likely, which is a shuffled boneyard whose
 * last two tiles are locked (R2.4). The moves are _rules.h's, shared with the
 * C round and the search kernel. A player's information set is what its view
 * holds (R9): its own dealt hand, the leader, every move made (plays with
 * their tiles, draws and passes) and the tiles it drew itself; in bytes:
 *
 *     seat, hand mask (4 bytes, little-endian), leader, then every move's
 *     code (tile * 2 + end, 56 draw, 57 pass), a draw of its own followed by
 *     the tile drawn.
 *
 * solve.tree.infoset_key writes the same bytes from a View (tests compare).
 * Values are points of the round for seat 0 (R7: the winner's points, minus
 * for seat 1's, 0 on a tie); the game is zero-sum.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "_rules.h"

#define KEYMAX 192    /* longest information set key: 6 + 2 bytes a move */
#define MAXDRAWS 16   /* draws remembered for an information set's example */
#define CHANCE_BASE (-1000)
#define TERMINAL (-1)

/* A node: a decision (info >= 0, its information set; children
 * first..first+actions-1), a chance node (info = CHANCE_BASE - n: n equally
 * likely children from first) or a terminal (info = TERMINAL, first = its
 * points for seat 0). */
typedef struct {
    int32_t first;
    int32_t info;
} Node;

typedef struct {
    PyObject_HEAD
    /* the game */
    int max_pip, hand, flags, ntiles;
    uint8_t set[NTILES];
    int32_t ndeals;
    uint32_t *deal_hands; /* 2 per deal */
    uint8_t *deal_leader;
    /* the tree */
    Node *nodes;
    int64_t nnodes, cap;
    int32_t *roots; /* one per deal */
    /* information sets */
    int32_t ninfo, icap;
    uint8_t *iplayer, *inact;
    int64_t *iact;        /* first action's index in the per-action arrays */
    int32_t *rep_deal;    /* an example history: its deal ... */
    uint8_t *rep_draws;   /* ... and the tiles drawn in order, MAXDRAWS each */
    int64_t *koff;        /* key bytes of set i: keys[koff[i]:koff[i+1]] */
    uint8_t *keys;
    int64_t klen, kcap;
    /* per action */
    int64_t nact, acap;
    uint8_t *codes;
    double *regret, *delta, *avg;
    /* the hash of keys to sets */
    int32_t *table;
    int64_t tcap;
    int64_t iterations;
    int32_t *node_count; /* decisions per information set (built lazily) */
} Tree;

static uint64_t key_hash(const uint8_t *k, int n) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) h = (h ^ k[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static int grow(void **p, int64_t *cap, int64_t need, size_t size) {
    if (need <= *cap) return 0;
    int64_t c = *cap ? *cap : 1024;
    while (c < need) c *= 2;
    void *q = realloc(*p, (size_t)c * size);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int grow_info(Tree *t) {
    if (t->ninfo < t->icap) return 0;
    int32_t c = t->icap ? t->icap * 2 : 1024;
    void *a = realloc(t->iplayer, (size_t)c), *b = realloc(t->inact, (size_t)c);
    if (a) t->iplayer = a;
    if (b) t->inact = b;
    void *d = realloc(t->iact, (size_t)c * sizeof(int64_t)), *e = realloc(t->rep_deal, (size_t)c * 4);
    if (d) t->iact = d;
    if (e) t->rep_deal = e;
    void *f = realloc(t->rep_draws, (size_t)c * MAXDRAWS), *g = realloc(t->koff, (size_t)(c + 1) * 8);
    if (f) t->rep_draws = f;
    if (g) t->koff = g;
    if (!a || !b || !d || !e || !f || !g) return -1;
    t->icap = c;
    return 0;
}

static int rehash(Tree *t) {
    int64_t cap = t->tcap ? t->tcap * 2 : 4096;
    int32_t *tab = malloc((size_t)cap * sizeof(int32_t));
    if (!tab) return -1;
    memset(tab, 0xff, (size_t)cap * sizeof(int32_t));
    for (int32_t i = 0; i < t->ninfo; i++) {
        const uint8_t *k = t->keys + t->koff[i];
        int n = (int)(t->koff[i + 1] - t->koff[i]);
        int64_t h = (int64_t)(key_hash(k, n) & (uint64_t)(cap - 1));
        while (tab[h] >= 0) h = (h + 1) & (cap - 1);
        tab[h] = i;
    }
    free(t->table);
    t->table = tab;
    t->tcap = cap;
    return 0;
}

/* The information set of ``key`` (made on first sight, with the legal moves
 * and the example history); -1 when out of memory. */
static int32_t info_of(Tree *t, const uint8_t *key, int n, const int *legal, int nleg, int player,
                       int32_t deal, const uint8_t *draws, int ndraws) {
    if ((t->ninfo + 1) * 2 > t->tcap && rehash(t) < 0) return -1;
    int64_t h = (int64_t)(key_hash(key, n) & (uint64_t)(t->tcap - 1));
    for (;; h = (h + 1) & (t->tcap - 1)) {
        int32_t i = t->table[h];
        if (i < 0) break;
        if (t->koff[i + 1] - t->koff[i] == n && !memcmp(t->keys + t->koff[i], key, (size_t)n)) return i;
    }
    if (grow_info(t) < 0) return -1;
    if (grow((void **)&t->keys, &t->kcap, t->klen + n, 1) < 0) return -1;
    int64_t need = t->nact + nleg;
    if (need > t->acap) {
        int64_t c = t->acap;
        if (grow((void **)&t->codes, &c, need, 1) < 0) return -1;
        c = t->acap;
        if (grow((void **)&t->regret, &c, need, sizeof(double)) < 0) return -1;
        c = t->acap;
        if (grow((void **)&t->delta, &c, need, sizeof(double)) < 0) return -1;
        c = t->acap;
        if (grow((void **)&t->avg, &c, need, sizeof(double)) < 0) return -1;
        t->acap = c;
    }
    int32_t i = t->ninfo++;
    t->iplayer[i] = (uint8_t)player;
    t->inact[i] = (uint8_t)nleg;
    t->iact[i] = t->nact;
    for (int a = 0; a < nleg; a++) {
        t->codes[t->nact + a] = (uint8_t)legal[a];
        t->regret[t->nact + a] = t->delta[t->nact + a] = t->avg[t->nact + a] = 0.0;
    }
    t->nact += nleg;
    t->rep_deal[i] = deal;
    memset(t->rep_draws + (int64_t)i * MAXDRAWS, 0xff, MAXDRAWS);
    memcpy(t->rep_draws + (int64_t)i * MAXDRAWS, draws, (size_t)(ndraws < MAXDRAWS ? ndraws : MAXDRAWS));
    t->koff[i] = t->klen;
    memcpy(t->keys + t->klen, key, (size_t)n);
    t->klen += n;
    t->koff[i + 1] = t->klen;
    t->table[h] = i;
    return i;
}

static int64_t alloc_nodes(Tree *t, int n) {
    if (grow((void **)&t->nodes, &t->cap, t->nnodes + n, sizeof(Node)) < 0) return -1;
    int64_t first = t->nnodes;
    t->nnodes += n;
    return first;
}

/* Build the subtree of node ``at`` for state ``s``; k[p] holds seat p's key
 * so far (n[p] bytes). Returns -1 when out of memory. */
static int build(Tree *t, int64_t at, const RState *s, uint8_t k[2][KEYMAX], int n0, int n1, int32_t deal,
                 uint8_t *draws, int ndraws) {
    if (s->reason != GOING) {
        Score sc = {0};
        rules_score(s, &sc);
        t->nodes[at].info = TERMINAL;
        t->nodes[at].first = sc.winner < 0 ? 0 : sc.winner == 0 ? sc.points : -sc.points;
        return 0;
    }
    if (n0 + 2 > KEYMAX || n1 + 2 > KEYMAX) {
        PyErr_SetString(PyExc_ValueError, "a history is too long for the solver");
        return -1;
    }
    int p = s->to_move, legal[MAX_MOVES], nleg = rules_legal(s, legal);
    int32_t info = info_of(t, k[p], p ? n1 : n0, legal, nleg, p, deal, draws, ndraws);
    if (info < 0) return -1;
    int64_t first = alloc_nodes(t, nleg);
    if (first < 0) return -1;
    t->nodes[at].info = info;
    t->nodes[at].first = (int32_t)first;
    if (first > INT32_MAX - 64) {
        PyErr_SetString(PyExc_MemoryError, "the tree has more nodes than the solver indexes");
        return -1;
    }
    for (int a = 0; a < nleg; a++) {
        int code = legal[a];
        k[0][n0] = k[1][n1] = (uint8_t)code;
        if (code != DRAW_CODE) {
            RState c = *s;
            rules_apply(&c, code);
            if (build(t, first + a, &c, k, n0 + 1, n1 + 1, deal, draws, ndraws) < 0) return -1;
            continue;
        }
        int left = s->nbone - s->bpos;
        int64_t kids = alloc_nodes(t, left);
        if (kids < 0) return -1;
        t->nodes[first + a].info = CHANCE_BASE - left;
        t->nodes[first + a].first = (int32_t)kids;
        for (int j = 0; j < left; j++) {
            RState c = *s;
            uint8_t tile = c.bone[c.bpos + j];
            c.bone[c.bpos + j] = c.bone[c.bpos];
            c.bone[c.bpos] = tile;
            rules_apply(&c, DRAW_CODE);
            if (ndraws < MAXDRAWS) draws[ndraws] = tile;
            int m0 = n0 + 1, m1 = n1 + 1;
            if (p == 0)
                k[0][m0++] = tile;
            else
                k[1][m1++] = tile;
            if (build(t, kids + j, &c, k, m0, m1, deal, draws, ndraws + 1) < 0) return -1;
        }
    }
    return 0;
}

static void tree_free(Tree *t) {
    free(t->deal_hands), free(t->deal_leader), free(t->nodes), free(t->roots);
    free(t->iplayer), free(t->inact), free(t->iact), free(t->rep_deal), free(t->rep_draws);
    free(t->koff), free(t->keys), free(t->codes), free(t->regret), free(t->delta), free(t->avg);
    free(t->table), free(t->node_count);
    memset((char *)t + sizeof(PyObject), 0, sizeof(Tree) - sizeof(PyObject));
}

static void Tree_dealloc(Tree *t) {
    tree_free(t);
    Py_TYPE(t)->tp_free((PyObject *)t);
}

/* Every hand of ``size`` tiles from ``pool`` (a mask), appended to ``out``. */
static int64_t hands_of(uint32_t pool, int size, uint32_t *out, int64_t n) {
    if (size == 0) {
        if (out) out[n] = 0;
        return n + 1;
    }
    int64_t start = n;
    for (uint32_t m = pool; m; m &= m - 1) {
        int t = __builtin_ctz(m);
        uint32_t rest = pool & ~((2u << t) - 1); /* higher tiles only: each hand once */
        int64_t before = n;
        n = hands_of(rest, size - 1, out, n);
        if (out)
            for (int64_t i = before; i < n; i++) out[i] |= 1u << t;
    }
    (void)start;
    return n;
}

static int Tree_init(Tree *t, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"max_pip", "hand_size", "flags", "leader", NULL};
    int max_pip, hand, flags, lead = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iii|i", kwlist, &max_pip, &hand, &flags, &lead)) return -1;
    tree_free(t);
    rules_init_tables();
    if (max_pip < 2 || max_pip > 6 || hand < 1 || (flags & ~(F_DRAW_CONTINUE | F_FORCED | F_PAIRWISE)) || lead < -1 ||
        lead > 1) {
        PyErr_SetString(PyExc_ValueError, "Tree(max_pip 2-6, hand_size >= 1, flags of D1, D2, D4, leader -1, 0 or 1)");
        return -1;
    }
    t->max_pip = max_pip, t->hand = hand, t->flags = flags;
    t->ntiles = rules_set(max_pip, t->set);
    if (2 * hand > t->ntiles - LOCKED) {
        PyErr_SetString(PyExc_ValueError, "hand_size leaves no room for the two locked tiles");
        return -1;
    }
    if (t->ntiles - 2 * hand - LOCKED > MAXDRAWS) {
        PyErr_SetString(PyExc_ValueError, "too many draws for the solver");
        return -1;
    }
    uint32_t all = 0;
    for (int i = 0; i < t->ntiles; i++) all |= 1u << t->set[i];
    int64_t first = hands_of(all, hand, NULL, 0);
    uint32_t *firsts = malloc((size_t)first * 4);
    if (!firsts) return PyErr_NoMemory(), -1;
    for (int64_t i = 0; i < first; i++) firsts[i] = 0;
    hands_of(all, hand, firsts, 0);
    int64_t seconds = hands_of(all & ~firsts[0], hand, NULL, 0);
    int leaders = lead < 0 ? 2 : 1; /* R3.1: the leader by chance, or fixed */
    t->ndeals = (int32_t)(first * seconds * leaders);
    t->deal_hands = malloc((size_t)t->ndeals * 8);
    t->deal_leader = malloc((size_t)t->ndeals);
    t->roots = malloc((size_t)t->ndeals * 4);
    uint32_t *second = malloc((size_t)seconds * 4);
    if (!t->deal_hands || !t->deal_leader || !t->roots || !second) {
        free(firsts), free(second);
        return PyErr_NoMemory(), -1;
    }
    int32_t d = 0;
    for (int64_t i = 0; i < first; i++) {
        for (int64_t j = 0; j < seconds; j++) second[j] = 0;
        hands_of(all & ~firsts[i], hand, second, 0);
        for (int64_t j = 0; j < seconds; j++)
            for (int leader = 0; leader < leaders; leader++, d++) {
                t->deal_hands[2 * d] = firsts[i];
                t->deal_hands[2 * d + 1] = second[j];
                t->deal_leader[d] = (uint8_t)(lead < 0 ? leader : lead);
            }
    }
    free(firsts), free(second);
    if (rehash(t) < 0) return PyErr_NoMemory(), -1;
    uint8_t k[2][KEYMAX], draws[MAXDRAWS];
    for (d = 0; d < t->ndeals; d++) {
        int64_t root = alloc_nodes(t, 1);
        if (root < 0) return PyErr_NoMemory(), -1;
        t->roots[d] = (int32_t)root;
        RState s;
        memset(&s, 0, sizeof(s));
        s.players = 2, s.flags = flags, s.left = s.right = -1;
        s.hand[0] = t->deal_hands[2 * d], s.hand[1] = t->deal_hands[2 * d + 1];
        s.to_move = t->deal_leader[d];
        uint32_t rest = all & ~s.hand[0] & ~s.hand[1];
        for (uint32_t m = rest; m; m &= m - 1) s.bone[s.nbone++] = (uint8_t)__builtin_ctz(m);
        for (int p = 0; p < 2; p++) {
            k[p][0] = (uint8_t)p;
            for (int b = 0; b < 4; b++) k[p][1 + b] = (uint8_t)(s.hand[p] >> (8 * b));
            k[p][5] = (uint8_t)s.to_move;
        }
        if (build(t, root, &s, k, 6, 6, d, draws, 0) < 0) {
            if (!PyErr_Occurred()) PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

/* Regret matching+: the current strategy of set i into ``out``. */
static inline void current(const Tree *t, int32_t i, double *out) {
    int n = t->inact[i];
    const double *r = t->regret + t->iact[i];
    double sum = 0;
    for (int a = 0; a < n; a++) sum += r[a] > 0 ? r[a] : 0;
    for (int a = 0; a < n; a++) out[a] = sum > 0 ? (r[a] > 0 ? r[a] : 0) / sum : 1.0 / n;
}

/* One CFR+ traversal for seat ``upd``: returns seat 0's value; regrets of
 * upd's sets accumulate into delta, the other seat's average strategy grows
 * by weight * its reach. ``reach``: chance and the other seat's. */
static double cfr(Tree *t, int64_t at, int upd, double reach, double weight) {
    Node nd = t->nodes[at];
    if (nd.info == TERMINAL) return nd.first;
    if (nd.info <= CHANCE_BASE) {
        int n = CHANCE_BASE - nd.info;
        double v = 0;
        for (int j = 0; j < n; j++) v += cfr(t, nd.first + j, upd, reach / n, weight);
        return v / n;
    }
    if (reach == 0) return 0;
    int32_t i = nd.info;
    int n = t->inact[i], p = t->iplayer[i];
    double sigma[MAX_MOVES], vals[MAX_MOVES], v = 0;
    current(t, i, sigma);
    if (p == upd) {
        for (int a = 0; a < n; a++) {
            vals[a] = cfr(t, nd.first + a, upd, reach, weight);
            v += sigma[a] * vals[a];
        }
        double sign = upd == 0 ? 1.0 : -1.0, *dl = t->delta + t->iact[i];
        for (int a = 0; a < n; a++) dl[a] += reach * sign * (vals[a] - v);
        return v;
    }
    double *avg = t->avg + t->iact[i];
    for (int a = 0; a < n; a++) {
        avg[a] += weight * reach * sigma[a];
        if (sigma[a] > 0) v += sigma[a] * cfr(t, nd.first + a, upd, reach * sigma[a], weight);
    }
    return v;
}

static PyObject *Tree_run(Tree *t, PyObject *args) {
    long long iterations;
    if (!PyArg_ParseTuple(args, "L", &iterations)) return NULL;
    if (iterations < 0) {
        PyErr_SetString(PyExc_ValueError, "iterations must be >= 0");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS;
    for (long long it = 0; it < iterations; it++) {
        double weight = (double)(++t->iterations); /* CFR+'s linear average */
        for (int upd = 0; upd < 2; upd++) {
            for (int32_t d = 0; d < t->ndeals; d++) cfr(t, t->roots[d], upd, 1.0 / t->ndeals, weight);
            for (int32_t i = 0; i < t->ninfo; i++) {
                if (t->iplayer[i] != upd) continue;
                double *r = t->regret + t->iact[i], *dl = t->delta + t->iact[i];
                for (int a = 0; a < t->inact[i]; a++) {
                    r[a] += dl[a];
                    if (r[a] < 0) r[a] = 0;
                    dl[a] = 0;
                }
            }
        }
    }
    Py_END_ALLOW_THREADS;
    return PyLong_FromLongLong(t->iterations);
}

/* A policy from Python: a buffer of doubles (or their raw bytes, as
 * average_policy returns them), one per action, set by set in ``offsets``
 * order. */
static int policy_buffer(Tree *t, PyObject *obj, Py_buffer *view) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    int raw = view->itemsize == 1, doubles = view->itemsize == sizeof(double) && view->format &&
                                                 strcmp(view->format, "d") == 0;
    if (!(raw || doubles) || view->len != (Py_ssize_t)(t->nact * (int64_t)sizeof(double))) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "a policy is %lld doubles (one per action)", (long long)t->nact);
        return -1;
    }
    return 0;
}

/* The value for seat 0 when seat p plays pol[p]. */
static double evaluate(const Tree *t, int64_t at, const double *pol0, const double *pol1) {
    Node nd = t->nodes[at];
    if (nd.info == TERMINAL) return nd.first;
    if (nd.info <= CHANCE_BASE) {
        int n = CHANCE_BASE - nd.info;
        double v = 0;
        for (int j = 0; j < n; j++) v += evaluate(t, nd.first + j, pol0, pol1);
        return v / n;
    }
    int32_t i = nd.info;
    const double *pr = (t->iplayer[i] ? pol1 : pol0) + t->iact[i];
    double v = 0;
    for (int a = 0; a < t->inact[i]; a++)
        if (pr[a] > 0) v += pr[a] * evaluate(t, nd.first + a, pol0, pol1);
    return v;
}

/* Best response of seat ``br`` to the other seat's ``pol``: lazily, each of
 * br's sets takes the action whose value, summed over the set's decisions
 * weighted by chance and the other seat's reach, is largest (ties: the
 * first). Needs every decision's reach (``reach``) and the decisions of each
 * set (``members``); node values are kept in ``memo``. */
typedef struct {
    const Tree *t;
    int br;
    const double *pol;
    double *reach, *memo;
    int32_t *best, *members, *mstart;
} BR;

static void reaches(const Tree *t, int64_t at, const double *pol, int br, double r, double *reach) {
    Node nd = t->nodes[at];
    reach[at] = r;
    if (nd.info == TERMINAL) return;
    if (nd.info <= CHANCE_BASE) {
        int n = CHANCE_BASE - nd.info;
        for (int j = 0; j < n; j++) reaches(t, nd.first + j, pol, br, r / n, reach);
        return;
    }
    int32_t i = nd.info;
    const double *pr = pol + t->iact[i];
    for (int a = 0; a < t->inact[i]; a++)
        reaches(t, nd.first + a, pol, br, t->iplayer[i] == br ? r : r * pr[a], reach);
}

static double br_value(BR *b, int64_t at);

static int32_t br_choose(BR *b, int32_t i) {
    if (b->best[i] >= 0) return b->best[i];
    const Tree *t = b->t;
    int n = t->inact[i];
    double sums[MAX_MOVES] = {0}, sign = b->br == 0 ? 1.0 : -1.0;
    for (int32_t m = b->mstart[i]; m < b->mstart[i + 1]; m++) {
        int64_t at = b->members[m];
        double r = b->reach[at];
        if (r == 0) continue;
        for (int a = 0; a < n; a++) sums[a] += r * sign * br_value(b, t->nodes[at].first + a);
    }
    int best = 0;
    for (int a = 1; a < n; a++)
        if (sums[a] > sums[best]) best = a;
    b->best[i] = best;
    return best;
}

static double br_value(BR *b, int64_t at) {
    if (!isnan(b->memo[at])) return b->memo[at];
    const Tree *t = b->t;
    Node nd = t->nodes[at];
    double v = 0;
    if (nd.info == TERMINAL) {
        v = nd.first;
    } else if (nd.info <= CHANCE_BASE) {
        int n = CHANCE_BASE - nd.info;
        for (int j = 0; j < n; j++) v += br_value(b, nd.first + j);
        v /= n;
    } else if (t->iplayer[nd.info] == b->br) {
        v = br_value(b, nd.first + br_choose(b, nd.info));
    } else {
        const double *pr = b->pol + t->iact[nd.info];
        for (int a = 0; a < t->inact[nd.info]; a++)
            if (pr[a] > 0) v += pr[a] * br_value(b, nd.first + a);
    }
    b->memo[at] = v;
    return v;
}

/* Decision nodes grouped by set: members[mstart[i]:mstart[i+1]]. */
static int group(const Tree *t, int32_t **members, int32_t **mstart) {
    int32_t *start = calloc((size_t)t->ninfo + 1, 4);
    int64_t decisions = 0;
    for (int64_t at = 0; at < t->nnodes; at++)
        if (t->nodes[at].info >= 0) start[t->nodes[at].info + 1]++, decisions++;
    int32_t *mem = malloc((size_t)(decisions ? decisions : 1) * 4), *fill = malloc((size_t)t->ninfo * 4 + 4);
    if (!start || !mem || !fill) {
        free(start), free(mem), free(fill);
        return -1;
    }
    for (int32_t i = 0; i < t->ninfo; i++) start[i + 1] += start[i];
    memcpy(fill, start, (size_t)t->ninfo * 4);
    for (int64_t at = 0; at < t->nnodes; at++)
        if (t->nodes[at].info >= 0) mem[fill[t->nodes[at].info]++] = (int32_t)at;
    free(fill);
    *members = mem;
    *mstart = start;
    return 0;
}

/* best_response(policy, seat) -> (value for seat 0, list of the best action's index per set of seat) */
static PyObject *Tree_best_response(Tree *t, PyObject *args) {
    PyObject *obj;
    int br;
    if (!PyArg_ParseTuple(args, "Oi", &obj, &br)) return NULL;
    if (br != 0 && br != 1) {
        PyErr_SetString(PyExc_ValueError, "seat must be 0 or 1");
        return NULL;
    }
    Py_buffer view;
    if (policy_buffer(t, obj, &view) < 0) return NULL;
    BR b = {t, br, view.buf, NULL, NULL, NULL, NULL, NULL};
    b.reach = malloc((size_t)t->nnodes * sizeof(double));
    b.memo = malloc((size_t)t->nnodes * sizeof(double));
    b.best = malloc((size_t)t->ninfo * 4 + 4);
    if (!b.reach || !b.memo || !b.best || group(t, &b.members, &b.mstart) < 0) {
        free(b.reach), free(b.memo), free(b.best);
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    double total = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (int64_t at = 0; at < t->nnodes; at++) b.memo[at] = NAN;
    memset(b.best, 0xff, (size_t)t->ninfo * 4);
    for (int32_t d = 0; d < t->ndeals; d++) reaches(t, t->roots[d], b.pol, br, 1.0 / t->ndeals, b.reach);
    for (int32_t d = 0; d < t->ndeals; d++) total += br_value(&b, t->roots[d]);
    for (int32_t i = 0; i < t->ninfo; i++)
        if (t->iplayer[i] == br) br_choose(&b, i);
    Py_END_ALLOW_THREADS;
    PyObject *choice = PyList_New(t->ninfo);
    for (int32_t i = 0; choice && i < t->ninfo; i++)
        PyList_SET_ITEM(choice, i, PyLong_FromLong(t->iplayer[i] == br ? b.best[i] : -1));
    free(b.reach), free(b.memo), free(b.best), free(b.members), free(b.mstart);
    PyBuffer_Release(&view);
    if (!choice) return NULL;
    return Py_BuildValue("(dN)", total / t->ndeals, choice);
}

/* Two policies from the arguments (seat 0's, seat 1's); -1 with an error. */
static int two_policies(Tree *t, PyObject *args, Py_buffer *v0, Py_buffer *v1) {
    PyObject *o0, *o1;
    if (!PyArg_ParseTuple(args, "OO", &o0, &o1)) return -1;
    if (policy_buffer(t, o0, v0) < 0) return -1;
    if (policy_buffer(t, o1, v1) < 0) {
        PyBuffer_Release(v0);
        return -1;
    }
    return 0;
}

static PyObject *Tree_value(Tree *t, PyObject *args) {
    Py_buffer v0, v1;
    if (two_policies(t, args, &v0, &v1) < 0) return NULL;
    double total = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (int32_t d = 0; d < t->ndeals; d++) total += evaluate(t, t->roots[d], v0.buf, v1.buf);
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&v0);
    PyBuffer_Release(&v1);
    return PyFloat_FromDouble(total / t->ndeals);
}

/* infoset_reach(pol0, pol1) -> bytes of doubles: each set's reach probability
 * (chance and both seats) summed over its decisions. */
static void both_reach(const Tree *t, int64_t at, const double *p0, const double *p1, double r, double *out) {
    Node nd = t->nodes[at];
    if (nd.info == TERMINAL || r == 0) return;
    if (nd.info <= CHANCE_BASE) {
        int n = CHANCE_BASE - nd.info;
        for (int j = 0; j < n; j++) both_reach(t, nd.first + j, p0, p1, r / n, out);
        return;
    }
    int32_t i = nd.info;
    out[i] += r;
    const double *pr = (t->iplayer[i] ? p1 : p0) + t->iact[i];
    for (int a = 0; a < t->inact[i]; a++) both_reach(t, nd.first + a, p0, p1, r * pr[a], out);
}

static PyObject *Tree_infoset_reach(Tree *t, PyObject *args) {
    Py_buffer v0, v1;
    if (two_policies(t, args, &v0, &v1) < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)t->ninfo * (Py_ssize_t)sizeof(double));
    if (out) {
        double *r = (double *)PyBytes_AS_STRING(out);
        for (int32_t i = 0; i < t->ninfo; i++) r[i] = 0;
        for (int32_t d = 0; d < t->ndeals; d++) both_reach(t, t->roots[d], v0.buf, v1.buf, 1.0 / t->ndeals, r);
    }
    PyBuffer_Release(&v0);
    PyBuffer_Release(&v1);
    return out;
}

/* frontier(policy, known, seat) -> the sets of ``seat`` reached with positive
 * reach of its own (by ``policy``) whose ``known`` byte is 0: where a policy
 * that is asked lazily must be asked next. Descent stops at them. */
static void frontier_walk(const Tree *t, int64_t at, const double *pol, const uint8_t *known, int seat,
                          uint8_t *mark) {
    Node nd = t->nodes[at];
    if (nd.info == TERMINAL) return;
    if (nd.info <= CHANCE_BASE) {
        int n = CHANCE_BASE - nd.info;
        for (int j = 0; j < n; j++) frontier_walk(t, nd.first + j, pol, known, seat, mark);
        return;
    }
    int32_t i = nd.info;
    if (t->iplayer[i] == seat) {
        if (!known[i]) {
            mark[i] = 1;
            return;
        }
        const double *pr = pol + t->iact[i];
        for (int a = 0; a < t->inact[i]; a++)
            if (pr[a] > 0) frontier_walk(t, nd.first + a, pol, known, seat, mark);
        return;
    }
    for (int a = 0; a < t->inact[i]; a++) frontier_walk(t, nd.first + a, pol, known, seat, mark);
}

static PyObject *Tree_frontier(Tree *t, PyObject *args) {
    PyObject *obj;
    Py_buffer known;
    int seat;
    if (!PyArg_ParseTuple(args, "Oy*i", &obj, &known, &seat)) return NULL;
    Py_buffer view;
    if (known.len != t->ninfo || seat < 0 || seat > 1) {
        PyBuffer_Release(&known);
        PyErr_SetString(PyExc_ValueError, "frontier(policy, known: one byte per set, seat 0 or 1)");
        return NULL;
    }
    if (policy_buffer(t, obj, &view) < 0) {
        PyBuffer_Release(&known);
        return NULL;
    }
    uint8_t *mark = calloc((size_t)t->ninfo + 1, 1);
    if (mark)
        for (int32_t d = 0; d < t->ndeals; d++) frontier_walk(t, t->roots[d], view.buf, known.buf, seat, mark);
    PyBuffer_Release(&view);
    PyBuffer_Release(&known);
    if (!mark) return PyErr_NoMemory();
    PyObject *out = PyList_New(0);
    for (int32_t i = 0; out && i < t->ninfo; i++)
        if (mark[i]) {
            PyObject *n = PyLong_FromLong(i);
            if (!n || PyList_Append(out, n) < 0) Py_CLEAR(out);
            Py_XDECREF(n);
        }
    free(mark);
    return out;
}

static PyObject *policy_bytes(const Tree *t, int average) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)t->nact * (Py_ssize_t)sizeof(double));
    if (!out) return NULL;
    double *p = (double *)PyBytes_AS_STRING(out);
    for (int32_t i = 0; i < t->ninfo; i++) {
        int n = t->inact[i];
        double *q = p + t->iact[i];
        if (!average) {
            current(t, i, q);
            continue;
        }
        const double *s = t->avg + t->iact[i];
        double sum = 0;
        for (int a = 0; a < n; a++) sum += s[a];
        for (int a = 0; a < n; a++) q[a] = sum > 0 ? s[a] / sum : 1.0 / n;
    }
    return out;
}

static PyObject *Tree_average_policy(Tree *t, PyObject *Py_UNUSED(unused)) { return policy_bytes(t, 1); }
static PyObject *Tree_current_policy(Tree *t, PyObject *Py_UNUSED(unused)) { return policy_bytes(t, 0); }

/* infoset(i) -> (seat, key bytes, legal codes, example deal's hands, leader, draws) */
static PyObject *Tree_infoset(Tree *t, PyObject *arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= t->ninfo) {
        PyErr_SetString(PyExc_IndexError, "no such information set");
        return NULL;
    }
    int32_t d = t->rep_deal[i];
    const uint8_t *dr = t->rep_draws + (int64_t)i * MAXDRAWS;
    int nd = 0;
    while (nd < MAXDRAWS && dr[nd] != 0xff) nd++;
    return Py_BuildValue("(iy#y#(kk)iy#)", t->iplayer[i], t->keys + t->koff[i],
                         (Py_ssize_t)(t->koff[i + 1] - t->koff[i]), t->codes + t->iact[i], (Py_ssize_t)t->inact[i],
                         (unsigned long)t->deal_hands[2 * d], (unsigned long)t->deal_hands[2 * d + 1],
                         (int)t->deal_leader[d], dr, (Py_ssize_t)nd);
}

/* action_values(pol0, pol1) -> (q, w, m, low): each action's counterfactual
 * value and each set's weight, count margin and chance of being lowest, with every seat playing its policy
 * (issue 28, item 7: what a deviation costs). A decision h of set I weighs
 * cf(h): chance times the other seat's reach (the mover's own reach is left
 * out, so every set is valued, reached or not). q[a] sums cf(h) * Q(h, a),
 * Q being seat 0's value after action a with both seats playing on by their
 * policies; w[I] sums cf(h); m[I] sums cf(h) * (the other seat's pips less
 * the mover's at h) and low[I] cf(h) where the mover's count is strictly the
 * lower. So q[a] / w[I] is a's value given what the mover knows at I, and
 * m[I] / w[I], low[I] / w[I] its expected margin and its chance of holding
 * the lower count there (a pass back would end the round in its favour, D3). */
typedef struct {
    const Tree *t;
    const double *pol[2];
    double *q, *w, *m, *low;
} AV;

static double av_walk(AV *v, int64_t at, const RState *s, double chance, double r0, double r1) {
    const Tree *t = v->t;
    Node nd = t->nodes[at];
    if (nd.info == TERMINAL) return nd.first;
    if (nd.info <= CHANCE_BASE) {
        int n = CHANCE_BASE - nd.info;
        double total = 0;
        for (int j = 0; j < n; j++) {
            RState c = *s;
            uint8_t tile = c.bone[c.bpos + j];
            c.bone[c.bpos + j] = c.bone[c.bpos];
            c.bone[c.bpos] = tile;
            rules_apply(&c, DRAW_CODE);
            total += av_walk(v, nd.first + j, &c, chance / n, r0, r1);
        }
        return total / n;
    }
    int32_t i = nd.info;
    int n = t->inact[i], p = t->iplayer[i];
    const double *pr = v->pol[p] + t->iact[i];
    double cf = chance * (p ? r0 : r1), value = 0;
    v->w[i] += cf;
    int margin = mask_pips(s->hand[1 - p]) - mask_pips(s->hand[p]);
    v->m[i] += cf * margin;
    if (margin > 0) v->low[i] += cf;
    for (int a = 0; a < n; a++) {
        int code = t->codes[t->iact[i] + a];
        double n0 = p ? r0 : r0 * pr[a], n1 = p ? r1 * pr[a] : r1, q;
        if (code == DRAW_CODE) { /* the chance node below applies the draw */
            q = av_walk(v, nd.first + a, s, chance, n0, n1);
        } else {
            RState c = *s;
            rules_apply(&c, code);
            q = av_walk(v, nd.first + a, &c, chance, n0, n1);
        }
        v->q[t->iact[i] + a] += cf * q;
        value += pr[a] * q;
    }
    return value;
}

static PyObject *Tree_action_values(Tree *t, PyObject *args) {
    PyObject *o0, *o1;
    if (!PyArg_ParseTuple(args, "OO", &o0, &o1)) return NULL;
    Py_buffer v0, v1;
    if (policy_buffer(t, o0, &v0) < 0) return NULL;
    if (policy_buffer(t, o1, &v1) < 0) {
        PyBuffer_Release(&v0);
        return NULL;
    }
    PyObject *q = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(t->nact * (int64_t)sizeof(double)));
    PyObject *w = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)t->ninfo * (Py_ssize_t)sizeof(double));
    PyObject *m = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)t->ninfo * (Py_ssize_t)sizeof(double));
    PyObject *low = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)t->ninfo * (Py_ssize_t)sizeof(double));
    PyObject *out = NULL;
    if (q && w && m && low) {
        AV v = {t, {v0.buf, v1.buf}, (double *)PyBytes_AS_STRING(q), (double *)PyBytes_AS_STRING(w),
                (double *)PyBytes_AS_STRING(m), (double *)PyBytes_AS_STRING(low)};
        memset(v.q, 0, (size_t)t->nact * sizeof(double));
        memset(v.w, 0, (size_t)t->ninfo * sizeof(double));
        memset(v.m, 0, (size_t)t->ninfo * sizeof(double));
        memset(v.low, 0, (size_t)t->ninfo * sizeof(double));
        Py_BEGIN_ALLOW_THREADS;
        uint32_t all = 0;
        for (int k = 0; k < t->ntiles; k++) all |= 1u << t->set[k];
        for (int32_t d = 0; d < t->ndeals; d++) {
            RState s;
            memset(&s, 0, sizeof(s));
            s.players = 2, s.flags = t->flags, s.left = s.right = -1;
            s.hand[0] = t->deal_hands[2 * d], s.hand[1] = t->deal_hands[2 * d + 1];
            s.to_move = t->deal_leader[d];
            for (uint32_t rest = all & ~s.hand[0] & ~s.hand[1]; rest; rest &= rest - 1)
                s.bone[s.nbone++] = (uint8_t)__builtin_ctz(rest);
            av_walk(&v, t->roots[d], &s, 1.0 / t->ndeals, 1.0, 1.0);
        }
        Py_END_ALLOW_THREADS;
        out = Py_BuildValue("(OOOO)", q, w, m, low);
    } else {
        PyErr_NoMemory();
    }
    Py_XDECREF(q), Py_XDECREF(w), Py_XDECREF(m), Py_XDECREF(low);
    PyBuffer_Release(&v0);
    PyBuffer_Release(&v1);
    return out;
}

/* offsets() -> bytes of int64: each set's first action's index, then the total. */
static PyObject *Tree_offsets(Tree *t, PyObject *Py_UNUSED(unused)) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, ((Py_ssize_t)t->ninfo + 1) * 8);
    if (!out) return NULL;
    int64_t *o = (int64_t *)PyBytes_AS_STRING(out);
    for (int32_t i = 0; i < t->ninfo; i++) o[i] = t->iact[i];
    o[t->ninfo] = t->nact;
    return out;
}

static PyObject *Tree_find(Tree *t, PyObject *arg) {
    char *key;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(arg, &key, &n) < 0) return NULL;
    int64_t h = (int64_t)(key_hash((uint8_t *)key, (int)n) & (uint64_t)(t->tcap - 1));
    for (;; h = (h + 1) & (t->tcap - 1)) {
        int32_t i = t->table[h];
        if (i < 0) return PyLong_FromLong(-1);
        if (t->koff[i + 1] - t->koff[i] == n && !memcmp(t->keys + t->koff[i], key, (size_t)n)) return PyLong_FromLong(i);
    }
}

static PyObject *Tree_stats(Tree *t, PyObject *Py_UNUSED(unused)) {
    int64_t decisions = 0, terminals = 0, chance = 0;
    for (int64_t at = 0; at < t->nnodes; at++) {
        int32_t info = t->nodes[at].info;
        decisions += info >= 0, terminals += info == TERMINAL, chance += info <= CHANCE_BASE;
    }
    int64_t bytes = t->cap * (int64_t)sizeof(Node) + t->acap * (1 + 3 * (int64_t)sizeof(double)) +
                    (int64_t)t->icap * (2 + 8 + 4 + MAXDRAWS + 8) + t->kcap + t->tcap * 4 + (int64_t)t->ndeals * 13;
    return Py_BuildValue("{s:L,s:L,s:L,s:L,s:i,s:L,s:i,s:L,s:L}", "nodes", (long long)t->nnodes, "decisions",
                         (long long)decisions, "terminals", (long long)terminals, "chance", (long long)chance,
                         "infosets", (int)t->ninfo, "actions", (long long)t->nact, "deals", (int)t->ndeals,
                         "iterations", (long long)t->iterations, "bytes", (long long)bytes);
}

static PyMethodDef Tree_methods[] = {
    {"run", (PyCFunction)Tree_run, METH_VARARGS, "run(iterations) -> iterations so far: CFR+ (alternating, linear average)"},
    {"average_policy", (PyCFunction)Tree_average_policy, METH_NOARGS, "the average strategy, a double per action"},
    {"current_policy", (PyCFunction)Tree_current_policy, METH_NOARGS, "the current strategy (regret matching+)"},
    {"best_response", (PyCFunction)Tree_best_response, METH_VARARGS,
     "best_response(policy, seat) -> (seat 0's value, each set's best action index or -1)"},
    {"value", (PyCFunction)Tree_value, METH_VARARGS, "value(policy0, policy1) -> seat 0's expected points"},
    {"infoset_reach", (PyCFunction)Tree_infoset_reach, METH_VARARGS, "infoset_reach(policy0, policy1) -> doubles"},
    {"frontier", (PyCFunction)Tree_frontier, METH_VARARGS, "frontier(policy, known, seat) -> sets to ask next"},
    {"infoset", (PyCFunction)Tree_infoset, METH_O, "infoset(i) -> (seat, key, codes, hands, leader, draws)"},
    {"offsets", (PyCFunction)Tree_offsets, METH_NOARGS, "each set's first action index, then the total (int64)"},
    {"find", (PyCFunction)Tree_find, METH_O, "find(key) -> the set's index, or -1"},
    {"stats", (PyCFunction)Tree_stats, METH_NOARGS, "sizes of the tree"},
    {"action_values", (PyCFunction)Tree_action_values, METH_VARARGS,
     "action_values(policy0, policy1) -> (q, w, m, low): counterfactual action values; each set's weight, margin, lowest"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TreeType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "passing_game._solve.Tree",
    .tp_basicsize = sizeof(Tree),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tree_init,
    .tp_dealloc = (destructor)Tree_dealloc,
    .tp_methods = Tree_methods,
    .tp_doc = "Tree(max_pip, hand_size, flags): a two-player round's whole game tree",
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "passing_game._solve", "The exact two-player round: CFR+ and best response (issue 28).",
    -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solve(void) {
    if (PyType_Ready(&TreeType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&TreeType);
    if (PyModule_AddObject(m, "Tree", (PyObject *)&TreeType) < 0) {
        Py_DECREF(&TreeType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
