# Part of _core.pyx (included there, in this order; one extension module): search: information
# sets, sampled deals, the policies, the search loop.

# -- search: information sets, sampled deals, the smart policy, the search loop -----------------
#
# An information set is what one seat knows, as a tuple (see _infoset_from); a search state
# the public part of a deal state, (level, turn, last, beat, passes, finished). Both are
# checked and read once: ints are immutable, the events array is copied into C memory before
# it is checked, and only the copy reaches the sampler.


#: The rollout policies of the search, by name: random and greedy as for :func:`playouts`,
#: ``smart`` and ``learned`` (a linear score over move features, with weights given;
#: ``csrc/gd_search.c``).
SEARCH_POLICIES = {"random": GD_POLICY_RANDOM, "greedy": GD_POLICY_GREEDY, "smart": GD_POLICY_SMART,
                   "learned": GD_POLICY_LEARNED}
#: The most threads one search runs.
MAX_THREADS = 64
#: The most moves a node of a search's tree holds (``search(tree_moves=)``).
TREE_MAX_MOVES = GD_TREE_MAX_MOVES
#: The most nodes a search's tree may be given (``search(tree_nodes=)``).
TREE_MAX_NODES = GD_TREE_MAX_NODES
#: The features of a move for the learned policy, and its weights (a leading and a
#: responding half).
FEATURES = GD_FEATURES
POLICY_WEIGHTS = GD_POLICY_WEIGHTS
#: The hidden units of each half of a policy with a hidden layer, and the length of its
#: weights: the linear weights, then for each half each unit's inputs, bias and output.
HIDDEN = GD_HIDDEN
POLICY_NET = GD_POLICY_NET
#: The numbers a state value reads of a whole deal state (``value_features``), and the widest
#: of its two hidden layers.
VALUE_FEATURES = GD_VALUE_FEATURES
VALUE_HIDDEN = GD_VALUE_HIDDEN


cdef int _search_policy(policy) except -1:
    if not isinstance(policy, str) or policy not in SEARCH_POLICIES:
        names = tuple(SEARCH_POLICIES)
        policy = _errors().check_choice("policy", policy, names, f"one of {', '.join(names)}")
    return SEARCH_POLICIES[policy]


cdef int _check_legal(const gd_deal *d, const uint64_t[::1] words, str what) except -1:
    """Refuse a word that is not a legal rank-level move of the seat to act."""
    cdef gd_move legal[GD_MAX_RANK_MOVES]
    cdef gd_view view
    gd_view_init(&view, &d.hands[d.turn], d.level)
    cdef size_t nl = gd_rank_moves(&view, d.beat, legal), j
    cdef Py_ssize_t i
    for i in range(words.shape[0]):
        for j in range(nl):
            if legal[j] == words[i]:
                break
        else:
            raise _errors().IllegalMoveError(f"{what}[{i}] = 0x{words[i]:016x} is not a legal move of seat {d.turn}")
    return 0


cdef int _linear_from(weights, gd_linear *lin) except -1:
    """Check and copy the learned policy's weights: POLICY_WEIGHTS finite numbers (a linear
    score), or POLICY_NET (with the hidden layer: the linear weights, then for the leading
    and the responding half each hidden unit's FEATURES inputs, its bias and its output)."""
    errors = _errors()
    what = f"weights are {GD_POLICY_WEIGHTS} or {GD_POLICY_NET} finite numbers"
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise errors.GuandanError(f"{what}, got {_describe(weights)}") from None
    if (
        w.shape not in ((GD_POLICY_WEIGHTS,), (GD_POLICY_NET,))
        or not np.isfinite(w).all()
        or (np.abs(w) > 1e30).any()
    ):
        raise errors.GuandanError(f"{what}, got {_describe(weights)}")
    cdef int i, h, j, k, at = GD_POLICY_WEIGHTS
    for i in range(GD_POLICY_WEIGHTS):
        lin.w[i] = <float>w[i]
    lin.hidden = GD_HIDDEN if w.shape[0] == GD_POLICY_NET else 0
    for h in range(2):
        for j in range(GD_HIDDEN):
            for k in range(GD_FEATURES):
                lin.u[h][j][k] = <float>w[at + k] if lin.hidden else 0.0
            lin.b[h][j] = <float>w[at + GD_FEATURES] if lin.hidden else 0.0
            lin.v[h][j] = <float>w[at + GD_FEATURES + 1] if lin.hidden else 0.0
            if lin.hidden:
                at += GD_FEATURES + 2
    lin.temperature = 0.0
    return 0


