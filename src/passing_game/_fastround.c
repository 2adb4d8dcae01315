/* The state of one Round in C, behind the same public API as round.py.
 *
 * passing_game.round.FastRound subclasses RoundCore (defined here) and the
 * pure-Python Round base, so everything not on the hot path (views, records,
 * error messages) stays the one Python implementation; RoundCore overrides
 * the hot path: dealing from a seed digest, legal_moves, play, copy and the
 * small state getters. The rules are _rules.h (shared with the search kernel);
 * this file is the Python object glue. Moves are kept as the core's codes
 * (tile * 2 + end, 56 draw, 57 pass); legal_moves hands out the interned
 * Play/DRAW/PASS objects of passing_game.moves. The pure-Python PyRound is the
 * reference: tests/test_fastround.py plays both side by side.
 *
 * The result of a finished round (R7) is built on first access. Anything
 * illegal is handed back to Python (round._refuse), which raises IllegalMove
 * with the same message the pure-Python engine gives; the state is untouched
 * because nothing is written before the move is known legal (rules_is_legal).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_rules.h"

/* Rules.max_round_moves is at most 4 * (26 + 22 + 1) = 196 (4 players, hand_size 1). */
#define MAXH 200
#define TRAIN_MID 28

/* Set once by _setup() from round.py. */
static PyObject *g_tiles[NTILES];
static PyObject *g_moves[NCODES]; /* interned Play objects, DRAW, PASS */
static PyTypeObject *g_play_type, *g_draw_type, *g_pass_type;
static PyObject *g_deal_type;  /* round.Deal */
static PyObject *g_refuse;     /* round._refuse(rnd, move): raises IllegalMove */
static PyTypeObject *g_result_type; /* round.RoundResult */
static PyTypeObject *g_placed_type; /* tiles.Placed */
static PyTypeObject *g_either_type; /* legality.EitherEnd */
static PyObject *g_reasons[4]; /* None, "domino", "block", "all-pass" */
static PyObject *g_small[8];   /* 0..7 */
static PyObject *s_tile, *s_end, *s_left, *s_players, *s_hand_size, *s_passing, *s_draw, *s_forced,
    *s_continue, *s_partnerships, *s_scoring, *s_pairwise, *s_max_pip;
static int g_ready = 0;

/* Pointer -> move code, for the interned move objects (open addressing). */
#define PTAB 256
static PyObject *g_ptab_key[PTAB];
static int g_ptab_val[PTAB];

static inline unsigned ptr_hash(PyObject *p) { return (unsigned)(((uintptr_t)p >> 4) * 2654435761u) >> 24; }

static void ptab_put(PyObject *p, int v) {
    unsigned h = ptr_hash(p) & (PTAB - 1);
    while (g_ptab_key[h] != NULL && g_ptab_key[h] != p) h = (h + 1) & (PTAB - 1);
    g_ptab_key[h] = p;
    g_ptab_val[h] = v;
}

static inline int ptab_get(PyObject *p) {
    unsigned h = ptr_hash(p) & (PTAB - 1);
    for (;;) {
        PyObject *k = g_ptab_key[h];
        if (k == p) return g_ptab_val[h];
        if (k == NULL) return -1;
        h = (h + 1) & (PTAB - 1);
    }
}

typedef struct {
    PyObject_HEAD
    PyObject *rules;
    PyObject *deal;   /* cached Deal, or NULL until asked for */
    PyObject *result; /* cached RoundResult, or NULL */
    RState st;        /* the deal's pile is st.bone[:st.nbone] */
    uint32_t deal_hands[4];
    uint8_t leader, tstart, tend; /* train = tl/tr[tstart:tend] */
    uint16_t hlen;
    uint8_t tl[2 * TRAIN_MID], tr[2 * TRAIN_MID];
    uint8_t hmove[MAXH];  /* move code | seat << 6: one byte a turn keeps a copy small */
    uint8_t hplace[MAXH]; /* what rules_apply returned: how a play was laid, a draw's tile */
} Core;

#define STATE_OFFSET offsetof(Core, st)

