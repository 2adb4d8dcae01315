/*
 * The search kernel: the rules of The Passing Game as a tight C loop.
 *
 * It is a second implementation of the rules (R2-R7, D1-D3), used where
 * speed decides strength: random and policy playouts for the search bots,
 * and the engine benchmark. tests/test_kernel.py plays many random rounds
 * through both this kernel and passing_game.Round and finds them identical
 * at every step. Tiles are indices 0..27 in the order of passing_game.TILES;
 * a hand is a 28-bit mask. Move codes: tile * 2 + end (0 left, 1 right),
 * 56 draw, 57 pass; a play that has one outcome on either end is listed
 * once, on the left, as passing_game.legality does.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NTILES 28
#define LOCKED 2
#define DRAW_CODE 56
#define PASS_CODE 57
#define MAX_MOVES 60

#define F_DRAW_CONTINUE 1
#define F_FORCED 2
#define F_PARTNERSHIPS 4

enum { GOING = 0, DOMINO = 1, BLOCK = 2, ALL_PASS = 3 };

static uint8_t LOW[NTILES], HIGH[NTILES], PIPS[NTILES];
static uint32_t SUIT[7];

typedef struct {
    uint32_t hand[4];
    uint8_t bone[NTILES];
    int nbone, bpos;
    int left, right; /* -1 on an empty train */
    int players, to_move, passes, flags, reason;
} State;

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

static void init_tables(void) {
    int i = 0;
    for (int a = 0; a <= 6; a++)
        for (int b = a; b <= 6; b++, i++) {
            LOW[i] = (uint8_t)a;
            HIGH[i] = (uint8_t)b;
            PIPS[i] = (uint8_t)(a + b);
            SUIT[a] |= 1u << i;
            SUIT[b] |= 1u << i;
        }
}

static inline int popcount(uint32_t m) { return __builtin_popcount(m); }

static inline int mask_pips(uint32_t m) {
    int total = 0;
    while (m) {
        int t = __builtin_ctz(m);
        total += PIPS[t];
        m &= m - 1;
    }
    return total;
}

static inline int can_draw(const State *s) { return s->nbone - s->bpos > LOCKED; }

/* Legal move codes in the order Round.legal_moves lists them. */
static int legal(const State *s, int *out) {
    int n = 0;
    uint32_t h = s->hand[s->to_move];
    if (s->left < 0) {
        for (uint32_t m = h; m; m &= m - 1) out[n++] = __builtin_ctz(m) * 2;
    } else if (s->left == s->right) {
        for (uint32_t m = h & SUIT[s->left]; m; m &= m - 1) out[n++] = __builtin_ctz(m) * 2;
    } else {
        uint32_t ml = h & SUIT[s->left], mr = h & SUIT[s->right];
        for (uint32_t m = ml | mr; m; m &= m - 1) {
            int t = __builtin_ctz(m);
            if (ml >> t & 1) out[n++] = t * 2;
            if (mr >> t & 1) out[n++] = t * 2 + 1;
        }
    }
    if (can_draw(s)) out[n++] = DRAW_CODE;
    if (!(s->flags & F_FORCED) || n == 0) out[n++] = PASS_CODE;
    return n;
}

static inline void check_block(State *s) {
    if (s->left < 0 || can_draw(s)) return;
    uint32_t open = SUIT[s->left] | SUIT[s->right];
    for (int i = 0; i < s->players; i++)
        if (s->hand[i] & open) return;
    s->reason = BLOCK;
}

/* Make a move known to be legal (R4, R6, D1, D3). */
static void apply(State *s, int code) {
    int p = s->to_move;
    if (code < DRAW_CODE) {
        int t = code >> 1;
        s->hand[p] &= ~(1u << t);
        if (s->left < 0) {
            s->left = LOW[t];
            s->right = HIGH[t];
        } else if ((code & 1) == 0) {
            s->left = LOW[t] == s->left ? HIGH[t] : LOW[t];
        } else {
            s->right = LOW[t] == s->right ? HIGH[t] : LOW[t];
        }
        s->passes = 0;
        if (s->hand[p] == 0) {
            s->reason = DOMINO;
            return;
        }
        s->to_move = (p + 1) % s->players;
        check_block(s);
    } else if (code == DRAW_CODE) {
        s->hand[p] |= 1u << s->bone[s->bpos++];
        s->passes = 0;
        if (!(s->flags & F_DRAW_CONTINUE)) s->to_move = (p + 1) % s->players;
        check_block(s);
    } else {
        if (++s->passes >= s->players) {
            s->reason = ALL_PASS;
            return;
        }
        s->to_move = (p + 1) % s->players;
    }
}