cdef int _policies_need_weights(const uint8_t *pol, int n, weights, gd_linear *lin) except -1:
    """Copy the weights into lin when given (1), else refuse a learned policy (0)."""
    cdef int s
    if weights is not None:
        _linear_from(weights, lin)
        return 1
    for s in range(n):
        if pol[s] == GD_POLICY_LEARNED:
            raise _errors().GuandanError("the learned policy needs its weights (weights=...)")
    return 0


def move_features(state, words):
    """The learned policy's features of moves in a deal state: a ``float32 (k, POLICY_WEIGHTS)``
    array, row i for ``words[i]`` (rank-level words legal for the seat to act, the pass
    included when it responds), in the leading half when the seat leads, else the responding
    half (``gd_move_features``)."""
    cdef gd_deal d
    _deal_from(state, &d)
    w = _words_arg(words, "words")
    if w.ndim != 1:
        raise _errors().InvalidMoveError("words must be a 1-D sequence of rank-level words")
    cdef const uint64_t[::1] cw = w
    _check_legal(&d, cw, "words")
    cdef Py_ssize_t k = w.shape[0], i
    out = np.zeros((k, GD_POLICY_WEIGHTS), dtype=np.float32)
    cdef float[:, ::1] o = out
    with nogil:
        for i in range(k):
            gd_move_features(&d, cw[i], &o[i, 0])
    return out