/* One-entry cache of the last Rules value's fields. */
static PyObject *c_rules = NULL;
static int c_players, c_hand, c_flags, c_ntiles;
static uint8_t c_set[NTILES]; /* the set's tiles (rules_set) */

static int rules_fields(PyObject *rules) {
    if (rules == c_rules) return 0;
    PyObject *v;
    long players, hand, max_pip;
    int flags = 0, eq;
    if (!(v = PyObject_GetAttr(rules, s_players))) return -1;
    players = PyLong_AsLong(v);
    Py_DECREF(v);
    if (!(v = PyObject_GetAttr(rules, s_hand_size))) return -1;
    hand = PyLong_AsLong(v);
    Py_DECREF(v);
    if (!(v = PyObject_GetAttr(rules, s_max_pip))) return -1;
    max_pip = PyLong_AsLong(v);
    Py_DECREF(v);
    if (PyErr_Occurred()) return -1;
    if (max_pip < 2 || max_pip > 6) {
        PyErr_SetString(PyExc_ValueError, "rules out of range");
        return -1;
    }
    uint8_t set[NTILES];
    int ntiles = rules_set((int)max_pip, set);
    if (players < 2 || players > 4 || hand < 1 || players * hand > ntiles - LOCKED) {
        PyErr_SetString(PyExc_ValueError, "rules out of range");
        return -1;
    }
    /* the bits of kernel.flags: each Rules field against the value that sets its bit */
    const struct {
        PyObject *field, *value;
        int flag;
    } bits[] = {{s_draw, s_continue, F_DRAW_CONTINUE},
                {s_passing, s_forced, F_FORCED},
                {s_partnerships, Py_True, F_PARTNERSHIPS},
                {s_scoring, s_pairwise, F_PAIRWISE}};
    for (int i = 0; i < 4; i++) {
        if (!(v = PyObject_GetAttr(rules, bits[i].field))) return -1;
        eq = PyObject_RichCompareBool(v, bits[i].value, Py_EQ);
        Py_DECREF(v);
        if (eq < 0) return -1;
        if (eq) flags |= bits[i].flag;
    }
    if ((flags & F_PARTNERSHIPS) && players != 4) {
        PyErr_SetString(PyExc_ValueError, "partnerships need 4 players");
        return -1;
    }
    Py_INCREF(rules);
    Py_XSETREF(c_rules, rules);
    c_players = (int)players;
    c_hand = (int)hand;
    c_flags = flags;
    c_ntiles = ntiles;
    memcpy(c_set, set, (size_t)ntiles);
    return 0;
}

static Core *core_alloc(PyTypeObject *type) {
    Core *self = (Core *)type->tp_alloc(type, 0);
    return self;
}

static void core_init(Core *self, PyObject *rules, const uint32_t *hands, const uint8_t *pile, int npile,
                      int leader) {
    RState *s = &self->st;
    self->rules = Py_NewRef(rules);
    s->players = c_players;
    s->flags = c_flags;
    for (int i = 0; i < c_players; i++) s->hand[i] = self->deal_hands[i] = hands[i];
    memcpy(s->bone, pile, (size_t)npile);
    s->nbone = npile;
    s->left = s->right = -1;
    s->to_move = self->leader = (uint8_t)leader;
    self->tstart = self->tend = TRAIN_MID;
}

static int check_ready(void) {
    if (!g_ready) {
        PyErr_SetString(PyExc_RuntimeError, "passing_game._fastround is not set up");
        return -1;
    }
    return 0;
}

/* _from_digest(rules, digest, leader): the seeded deal of dealing.seeded_deal,
 * from its 24-byte BLAKE2b digest; leader -1 means the deal's random seat. */