/* Whether seat p's side holds strictly the lowest count now. */
static int lowest(const State *s, int p) {
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
 * Under forced passing it never passes while it can draw. */
static int policy(State *s, Rng *r, uint32_t eps_threshold) {
    int p = s->to_move;
    uint32_t h = s->hand[p], ml, mr;
    if (s->left < 0) {
        ml = h;
        mr = 0;
    } else {
        ml = h & SUIT[s->left];
        mr = s->right != s->left ? h & SUIT[s->right] : 0;
    }
    uint32_t m = ml | mr;
    if (m) {
        int t = -1;
        if (eps_threshold && (uint32_t)(rng_next(r) >> 32) < eps_threshold) {
            int k = rng_below(r, popcount(m));
            uint32_t mm = m;
            while (k--) mm &= mm - 1;
            t = __builtin_ctz(mm);
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
    if (can_draw(s) && ((s->flags & F_FORCED) || !lowest(s, p))) return DRAW_CODE;
    return PASS_CODE;
}

/* ---- Python glue ------------------------------------------------------ */

static int parse_flags(int players, int flags) {
    if (players < 2 || players > 4) {
        PyErr_Format(PyExc_ValueError, "players must be 2, 3 or 4, got %d", players);
        return -1;
    }
    if ((flags & F_PARTNERSHIPS) && players != 4) {
        PyErr_SetString(PyExc_ValueError, "partnerships need 4 players");
        return -1;
    }
    return 0;
}

static void shuffle_deal(State *s, Rng *r, int hand_size) {
    uint8_t tiles[NTILES];
    for (int i = 0; i < NTILES; i++) tiles[i] = (uint8_t)i;
    for (int i = NTILES - 1; i > 0; i--) {
        int j = rng_below(r, i + 1);
        uint8_t tmp = tiles[i];
        tiles[i] = tiles[j];
        tiles[j] = tmp;
    }
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
    State s;
    int moves[MAX_MOVES];
    Py_BEGIN_ALLOW_THREADS
    for (long long i = 0; i < rounds; i++) {
        s.players = players;
        s.flags = flags;
        shuffle_deal(&s, &r, hand_size);
        while (s.reason == GOING) {
            int n = legal(&s, moves);
            apply(&s, moves[rng_below(&r, n)]);
            actions++;
        }
    }
    Py_END_ALLOW_THREADS
    return PyLong_FromLongLong(actions);
}

/* Read a state from Python: (hands, bone, bpos, left, right, to_move, passes, players, flags). */
static int read_state(PyObject *const *args, State *s) {
    PyObject *hands = args[0], *bone = args[1];
    memset(s, 0, sizeof *s);
    s->bpos = PyLong_AsLong(args[2]);
    s->left = PyLong_AsLong(args[3]);
    s->right = PyLong_AsLong(args[4]);
    s->to_move = PyLong_AsLong(args[5]);
    s->passes = PyLong_AsLong(args[6]);
    s->players = PyLong_AsLong(args[7]);
    s->flags = PyLong_AsLong(args[8]);
    if (PyErr_Occurred()) return -1;
    if (parse_flags(s->players, s->flags) < 0) return -1;
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
    if (s->bpos < 0 || s->bpos > s->nbone || s->left < -1 || s->left > 6 || s->right < -1 ||
        s->right > 6 || (s->left < 0) != (s->right < 0) || s->to_move < 0 ||
        s->to_move >= s->players || s->passes < 0 || s->passes >= s->players) {
        PyErr_SetString(PyExc_ValueError, "state out of range");
        return -1;
    }
    s->reason = GOING;
    return 0;
}

static PyObject *pips_tuple(const State *s) {
    PyObject *out = PyTuple_New(s->players);
    if (!out) return NULL;
    for (int p = 0; p < s->players; p++)
        PyTuple_SET_ITEM(out, p, PyLong_FromLong(mask_pips(s->hand[p])));
    return out;
}

PyDoc_STRVAR(playout_doc,
"playout(hands, bone, bpos, left, right, to_move, passes, players, flags, eps, seed)\n"
"-> (reason, pips, actions)\n\n"
"Play a position to the end with the playout policy; ``reason`` is 1 domino,\n"
"2 block, 3 all-pass; ``pips`` each seat's count at the end.");

static PyObject *playout(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "playout takes 11 arguments");
        return NULL;
    }
    State s;
    if (read_state(args, &s) < 0) return NULL;
    double eps = PyFloat_AsDouble(args[9]);
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[10]);
    if (PyErr_Occurred()) return NULL;
    uint32_t threshold = eps <= 0 ? 0 : eps >= 1 ? 0xFFFFFFFFu : (uint32_t)(eps * 4294967296.0);
    Rng r = {seed};
    long actions = 0;
    while (s.reason == GOING) {
        apply(&s, policy(&s, &r, threshold));
        actions++;
    }
    PyObject *pips = pips_tuple(&s);
    if (!pips) return NULL;
    return Py_BuildValue("(iNl)", s.reason, pips, actions);
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
    State s;
    if (read_state(args, &s) < 0) return NULL;
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(args[9]);
    if (PyErr_Occurred()) return NULL;
    Rng r = {seed};
    PyObject *steps = PyList_New(0);
    if (!steps) return NULL;
    int moves[MAX_MOVES];
    while (s.reason == GOING) {
        int n = legal(&s, moves);
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
        apply(&s, chosen);
    }
    PyObject *pips = pips_tuple(&s);
    if (!pips) goto fail;
    return Py_BuildValue("(NiN)", steps, s.reason, pips);
fail:
    Py_DECREF(steps);
    return NULL;
}

static PyMethodDef methods[] = {
    {"random_rounds", random_rounds, METH_VARARGS, random_rounds_doc},
    {"playout", (PyCFunction)(void (*)(void))playout, METH_FASTCALL, playout_doc},
    {"trace", (PyCFunction)(void (*)(void))trace, METH_FASTCALL, trace_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "passing_game._kernel",
    "The compiled search kernel (see passing_game.kernel).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    init_tables();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyModule_AddIntConstant(m, "DRAW_CODE", DRAW_CODE);
    PyModule_AddIntConstant(m, "PASS_CODE", PASS_CODE);
    PyModule_AddIntConstant(m, "F_DRAW_CONTINUE", F_DRAW_CONTINUE);
    PyModule_AddIntConstant(m, "F_FORCED", F_FORCED);
    PyModule_AddIntConstant(m, "F_PARTNERSHIPS", F_PARTNERSHIPS);
    return m;
}