def learned_move(state, weights, temperature=0.0, seed=0):
    """The rank-level word the learned policy plays in a deal state with these weights, and
    the packed cards it spends: the highest score's move, or with ``temperature`` above 0 a
    move drawn by ``gd_learned_sample`` from a generator seeded ``seed``."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef gd_linear lin
    _linear_from(weights, &lin)
    cdef double t = _real_arg(temperature, "temperature", 0.0, 1e6)
    cdef gd_rng rng
    if t == 0.0:
        return _word_and_spent(&d, gd_learned_move(&d, &lin))
    lin.temperature = t
    rng.state = _seed(seed)
    return _word_and_spent(&d, gd_learned_sample(&d, &lin, &rng))


cdef object _infoset_from(infoset, gd_infoset *s):
    """Check and copy ``(seat, level, hand, pool, known, forbid, need, events)``: the seat,
    the level (2..14), its packed hand, the packed pool of cards to deal, four packed sets
    of known and of forbidden cards, four counts of pool cards to deal, and the events as a
    ``uint64 (E, 3)`` array: ``kind | seat << 8 | other << 16`` (kind 1 a play, 2 a pass),
    then the card-level move ``lo, hi`` played or passed on. Returns the buffer holding the
    events ``s`` points to: keep it while ``s`` is in use."""
    errors = _errors()
    try:
        seat, level, hand, pool, known, forbid, need, events = infoset
    except (TypeError, ValueError):
        raise errors.InvalidCardsError(
            "an information set is (seat, level, hand, pool, known, forbid, need, events)") from None
    memset(s, 0, sizeof(gd_infoset))
    s.seat = <uint8_t>_size(seat, "seat", 0, 3)
    s.level = _level_index(level)
    _packed_hand_arg(hand, &s.hand, "hand")
    _packed_hand_arg(pool, &s.pool, "pool")
    cdef int i
    for name, values in (("known", known), ("forbid", forbid), ("need", need)):
        if not isinstance(values, (tuple, list)) or len(values) != 4:
            raise errors.InvalidCardsError(f"{name} must be four values, one per seat, got {_describe(values)}")
    for i in range(4):
        _packed_hand_arg(known[i], &s.known[i], f"known[{i}]")
        _packed_hand_arg(forbid[i], &s.forbid[i], f"forbid[{i}]")
        s.need[i] = <uint8_t>_size(need[i], f"need[{i}]", 0, 28)
    if (not isinstance(events, np.ndarray) or events.dtype != np.uint64 or events.ndim != 2
            or events.shape[1] != 3):
        raise errors.InvalidMoveError(f"events must be a uint64 array of shape (E, 3), got {_describe(events)}")
    cdef Py_ssize_t n = events.shape[0], e
    local = np.ascontiguousarray(events).copy()  # read once: only this copy is checked and used
    cdef const uint64_t[:, ::1] ev = local
    store = np.zeros(max(n, 1) * sizeof(gd_event), dtype=np.uint8)
    cdef uint8_t[::1] raw = store
    cdef gd_event *rows = <gd_event *>&raw[0]
    cdef gd_cards cards
    cdef uint64_t meta
    cdef int code
    for e in range(n):
        meta = ev[e, 0]
        rows[e].kind = meta & 0xFF
        rows[e].seat = (meta >> 8) & 0xFF
        rows[e].other = (meta >> 16) & 0xFF
        rows[e].lo = ev[e, 1]
        rows[e].hi = ev[e, 2]
        cards.w[0] = ev[e, 1]
        cards.w[1] = ev[e, 2] & ((1 << 52) - 1)
        if (meta >> 24 or rows[e].kind not in (GD_EVENT_PLAY, GD_EVENT_PASS) or rows[e].seat > 3
                or rows[e].other > 3 or gd_check_cards(&cards) >= 0):
            raise errors.InvalidMoveError(f"events[{e}] is malformed (kind 1 or 2, seats 0..3, valid cards)")
        rows[e].word = gd_card_to_rank(ev[e, 1], ev[e, 2], s.level)
        code = gd_check_move(rows[e].word)
        if code or rows[e].word == GD_PASS_MOVE:
            raise errors.InvalidMoveError(f"events[{e}] is not a play: {gd_move_error(code).decode()}")
    s.events = rows
    s.n_events = n
    code = gd_infoset_check(s)
    if code:
        raise errors.InvalidCardsError(f"inconsistent information set: {gd_infoset_error(code).decode()}")
    return store


cdef double _real_arg(value, str name, double lo, double hi) except? -1.0:
    """A real number in [lo, hi] (compared as given: an int too large for a double is out of
    bounds, not an OverflowError)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, _NP_INTEGER, np.floating)) \
            or not lo <= value <= hi:
        value = _errors().check_number(name, value, at_least=lo, at_most=hi)
    return float(value)