static PyObject *core_from_digest(PyObject *cls, PyObject *const *args, Py_ssize_t nargs) {
    if (check_ready() < 0) return NULL;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_from_digest(rules, digest, leader)");
        return NULL;
    }
    PyObject *rules = args[0];
    if (rules_fields(rules) < 0) return NULL;
    char *buf;
    Py_ssize_t blen;
    if (PyBytes_AsStringAndSize(args[1], &buf, &blen) < 0) return NULL;
    if (blen != 24) {
        PyErr_SetString(PyExc_ValueError, "digest must be 24 bytes");
        return NULL;
    }
    long leader = PyLong_AsLong(args[2]);
    if (leader == -1 && PyErr_Occurred()) return NULL;
    int players = c_players, hand = c_hand;
    uint8_t tiles[NTILES];
    int seat = rules_deal((const unsigned char *)buf, players, c_set, c_ntiles, tiles);
    if (leader < 0) {
        leader = seat;
    } else if (leader >= players) {
        PyErr_SetString(PyExc_ValueError, "leader out of range");
        return NULL;
    }
    uint32_t hands[4] = {0, 0, 0, 0};
    for (int s = 0; s < players; s++)
        for (int k = 0; k < hand; k++) hands[s] |= 1u << tiles[s * hand + k];
    Core *self = core_alloc((PyTypeObject *)cls);
    if (!self) return NULL;
    core_init(self, rules, hands, tiles + players * hand, c_ntiles - players * hand, (int)leader);
    return (PyObject *)self;
}

/* _create(rules, hands, pile, leader): a deal already checked by Python;
 * hands as bit masks, pile as tile indices (next draw first). */
static PyObject *core_create(PyObject *cls, PyObject *const *args, Py_ssize_t nargs) {
    if (check_ready() < 0) return NULL;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "_create(rules, hands, pile, leader)");
        return NULL;
    }
    PyObject *rules = args[0];
    if (rules_fields(rules) < 0) return NULL;
    PyObject *hs = PySequence_Fast(args[1], "hands must be a sequence");
    if (!hs) return NULL;
    PyObject *ps = PySequence_Fast(args[2], "pile must be a sequence");
    if (!ps) {
        Py_DECREF(hs);
        return NULL;
    }
    uint32_t hands[4] = {0, 0, 0, 0};
    uint8_t pile[NTILES];
    Py_ssize_t nh = PySequence_Fast_GET_SIZE(hs), np = PySequence_Fast_GET_SIZE(ps);
    long leader = PyLong_AsLong(args[3]);
    if (nh != c_players || np > NTILES || (leader == -1 && PyErr_Occurred()) || leader < 0 ||
        leader >= c_players) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad deal");
        goto fail;
    }
    for (Py_ssize_t i = 0; i < nh; i++) {
        long m = PyLong_AsLong(PySequence_Fast_GET_ITEM(hs, i));
        if (m == -1 && PyErr_Occurred()) goto fail;
        if (m < 0 || m >= (1L << NTILES)) {
            PyErr_SetString(PyExc_ValueError, "a hand must be a bit mask of tile indices");
            goto fail;
        }
        hands[i] = (uint32_t)m;
    }
    for (Py_ssize_t i = 0; i < np; i++) {
        long t = PyLong_AsLong(PySequence_Fast_GET_ITEM(ps, i));
        if (t == -1 && PyErr_Occurred()) goto fail;
        if (t < 0 || t >= NTILES) {
            PyErr_SetString(PyExc_ValueError, "bad tile index");
            goto fail;
        }
        pile[i] = (uint8_t)t;
    }
    Py_DECREF(hs);
    Py_DECREF(ps);
    Core *self = core_alloc((PyTypeObject *)cls);
    if (!self) return NULL;
    core_init(self, rules, hands, pile, (int)np, (int)leader);
    return (PyObject *)self;
fail:
    Py_DECREF(hs);
    Py_DECREF(ps);
    return NULL;
}

static void core_dealloc(Core *self) {
    Py_XDECREF(self->rules);
    Py_XDECREF(self->deal);
    Py_XDECREF(self->result);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *core_copy(Core *self, PyObject *Py_UNUSED(ignored)) {
    Core *other = core_alloc(Py_TYPE(self));
    if (!other) return NULL;
    other->rules = Py_NewRef(self->rules);
    other->deal = Py_XNewRef(self->deal);
    other->result = Py_XNewRef(self->result);
    /* the fixed part, then only the used part of the history */
    memcpy((char *)other + STATE_OFFSET, (char *)self + STATE_OFFSET, offsetof(Core, hmove) - STATE_OFFSET);
    memcpy(other->hmove, self->hmove, self->hlen);
    memcpy(other->hplace, self->hplace, self->hlen);
    return (PyObject *)other;
}

/* The legal moves, where `in` is a complete check: a plain list where the ends
 * differ, a legality.EitherEnd where a play fits either end alike (an empty
 * train, equal ends), listed on the left only, as Round.legal_moves says. */
static PyObject *core_legal_moves(Core *self, PyObject *Py_UNUSED(ignored)) {
    int codes[MAX_MOVES], n = 0;
    if (self->st.reason == GOING) n = rules_legal(&self->st, codes);
    if (self->st.reason != GOING || self->st.left != self->st.right) {
        PyObject *list = PyList_New(n);
        if (!list) return NULL;
        for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, Py_NewRef(g_moves[codes[i]]));
        return list;
    }
    PyListObject *list = (PyListObject *)g_either_type->tp_alloc(g_either_type, 0); /* EitherEnd() */
    if (!list) return NULL;
    if (n > 0) {
        list->ob_item = PyMem_New(PyObject *, n);
        if (!list->ob_item) {
            Py_DECREF(list);
            return PyErr_NoMemory();
        }
        for (int i = 0; i < n; i++) list->ob_item[i] = Py_NewRef(g_moves[codes[i]]);
        list->allocated = n;
        Py_SET_SIZE(list, n);
    }
    return (PyObject *)list;
}

static PyObject *refuse(Core *self, PyObject *move) {
    PyObject *r = PyObject_CallFunctionObjArgs(g_refuse, (PyObject *)self, move, NULL);
    if (r != NULL) { /* _refuse always raises */
        Py_DECREF(r);
        PyErr_SetString(PyExc_RuntimeError, "_refuse returned");
    }
    return NULL;
}

/* The code of a move: -1 for something that is no Play/Draw/Pass of ours. */
static int code_of(PyObject *move) {
    int code = ptab_get(move);
    if (code >= 0) return code;
    PyTypeObject *kind = Py_TYPE(move);
    if (kind == g_draw_type) return DRAW_CODE;
    if (kind == g_pass_type) return PASS_CODE;
    if (kind != g_play_type) return -1;
    PyObject *tile = PyObject_GetAttr(move, s_tile);
    if (!tile) {
        PyErr_Clear();
        return -1;
    }
    int t = -1;
    for (int i = 0; i < NTILES; i++)
        if (g_tiles[i] == tile) {
            t = i;
            break;
        }
    Py_DECREF(tile);
    if (t < 0) return -1;
    PyObject *end = PyObject_GetAttr(move, s_end);
    if (!end) {
        PyErr_Clear();
        return -1;
    }
    int left = PyObject_RichCompareBool(end, s_left, Py_EQ);
    Py_DECREF(end);
    if (left < 0) {
        PyErr_Clear();
        return -1;
    }
    return left ? t * 2 : t * 2 + 1;
}

/* The move, if legal, is recorded, laid on the train and made; else refused. */
static PyObject *core_play(Core *self, PyObject *move) {
    RState *s = &self->st;
    int code = code_of(move), seat = s->to_move, empty = s->left < 0;
    if (!rules_is_legal(s, code)) return refuse(self, move);
    if (self->hlen >= MAXH) {
        PyErr_SetString(PyExc_RuntimeError, "round history overflow");
        return NULL;
    }
    int place = rules_apply(s, code);
    self->hmove[self->hlen] = (uint8_t)(code | seat << 6);
    self->hplace[self->hlen++] = (uint8_t)place;
    if (code < DRAW_CODE) {
        int at = empty || (code & 1) ? self->tend++ : --self->tstart;
        self->tl[at] = (uint8_t)(place >> 3);
        self->tr[at] = (uint8_t)(place & 7);
    }
    Py_RETURN_NONE;
}

/* -- getters ---------------------------------------------------------------- */

static PyObject *small(int v) { return Py_NewRef(g_small[v]); }