cdef double _unit_weight(value, str name) except -1.0:
    """A likelihood factor: a number in (0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float, _NP_INTEGER, np.floating)) \
            or not 0.0 < value <= 1.0:
        value = _errors().check_number(name, value, above=0, at_most=1)
    return float(value)


cdef int _infer_from(gd_infer *inf, tries, pass_weight, bomb_weight) except -1:
    inf.tries = <int>_size(tries, "tries", 1, 4096)
    inf.pass_weight = _unit_weight(pass_weight, "pass_weight")
    inf.bomb_weight = _unit_weight(bomb_weight, "bomb_weight")
    return 0


cdef object _hands_out(const gd_cards *hands):
    return tuple(int(hands[s].w[0]) | int(hands[s].w[1]) << 64 for s in range(4))


cdef int _root_from(const gd_infoset *info, state, gd_deal *d) except -1:
    """The search's root: the public state ``(level, turn, last, beat, passes, finished)``
    with the seat's own hand, checked as a whole deal with one sampled deal's hands."""
    errors = _errors()
    try:
        level, turn, last, beat, passes, finished = state
    except (TypeError, ValueError):
        raise errors.InvalidMoveError("a search state is (level, turn, last, beat, passes, finished)") from None
    cdef gd_rng rng
    rng.state = 0
    cdef gd_cards hands[4]
    gd_sample_deal(info, &rng, hands)
    _deal_from((_hands_out(hands), level, turn, last, beat, passes, finished), d)
    if d.level != info.level:
        raise errors.InvalidMoveError(f"the state's level {d.level + 2} is not the information set's {info.level + 2}")
    if d.turn != info.seat:
        raise errors.InvalidMoveError(f"the seat to act ({d.turn}) must be the information set's seat ({info.seat})")
    return 0


def sample_deals(infoset, n, seed=0, tries=1, pass_weight=1.0, bomb_weight=1.0):
    """``n`` deals consistent with an information set (see ``_infoset_from``): a tuple of
    ``n`` tuples of four packed hands. Deal i is drawn from the stream ``(seed, i)``; with
    ``tries`` > 1 and a weight below 1, each is the one kept of ``tries`` draws by its
    likelihood (``gd_sample_weighted``)."""
    cdef gd_infoset info
    _events = _infoset_from(infoset, &info)  # holds the events that info points to
    cdef gd_infer inf
    _infer_from(&inf, tries, pass_weight, bomb_weight)
    cdef Py_ssize_t count = _size(n, "n", 0, 1 << 24), i
    cdef uint64_t base = _seed(seed)
    cdef gd_rng rng
    cdef gd_cards *hands = <gd_cards *>malloc(max(count, 1) * 4 * sizeof(gd_cards))
    if hands == NULL:
        raise MemoryError()
    try:
        with nogil:
            for i in range(count):
                rng.state = gd_stream(base, i, 1)
                gd_sample_weighted(&info, &inf, &rng, &hands[4 * i])
        return tuple(_hands_out(&hands[4 * i]) for i in range(count))
    finally:
        free(hands)


def deal_weight(infoset, hands, pass_weight=1.0, bomb_weight=1.0):
    """The likelihood weight (0, 1] of four packed hands given an information set's events
    (``gd_deal_weight``). The hands are those of now, checked to be consistent with it."""
    cdef gd_infoset info
    _events = _infoset_from(infoset, &info)  # holds the events that info points to
    cdef gd_infer inf
    _infer_from(&inf, 1, pass_weight, bomb_weight)
    cdef gd_cards h[4]
    _hands_of(&info, hands, h)
    return gd_deal_weight(&info, &inf, h)


def policy_belief(infoset, hands, weights, miss, events):
    """How likely the other seats' plays were under the learned policy in four packed hands
    (those of now; ``gd_policy_belief``): ``miss`` to the power of the plays and passes, among
    the other seats' latest ``events``, that the policy with these weights would not have
    made with the hands of then; 1.0 when the events do not replay as a deal."""
    cdef gd_infoset info
    _events = _infoset_from(infoset, &info)  # holds the events that info points to
    cdef gd_linear lin
    _linear_from(weights, &lin)
    cdef double m = _unit_weight(miss, "policy_weight")
    cdef int n = <int>_size(events, "events", 0, 1 << 16)
    cdef gd_cards h[4]
    _hands_of(&info, hands, h)
    cdef double out
    with nogil:
        out = gd_policy_belief(&info, &lin, m, n, h)
    return out


cdef int _hands_of(const gd_infoset *info, hands, gd_cards *h) except -1:
    """Four packed hands, the information set's seat holding its own hand."""
    if not isinstance(hands, (tuple, list)) or len(hands) != 4:
        raise _errors().InvalidCardsError(f"hands are four packed hands, got {_describe(hands)}")
    cdef int s
    for s in range(4):
        _packed_hand_arg(hands[s], &h[s], f"hands[{s}]")
    if h[info.seat].w[0] != info.hand.w[0] or h[info.seat].w[1] != info.hand.w[1]:
        raise _errors().InvalidCardsError(f"hands[{info.seat}] is not the information set's own hand")
    return 0