static PyObject *get_is_over(Core *self, void *Py_UNUSED(c)) { return PyBool_FromLong(self->st.reason != 0); }
static PyObject *get_to_move(Core *self, void *Py_UNUSED(c)) {
    if (self->st.reason) Py_RETURN_NONE;
    return small(self->st.to_move);
}
static PyObject *get_raw_to_move(Core *self, void *Py_UNUSED(c)) { return small(self->st.to_move); }
static PyObject *get_passes(Core *self, void *Py_UNUSED(c)) { return PyLong_FromLong(self->st.passes); }
static PyObject *get_leader(Core *self, void *Py_UNUSED(c)) { return small(self->leader); }
static PyObject *get_players(Core *self, void *Py_UNUSED(c)) { return small(self->st.players); }
static PyObject *get_rules(Core *self, void *Py_UNUSED(c)) { return Py_NewRef(self->rules); }
static PyObject *get_reason(Core *self, void *Py_UNUSED(c)) { return Py_NewRef(g_reasons[self->st.reason]); }

static PyObject *get_ends(Core *self, void *Py_UNUSED(c)) {
    if (self->st.left < 0) Py_RETURN_NONE;
    return PyTuple_Pack(2, g_small[self->st.left], g_small[self->st.right]);
}

static PyObject *tiles_tuple(const uint8_t *idx, int n);
static PyObject *hands_tuple(const uint32_t *hands, int players);

static PyObject *int_tuple(const int *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* The RoundResult of a finished round (R7, D4, D6, D11), compared with the
 * Python scoring by tests/test_fastround.py. */
static PyObject *build_result(Core *self) {
    Score sc;
    rules_score(&self->st, &sc);
    int players = self->st.players;
    PyObject *items[7];
    items[0] = Py_NewRef(g_reasons[self->st.reason]);
    items[1] = int_tuple(sc.pips, players);
    items[2] = sc.winner < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(sc.winner);
    items[3] = PyLong_FromLong(sc.points);
    items[4] = int_tuple(sc.count, sc.sides);
    items[5] = hands_tuple(self->st.hand, players);
    items[6] = tiles_tuple(self->st.bone + self->st.nbone - LOCKED, LOCKED);
    PyObject *result = NULL;
    for (int i = 0; i < 7; i++)
        if (!items[i]) goto done;
    result = g_result_type->tp_alloc(g_result_type, 7); /* as tuple.__new__(RoundResult, items) */
    if (!result) goto done;
    for (int i = 0; i < 7; i++) {
        PyTuple_SET_ITEM(result, i, items[i]);
        items[i] = NULL;
    }
done:
    for (int i = 0; i < 7; i++) Py_XDECREF(items[i]);
    return result;
}

static PyObject *get_result(Core *self, void *Py_UNUSED(c)) {
    if (!self->st.reason) Py_RETURN_NONE;
    if (!self->result) {
        self->result = build_result(self);
        if (!self->result) return NULL;
    }
    return Py_NewRef(self->result);
}

static PyObject *get_raw_hands(Core *self, void *Py_UNUSED(c)) {
    PyObject *list = PyList_New(self->st.players);
    if (!list) return NULL;
    for (int s = 0; s < self->st.players; s++) {
        PyObject *v = PyLong_FromUnsignedLong(self->st.hand[s]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, s, v);
    }
    return list;
}

static PyObject *tiles_of_mask(uint32_t mask) {
    PyObject *t = PyTuple_New(__builtin_popcount(mask));
    if (!t) return NULL;
    Py_ssize_t k = 0;
    while (mask) {
        int i = __builtin_ctz(mask);
        PyTuple_SET_ITEM(t, k++, Py_NewRef(g_tiles[i]));
        mask &= mask - 1;
    }
    return t;
}

static PyObject *hands_tuple(const uint32_t *hands, int players) {
    PyObject *out = PyTuple_New(players);
    if (!out) return NULL;
    for (int s = 0; s < players; s++) {
        PyObject *h = tiles_of_mask(hands[s]);
        if (!h) {
            Py_DECREF(out);
            return NULL;
        }
        PyTuple_SET_ITEM(out, s, h);
    }
    return out;
}

static PyObject *get_hands(Core *self, void *Py_UNUSED(c)) { return hands_tuple(self->st.hand, self->st.players); }

static PyObject *tiles_tuple(const uint8_t *idx, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(g_tiles[idx[i]]));
    return t;
}

static PyObject *get_boneyard(Core *self, void *Py_UNUSED(c)) {
    return tiles_tuple(self->st.bone + self->st.bpos, self->st.nbone - self->st.bpos);
}

static PyObject *get_raw_train(Core *self, void *Py_UNUSED(c)) {
    int n = self->tend - self->tstart;
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *p = PyTuple_Pack(2, g_small[self->tl[self->tstart + i]], g_small[self->tr[self->tstart + i]]);
        if (!p) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, p);
    }
    return t;
}

static PyObject *get_raw_history(Core *self, void *Py_UNUSED(c)) {
    PyObject *list = PyList_New(self->hlen);
    if (!list) return NULL;
    for (int i = 0; i < self->hlen; i++) {
        int code = self->hmove[i] & 63, place = self->hplace[i];
        PyObject *seat = g_small[self->hmove[i] >> 6];
        PyObject *e;
        if (code == DRAW_CODE)
            e = PyTuple_Pack(4, seat, g_moves[code], g_tiles[place], Py_None);
        else if (code == PASS_CODE)
            e = PyTuple_Pack(4, seat, g_moves[code], Py_None, Py_None);
        else {
            PyObject *placed = g_placed_type->tp_alloc(g_placed_type, 2); /* as tuple.__new__(Placed, ...) */
            if (!placed) {
                Py_DECREF(list);
                return NULL;
            }
            PyTuple_SET_ITEM(placed, 0, Py_NewRef(g_small[place >> 3]));
            PyTuple_SET_ITEM(placed, 1, Py_NewRef(g_small[place & 7]));
            e = PyTuple_Pack(4, seat, g_moves[code], Py_None, placed);
            Py_DECREF(placed);
        }
        if (!e) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, e);
    }
    return list;
}

static PyObject *get_moves(Core *self, void *Py_UNUSED(c)) {
    PyObject *t = PyTuple_New(self->hlen);
    if (!t) return NULL;
    for (int i = 0; i < self->hlen; i++) PyTuple_SET_ITEM(t, i, Py_NewRef(g_moves[self->hmove[i] & 63]));
    return t;
}

static PyObject *get_deal(Core *self, void *Py_UNUSED(c)) {
    if (!self->deal) {
        PyObject *hands = hands_tuple(self->deal_hands, self->st.players);
        if (!hands) return NULL;
        PyObject *bone = tiles_tuple(self->st.bone, self->st.nbone);
        if (!bone) {
            Py_DECREF(hands);
            return NULL;
        }
        self->deal = PyObject_CallFunctionObjArgs(g_deal_type, hands, bone, g_small[self->leader], NULL);
        Py_DECREF(hands);
        Py_DECREF(bone);
        if (!self->deal) return NULL;
    }
    return Py_NewRef(self->deal);
}

static PyObject *core_pips(Core *self, PyObject *Py_UNUSED(ignored)) {
    int pips[4];
    for (int s = 0; s < self->st.players; s++) pips[s] = mask_pips(self->st.hand[s]);
    return int_tuple(pips, self->st.players);
}

static PyGetSetDef core_getset[] = {
    {"is_over", (getter)get_is_over, NULL, "Whether the round has ended.", NULL},
    {"to_move", (getter)get_to_move, NULL, "The seat to act, or None once the round is over.", NULL},
    {"_to_move", (getter)get_raw_to_move, NULL, NULL, NULL},
    {"passes_in_row", (getter)get_passes, NULL, "Passes since the last play or draw (D3).", NULL},
    {"_passes", (getter)get_passes, NULL, NULL, NULL},
    {"leader", (getter)get_leader, NULL, NULL, NULL},
    {"_players", (getter)get_players, NULL, NULL, NULL},
    {"rules", (getter)get_rules, NULL, NULL, NULL},
    {"_reason", (getter)get_reason, NULL, NULL, NULL},
    {"ends", (getter)get_ends, NULL, "(left, right) open numbers, or None on an empty train.", NULL},
    {"_ends", (getter)get_ends, NULL, NULL, NULL},
    {"result", (getter)get_result, NULL, "How the round ended, or None while it goes on.", NULL},
    {"_result", (getter)get_result, NULL, NULL, NULL},
    {"_hands", (getter)get_raw_hands, NULL, NULL, NULL},
    {"hands", (getter)get_hands, NULL, "Every seat's tiles, each hand sorted.", NULL},
    {"boneyard", (getter)get_boneyard, NULL, "The tiles not yet drawn, next draw first.", NULL},
    {"_boneyard", (getter)get_boneyard, NULL, NULL, NULL},
    {"_train", (getter)get_raw_train, NULL, NULL, NULL},
    {"_history", (getter)get_raw_history, NULL, NULL, NULL},
    {"moves", (getter)get_moves, NULL, NULL, NULL},
    {"deal", (getter)get_deal, NULL, NULL, NULL},
    {"_deal", (getter)get_deal, NULL, NULL, NULL},
    {NULL},
};