def deal_play(state, word):
    """Play a legal rank-level move (or the pass) for the seat to act with its canonical cards
    (``gd_spend``, as every native playout spends them): ``(state, over)`` after it."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef uint64_t[::1] one = np.array([_u64(word, "word", _MOVE)], dtype=np.uint64)
    _check_legal(&d, one, "word")
    cdef gd_cards spent
    gd_spend(&d.hands[d.turn], d.level, one[0], &spent)
    gd_deal_apply(&d, one[0], &spent)
    return _state_of(&d), bool(d.over)


def deal_candidates(state, limit):
    """The candidate moves ``gd_candidates`` gives for the seat to act in a whole deal state
    (rank-level words, ``uint64``, at most ``limit``, the smart policy's choice first)."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef size_t lim = <size_t>_size(limit, "limit", 1, GD_MAX_RANK_MOVES)
    cdef gd_move buf[GD_MAX_RANK_MOVES]
    cdef size_t k
    with nogil:
        k = gd_candidates(&d, lim, buf)
    return _words(buf, k)


def search_candidates(infoset, state, limit):
    """The candidate moves of a search (rank-level words, ``uint64``), at most ``limit``, in
    the smart policy's order (its own choice first; see ``gd_candidates``)."""
    cdef gd_infoset info
    _events = _infoset_from(infoset, &info)  # holds the events that info points to
    cdef gd_deal root
    _root_from(&info, state, &root)
    cdef size_t lim = <size_t>_size(limit, "limit", 1, GD_MAX_RANK_MOVES)
    cdef gd_move buf[GD_MAX_RANK_MOVES]
    cdef size_t k
    with nogil:
        k = gd_candidates(&root, lim, buf)
    return _words(buf, k)


#: The fields of ``guandan.core.search.SearchParams`` (read by name: this module imports
#: nothing of the package but its errors).
_SEARCH_FIELDS = ("seed", "rollouts", "seconds", "threads", "policy", "weights", "temperature", "objective",
                  "promotion", "solve_cards", "solve_nodes", "solve_cost", "tries", "pass_weight", "bomb_weight",
                  "policy_weight", "policy_events", "tree_moves", "tree_visits", "tree_nodes", "tree_c",
                  "tree_first", "prior_rollouts", "value", "value_hidden", "value_plies", "value_mix")


cdef object _params_from(given, gd_search_params *p, gd_linear *lin, gd_value *val):
    """Check and copy a ``SearchParams`` into the C struct, field by field (``lin`` holds the
    learned policy's weights that ``p.linear`` then points to, ``val`` the state value that
    ``p.value`` points to). Each field is read once. Returns the array holding the value's
    weights (``None`` without one): keep it while ``p`` is in use."""
    errors = _errors()
    try:
        params = {name: getattr(given, name) for name in _SEARCH_FIELDS}
    except AttributeError:
        raise errors.GuandanError(f"params must be a SearchParams, got {_describe(given)}") from None
    cdef int i
    p.seed = _seed(params["seed"])
    p.rollouts = _size(params["rollouts"], "rollouts", 0, _MAX_ROWS)
    p.seconds = _real_arg(params["seconds"], "seconds", 0.0, 1e6)
    if p.rollouts == 0 and p.seconds <= 0:
        raise errors.GuandanError("give a budget: rollouts > 0 or seconds > 0")
    p.threads = <int>_size(params["threads"], "threads", 1, MAX_THREADS)
    p.policy = <uint8_t>_search_policy(params["policy"])
    p.linear = lin if _policies_need_weights(&p.policy, 1, params["weights"], lin) else NULL
    cdef double temperature = _real_arg(params["temperature"], "temperature", 0.0, 1e6)
    if temperature > 0.0 and (p.linear == NULL or p.policy != GD_POLICY_LEARNED):
        raise errors.GuandanError(
            "temperature draws the learned policy's moves: it needs policy='learned' and its weights")
    if p.linear != NULL:
        lin.temperature = temperature
    memset(p.payoff, 0, sizeof(p.payoff))
    objective = params["objective"]
    if isinstance(objective, (tuple, list)) and len(objective) == 6:
        p.objective = GD_OBJECTIVE_TABLE
        for i in range(6):
            p.payoff[i] = <int32_t>_int_arg(objective[i], "objective's payoff", -1_000_000, 1_000_000)
    elif isinstance(objective, str) and objective in ("levels", "wins"):
        p.objective = GD_OBJECTIVE_WINS if objective == "wins" else GD_OBJECTIVE_LEVELS
    else:
        raise errors.GuandanError(
            f"objective must be 'levels', 'wins' or six payoffs (a win with the partner 2nd, 3rd, 4th; "
            f"a loss likewise), got {_describe(objective)}")
    promotion = params["promotion"]
    if isinstance(promotion, (str, bytes)) or not isinstance(promotion, (tuple, list)) or len(promotion) != 3:
        raise errors.GuandanError(f"promotion is three gains 0..12 (partner 2nd, 3rd, 4th), got {_describe(promotion)}")
    for i in range(3):
        p.promotion[i] = <uint8_t>_size(promotion[i], "promotion", 0, 12)
    p.solve_cards = <uint8_t>_size(params["solve_cards"], "solve_cards", 0, 108)
    p.solve_nodes = _size(params["solve_nodes"], "solve_nodes", 1, _MAX_ROWS)
    p.solve_cost = <uint32_t>_size(params["solve_cost"], "solve_cost", 1, 1_000_000)
    _infer_from(&p.infer, params["tries"], params["pass_weight"], params["bomb_weight"])
    p.policy_weight = _unit_weight(params["policy_weight"], "policy_weight")
    p.policy_events = <int>_size(params["policy_events"], "policy_events", 0, 1 << 16)
    if p.policy_weight < 1.0 and p.policy_events > 0 and p.linear == NULL:
        raise errors.GuandanError("weighting deals by the learned policy needs its weights (weights=...)")
    p.tree_moves = <uint8_t>_size(params["tree_moves"], "tree_moves", 0, GD_TREE_MAX_MOVES)
    p.tree_visits = <uint32_t>_size(params["tree_visits"], "tree_visits", 1, 1 << 30)
    p.tree_nodes = <uint32_t>_size(params["tree_nodes"], "tree_nodes", 1, GD_TREE_MAX_NODES)
    p.tree_c = _real_arg(params["tree_c"], "tree_c", 0.0, 1e6)
    p.tree_first = _unit_weight(params["tree_first"], "tree_first")
    p.prior = NULL
    p.prior_rollouts = _real_arg(params["prior_rollouts"], "prior_rollouts", 0.0, 1e12)
    p.value = NULL
    cdef int plies = <int>_size(params["value_plies"], "value_plies", 0, 10_000)
    cdef double mix = _real_arg(params["value_mix"], "value_mix", 0.0, 1.0)
    if params["value"] is None:
        if plies != 0 or mix != 1.0:
            raise errors.GuandanError("value_plies and value_mix need a state value (value=...)")
        return None
    held = _value_from(params["value"], params["value_hidden"], val)
    val.plies = plies
    val.mix = mix
    if p.objective != GD_OBJECTIVE_LEVELS:
        raise errors.GuandanError("a state value scores levels: it needs objective='levels'")
    if p.tree_moves > 0:
        raise errors.GuandanError("a state value ends the rollouts, not the tree's playouts: not with tree_moves > 0")
    if p.linear != NULL and p.policy_weight < 1.0:  # the core's own test of weighted deals
        raise errors.GuandanError("a state value does not combine with weighting deals (policy_weight < 1)")
    p.value = val
    return held


cdef object _value_from(weights, hidden, gd_value *v):
    """Check a state value's widths and weights into ``v``: two widths 1..VALUE_HIDDEN and
    ``value_size(hidden)`` finite numbers. Returns the ``float32`` copy ``v.w`` points to."""
    errors = _errors()
    _value_widths(hidden, v)
    cdef size_t n = gd_value_size(v.hidden)
    what = f"a state value of hidden widths {tuple(hidden)} is {n} finite numbers"
    try:
        w = np.array(weights, dtype=np.float32).ravel()
    except (TypeError, ValueError):
        raise errors.GuandanError(f"{what}, got {_describe(weights)}") from None
    if w.shape[0] != n or not np.isfinite(w).all():
        raise errors.GuandanError(f"{what}, got {w.shape[0]}" + ("" if w.shape[0] != n else " with one not finite"))
    cdef const float[::1] wv = w
    v.w = &wv[0]
    v.plies = 0
    v.mix = 1.0
    return w


cdef int _value_widths(hidden, gd_value *v) except -1:
    """Check a state value's two hidden widths (1..VALUE_HIDDEN each) into ``v``."""
    if isinstance(hidden, (str, bytes)) or not isinstance(hidden, (tuple, list)) or len(hidden) != 2:
        raise _errors().GuandanError(f"value_hidden is two widths 1..{GD_VALUE_HIDDEN}, got {_describe(hidden)}")
    v.hidden[0] = <int>_size(hidden[0], "value_hidden", 1, GD_VALUE_HIDDEN)
    v.hidden[1] = <int>_size(hidden[1], "value_hidden", 1, GD_VALUE_HIDDEN)
    return 0


def value_size(hidden):
    """How many weights a state value of these two hidden widths has (``gd_value_size``)."""
    cdef gd_value v
    _value_widths(hidden, &v)
    return gd_value_size(v.hidden)


def value_features(state):
    """The numbers the state value reads of a whole deal state (``Deal.native_state()``, not
    over), for its seat to act: ``float32 (VALUE_FEATURES,)`` (``gd_value_features``)."""
    cdef gd_deal d
    _deal_from(state, &d)
    out = np.zeros(GD_VALUE_FEATURES, dtype=np.float32)
    cdef float[::1] o = out
    gd_value_features(&d, &o[0])
    return out


def value_of(state, weights, hidden):
    """The state value's value (levels, for the side of the seat to act) of a whole deal
    state not over, under these weights and hidden widths (``gd_value_eval``)."""
    cdef gd_deal d
    _deal_from(state, &d)
    if d.over:
        raise _errors().GuandanError("the deal is over: its result is known, it has no value")
    cdef gd_value v
    held = _value_from(weights, hidden, &v)
    return gd_value_eval(&v, &d)


def _prior_arg(prior, Py_ssize_t k):
    """The candidates' prior values as a new ``float64`` array of ``k`` numbers within ±1e6 (a
    copy: what is checked is what the search reads)."""
    errors = _errors()
    try:
        values = np.array(prior, dtype=np.float64)
    except (TypeError, ValueError):
        raise errors.GuandanError(f"prior must be a number for each candidate, got {_describe(prior)}") from None
    if values.ndim != 1 or values.shape[0] != k:
        raise errors.GuandanError(f"prior must be one number for each of the {k} candidates, got shape {values.shape}")
    if not (np.abs(values) <= 1e6).all():  # NaN fails too
        raise errors.GuandanError("prior values must be finite numbers within ±1e6")
    return values


def search(infoset, state, candidates, params, prior=None):
    """Determinized search with successive halving over candidate moves (``gd_search``),
    without the GIL, on ``params.threads`` threads: ``(stats, rollouts played)``, ``stats`` a
    ``float64 (k, 4)`` array of each candidate's rollouts, mean result (levels, for the
    seat's side), last round and rank (0: the choice).

    ``candidates``: rank-level words legal for the seat (distinct). ``params``: a
    :class:`guandan.core.search.SearchParams`, the C parameter struct ``gd_search_params``
    field for field (its fields say what each does), checked and copied here. ``prior``: a
    finite value for each candidate, in the rollouts' unit, that counts as
    ``params.prior_rollouts`` rollouts in the standings (``None``: no prior; one is needed
    when ``prior_rollouts`` > 0)."""
    errors = _errors()
    cdef gd_infoset info
    _events = _infoset_from(infoset, &info)  # holds the events that info points to
    cdef gd_deal root
    _root_from(&info, state, &root)
    words = _words_arg(candidates, "candidates")
    if words.ndim != 1 or words.shape[0] == 0:
        raise errors.InvalidMoveError("candidates must be a non-empty 1-D sequence of rank-level words")
    if len(set(words.tolist())) != words.shape[0]:
        raise errors.InvalidMoveError("candidates must be distinct")
    cdef const uint64_t[::1] cw = words
    _check_legal(&root, cw, "candidates")
    cdef Py_ssize_t k = words.shape[0], i
    cdef gd_search_params p
    cdef gd_linear lin
    cdef gd_value val
    held = _params_from(params, &p, &lin, &val)  # holds the value's weights p.value points to
    cdef const double[::1] pv
    if prior is not None:
        values = _prior_arg(prior, k)
        pv = values
        p.prior = &pv[0]
    elif p.prior_rollouts > 0:
        raise errors.GuandanError("prior_rollouts > 0 needs a prior: a value for each candidate")
    cdef gd_candidate_stats *stats = <gd_candidate_stats *>malloc(k * sizeof(gd_candidate_stats))
    if stats == NULL:
        raise MemoryError()
    cdef int64_t done
    try:
        with nogil:
            done = gd_search(&info, &root, &cw[0], k, &p, stats)
        if done < 0:
            raise MemoryError()
        out = np.empty((k, 4), dtype=np.float64)
        for i in range(k):
            out[i, 0] = stats[i].n
            out[i, 1] = stats[i].sum / stats[i].weight if stats[i].n else 0.0
            out[i, 2] = stats[i].round
            out[i, 3] = stats[i].rank
        return out, done
    finally:
        free(stats)


def rollouts(state, n, policies="smart", seed=0, weights=None, seat_weights=None):
    """Play a deal state (as for :func:`playouts`) to its end ``n`` times, seat s playing
    ``policies[s]`` (one name for every seat, or four): ``int8 (n, 4)`` finish orders.
    Rollout i draws from the stream ``(seed, i)``. ``weights``: the learned policy's;
    ``seat_weights``: four, one a seat (``None``: ``weights``), for learned policies of
    different weights at one table."""
    cdef gd_deal start, d
    _deal_from(state, &start)
    if isinstance(policies, str):
        policies = (policies,) * 4
    if not isinstance(policies, (tuple, list)) or len(policies) != 4:
        raise _errors().GuandanError(f"policies: one name, or four (one per seat), got {_describe(policies)}")
    if seat_weights is None:
        seat_weights = (None,) * 4
    if not isinstance(seat_weights, (tuple, list)) or len(seat_weights) != 4:
        raise _errors().GuandanError(
            f"seat_weights: four (weights or None, one per seat), got {_describe(seat_weights)}"
        )
    cdef uint8_t pol[4]
    cdef gd_linear lin[4]
    cdef const gd_linear *plin[4]
    cdef int s
    for s in range(4):
        pol[s] = <uint8_t>_search_policy(policies[s])
        given = seat_weights[s] if seat_weights[s] is not None else weights
        plin[s] = &lin[s] if _policies_need_weights(&pol[s], 1, given, &lin[s]) else NULL
    cdef Py_ssize_t count = _size(n, "n", 0, _MAX_ROWS), i
    cdef uint64_t base = _seed(seed)
    cdef gd_rng rng
    out = np.full((count, 4), -1, dtype=np.int8)
    cdef int8_t[:, ::1] o = out
    cdef int k, seat, placed
    with nogil:
        for i in range(count):
            d = start
            rng.state = gd_stream(base, i, 2)
            gd_rollout_seats(&d, pol, plin, &rng)
            for k in range(d.n_finished):
                o[i, k] = d.finished[k]
            if d.n_finished == 3:
                placed = 0
                for k in range(3):
                    placed |= 1 << d.finished[k]
                for seat in range(4):
                    if not (placed >> seat) & 1:
                        o[i, 3] = seat
    return out


def smart_move(state):
    """The rank-level word the smart policy plays in a deal state, and the packed cards it spends."""
    cdef gd_deal d
    _deal_from(state, &d)
    return _word_and_spent(&d, gd_smart_move(&d))