static PyMethodDef core_methods[] = {
    {"_from_digest", (PyCFunction)(void (*)(void))core_from_digest, METH_FASTCALL | METH_CLASS, NULL},
    {"_create", (PyCFunction)(void (*)(void))core_create, METH_FASTCALL | METH_CLASS, NULL},
    {"copy", (PyCFunction)core_copy, METH_NOARGS, "An independent copy; playing on it leaves this round unchanged."},
    {"__copy__", (PyCFunction)core_copy, METH_NOARGS, NULL},
    {"legal_moves", (PyCFunction)core_legal_moves, METH_NOARGS,
     "The moves open to the seat to move: plays, then draw, then pass; `in` on them is complete."},
    {"play", (PyCFunction)core_play, METH_O, "Make move for the seat to move; IllegalMove leaves the round as it was."},
    {"pips", (PyCFunction)core_pips, METH_NOARGS, "Each seat's count of pips in hand (R7.1)."},
    {NULL},
};

static PyTypeObject CoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "passing_game._fastround.RoundCore",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "The C state of a Round; use passing_game.Round.",
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = core_methods,
    .tp_getset = core_getset,
};

/* _setup(tiles, plays_left, plays_right, draw, pass_, play_type, draw_type,
 *        pass_type, deal_type, refuse, result_type, placed_type) */
static PyObject *mod_setup(PyObject *Py_UNUSED(mod), PyObject *args) {
    PyObject *tiles, *pl, *pr, *draw, *pass_, *play_t, *draw_t, *pass_t, *deal_t, *refuse_f, *result_f, *placed_f,
        *either_t;
    if (!PyArg_ParseTuple(args, "O!O!O!OOO!O!O!OOOOO!", &PyTuple_Type, &tiles, &PyTuple_Type, &pl, &PyTuple_Type,
                          &pr, &draw, &pass_, &PyType_Type, &play_t, &PyType_Type, &draw_t, &PyType_Type,
                          &pass_t, &deal_t, &refuse_f, &result_f, &placed_f, &PyType_Type, &either_t))
        return NULL;
    if (PyTuple_GET_SIZE(tiles) != NTILES || PyTuple_GET_SIZE(pl) != NTILES || PyTuple_GET_SIZE(pr) != NTILES) {
        PyErr_SetString(PyExc_ValueError, "need 28 tiles and 28 plays per end");
        return NULL;
    }
    for (int i = 0; i < NTILES; i++) {
        PyObject *t = PyTuple_GET_ITEM(tiles, i);
        PyObject *lo = PyObject_GetAttrString(t, "low"), *hi = PyObject_GetAttrString(t, "high");
        long low = lo ? PyLong_AsLong(lo) : -1, high = hi ? PyLong_AsLong(hi) : -1;
        Py_XDECREF(lo);
        Py_XDECREF(hi);
        if (PyErr_Occurred()) return NULL;
        if (low != LOW[i] || high != HIGH[i]) { /* _rules.h numbers the tiles as tiles.TILES */
            PyErr_SetString(PyExc_ValueError, "the tiles are not in the order of _rules.h");
            return NULL;
        }
        Py_XSETREF(g_tiles[i], Py_NewRef(t));
        Py_XSETREF(g_moves[2 * i], Py_NewRef(PyTuple_GET_ITEM(pl, i)));
        Py_XSETREF(g_moves[2 * i + 1], Py_NewRef(PyTuple_GET_ITEM(pr, i)));
    }
    Py_XSETREF(g_moves[DRAW_CODE], Py_NewRef(draw));
    Py_XSETREF(g_moves[PASS_CODE], Py_NewRef(pass_));
    memset(g_ptab_key, 0, sizeof g_ptab_key);
    for (int i = 0; i < NCODES; i++) ptab_put(g_moves[i], i);
    Py_XSETREF(g_play_type, (PyTypeObject *)Py_NewRef(play_t));
    Py_XSETREF(g_draw_type, (PyTypeObject *)Py_NewRef(draw_t));
    Py_XSETREF(g_pass_type, (PyTypeObject *)Py_NewRef(pass_t));
    Py_XSETREF(g_deal_type, Py_NewRef(deal_t));
    Py_XSETREF(g_refuse, Py_NewRef(refuse_f));
    if (!PyType_Check(result_f) || !PyType_IsSubtype((PyTypeObject *)result_f, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "result_type must be a tuple subclass (RoundResult)");
        return NULL;
    }
    Py_XSETREF(g_result_type, (PyTypeObject *)Py_NewRef(result_f));
    if (!PyType_Check(placed_f) || !PyType_IsSubtype((PyTypeObject *)placed_f, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "placed_type must be a tuple subclass (Placed)");
        return NULL;
    }
    Py_XSETREF(g_placed_type, (PyTypeObject *)Py_NewRef(placed_f));
    /* filled in place by core_legal_moves: a list subclass with nothing of its own (__slots__ = ()) */
    if (!PyType_IsSubtype((PyTypeObject *)either_t, &PyList_Type) ||
        ((PyTypeObject *)either_t)->tp_basicsize != PyList_Type.tp_basicsize) {
        PyErr_SetString(PyExc_TypeError, "either_type must be a list subclass with __slots__ = () (EitherEnd)");
        return NULL;
    }
    Py_XSETREF(g_either_type, (PyTypeObject *)Py_NewRef(either_t));
    Py_CLEAR(c_rules);
    g_ready = 1;
    Py_RETURN_NONE;
}

static PyMethodDef mod_methods[] = {
    {"_setup", mod_setup, METH_VARARGS, "Hand the module the interned tiles, moves and helpers of round.py."},
    {NULL},
};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "passing_game._fastround",
    "The state of a Round in C (see round.FastRound); optional, pure Python is the fallback.", -1, mod_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastround(void) {
    rules_init_tables();
    if (PyType_Ready(&CoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moddef);
    if (!m) return NULL;
    Py_INCREF(&CoreType);
    if (PyModule_AddObject(m, "RoundCore", (PyObject *)&CoreType) < 0) {
        Py_DECREF(&CoreType);
        Py_DECREF(m);
        return NULL;
    }
    for (int i = 0; i < 8; i++) g_small[i] = PyLong_FromLong(i);
    g_reasons[0] = Py_NewRef(Py_None);
    g_reasons[1] = PyUnicode_InternFromString("domino");
    g_reasons[2] = PyUnicode_InternFromString("block");
    g_reasons[3] = PyUnicode_InternFromString("all-pass");
    s_tile = PyUnicode_InternFromString("tile");
    s_end = PyUnicode_InternFromString("end");
    s_left = PyUnicode_InternFromString("left");
    s_players = PyUnicode_InternFromString("players");
    s_hand_size = PyUnicode_InternFromString("hand_size");
    s_passing = PyUnicode_InternFromString("passing");
    s_draw = PyUnicode_InternFromString("draw");
    s_forced = PyUnicode_InternFromString("forced");
    s_continue = PyUnicode_InternFromString("continue");
    s_partnerships = PyUnicode_InternFromString("partnerships");
    s_scoring = PyUnicode_InternFromString("scoring");
    s_pairwise = PyUnicode_InternFromString("pairwise");
    s_max_pip = PyUnicode_InternFromString("max_pip");
    return m;
}
