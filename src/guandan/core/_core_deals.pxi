# Part of _core.pyx (included there, in this order; one extension module): native deals: the trick
# flow, playouts, perft, exact endgames, the greedy agent's scan.

# -- native deals: the trick flow, playouts, perft ----------------------------------------------


cdef int _packed_hand_arg(value, gd_cards *out, str what) except -1:
    """A packed hand into ``out``: an int 0 <= value < 2**108 (2 bits a face, the gd_cards
    layout) holding at most 2 copies of a face; ``what`` names it in the errors."""
    if not _is_int(value) or not 0 <= value < _LIMIT108:
        raise _errors().InvalidCardsError(f"{what}: a packed hand is an int below 2**108, got {value!r:.60}")
    value = int(value)
    out.w[0] = <uint64_t>(value & _MASK64)
    out.w[1] = <uint64_t>(value >> 64)
    cdef int bad = gd_check_cards(out)
    if bad >= 0:
        raise _errors().InvalidCardsError(
            f"{what}: packed cards have bits set beyond the 54 faces" if bad == GD_FACES
            else f"{what}: packed cards hold 3 copies of {_FACE_NAMES[bad]}")
    return 0


_MASK64 = (1 << 64) - 1
POLICIES = {"random": GD_POLICY_RANDOM, "greedy": GD_POLICY_GREEDY}


cdef object _LIMIT108 = 1 << 108


cdef int _seat_arg(value, str name, int lo) except -99:
    """A seat or a count of passes in a deal state: an int lo..3 (a Python or numpy integer)."""
    if not _is_int(value) or not lo <= value <= 3:
        raise _errors().InvalidMoveError(f"{name} must be an int {lo}..3, got {value!r:.60}")
    return <int>value


cdef int _deal_from(state, gd_deal *d) except -1:
    """Fill a gd_deal from (hands, level, turn, last, beat, passes, finished): hands as four
    packed ints (2 bits a face, the gd_cards layout) or a uint8 (4, 54) count array, level a
    rank number 2..14, last the seat of the play to beat or -1, beat its rank-level word."""
    errors = _errors()
    try:
        hands, level, turn, last, beat, passes, finished = state
    except (TypeError, ValueError):
        raise errors.InvalidMoveError(
            "a deal state is (hands, level, turn, last, beat, passes, finished)") from None
    cdef int s, bad
    cdef const uint8_t[:, ::1] counts
    cdef uint8_t rows[4][54]  # the caller's array read once: only this copy is checked and used
    if isinstance(hands, np.ndarray):
        if hands.dtype != np.uint8 or hands.shape != (4, GD_FACES) or not hands.flags.c_contiguous:
            raise errors.InvalidCardsError(
                f"hands must be a C-contiguous uint8 array of shape (4, 54), got {_describe(hands)}")
        counts = hands
        memcpy(rows, &counts[0, 0], sizeof(rows))
        for s in range(4):
            bad = gd_pack_cards(rows[s], &d.hands[s])
            if bad >= 0:
                raise errors.InvalidCardsError(f"hands[{s}] (seat {s}): too many copies of {_FACE_NAMES[bad]}: "
                                               f"{rows[s][bad]} (the double deck has 2)")
    else:
        if not isinstance(hands, (tuple, list)) or len(hands) != 4:
            raise errors.InvalidCardsError(
                f"a deal's hands are four packed ints or a uint8 (4, 54) array, got {_describe(hands)}")
        for s in range(4):
            h = hands[s]
            if not _is_int(h) or not 0 <= h < _LIMIT108:
                raise errors.InvalidCardsError(
                    f"hands[{s}] (seat {s}): a packed hand is an int below 2**108, got {h!r:.60}")
            h = int(h)
            d.hands[s].w[0] = <uint64_t>(h & _MASK64)
            d.hands[s].w[1] = <uint64_t>(h >> 64)
    d.level = _level_index(level)
    d.turn = _seat_arg(turn, "turn", 0)
    d.last = _seat_arg(last, "last", -1)
    d.passes = _seat_arg(passes, "passes", 0)
    d.beat = _checked_move(beat)
    if type(finished) is not tuple:
        if not isinstance(finished, (tuple, list)):
            raise errors.InvalidMoveError(
                f"finished must be a tuple of at most three seats 0..3, got {_describe(finished)}")
        finished = tuple(finished)
    if len(finished) > 3:
        raise errors.InvalidMoveError(f"finished must list at most three seats 0..3, got {finished!r}")
    d.n_finished = len(finished)
    for s in range(d.n_finished):
        x = finished[s]
        if not _is_int(x) or not 0 <= x <= 3:
            raise errors.InvalidMoveError(f"finished must list at most three seats 0..3, got {finished!r}")
        d.finished[s] = <uint8_t>x
    d.over = 0
    cdef int code = gd_deal_check(d)
    if code:
        raise errors.InvalidMoveError(f"inconsistent deal state: {gd_deal_error(code).decode()}")
    return 0


cdef object _state_of(const gd_deal *d):
    hands = tuple(int(d.hands[s].w[0]) | int(d.hands[s].w[1]) << 64 for s in range(4))
    finished = tuple(int(d.finished[s]) for s in range(d.n_finished))
    return hands, d.level + 2, d.turn, d.last, d.beat, d.passes, finished


def deal_step(state, lo, hi):
    """Play a card-level move (two words) for the seat to act: ``(state, over)`` after it.

    The move must be legal (it is checked against the seat's card-level moves)."""
    cdef gd_deal d
    _deal_from(state, &d)
    lo = _u64(lo, "lo", _MOVE)
    hi = _u64(hi, "hi", _MOVE)
    legal = card_moves(_counts_of(&d.hands[d.turn]), d.level + 2, d.beat)
    if not np.any((legal[:, 0] == lo) & (legal[:, 1] == hi)):
        raise _errors().IllegalMoveError(f"0x{hi:016x}{lo:016x} is not a legal move of seat {d.turn}")
    cdef gd_cards spent
    spent.w[0] = lo
    spent.w[1] = hi & ((1 << 52) - 1)
    gd_deal_apply(&d, gd_card_to_rank(lo, hi, d.level), &spent)
    return _state_of(&d), bool(d.over)


cdef bytes _counts_of(const gd_cards *c):
    cdef uint8_t counts[54]
    gd_unpack_cards(c, counts)
    return PyBytes_FromStringAndSize(<char *>counts, GD_FACES)


def playouts(state, n, policy="random", seed=0):
    """Play ``n`` deals to the end from one state with a built-in policy (``random``:
    uniform over rank-level moves; ``greedy``), in the native core without the GIL.

    Returns an ``int8 (n, 4)`` array of finish orders (seats, 1st place first; -1 for
    places never decided, the two losers of a double-down). Playout i continues one
    SplitMix64 stream seeded with ``seed``, so the results depend only on the state, n,
    the policy and the seed.
    """
    cdef gd_deal start, d
    _deal_from(state, &start)
    cdef int pol = POLICIES[_policy_name(policy)]
    cdef Py_ssize_t count = _size(n, "n", 0, _MAX_ROWS)
    cdef gd_rng rng
    rng.state = _seed(seed)
    out = np.full((count, 4), -1, dtype=np.int8)
    cdef int8_t[:, ::1] o = out
    cdef Py_ssize_t i
    cdef int k, seat, placed
    with nogil:
        for i in range(count):
            d = start
            gd_playout(&d, pol, &rng)
            for k in range(d.n_finished):
                o[i, k] = d.finished[k]
            if d.n_finished == 3:  # the seat left holding cards is 4th
                placed = 0
                for k in range(3):
                    placed |= 1 << d.finished[k]
                for seat in range(4):
                    if not (placed >> seat) & 1:
                        o[i, 3] = seat
    return out


cdef tuple _word_and_spent(const gd_deal *d, gd_move m):
    """A policy's move for the seat to act and the packed cards it spends (canonically)."""
    cdef gd_cards spent
    gd_spend(&d.hands[d.turn], d.level, m, &spent)
    return m, int(spent.w[0]) | int(spent.w[1]) << 64


def choose(state, policy="greedy", seed=0):
    """The rank-level word a built-in policy plays in a state, and the packed cards it spends."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef int pol = POLICIES[_policy_name(policy)]
    cdef gd_rng rng
    rng.state = _seed(seed)
    return _word_and_spent(&d, gd_choose(&d, pol, &rng))


def perft(state, depth):
    """The number of card-level action sequences of exactly ``depth`` plies from a state."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef int plies = <int>_size(depth, "depth", 0, 2**31 - 1)
    cdef int64_t total
    with nogil:
        total = gd_perft(&d, plies)
    if total < 0:
        raise MemoryError()
    return total


# -- exact endgames: perfect-information solves with a transposition table -----------------------

#: The transposition table of a solve: 2^SOLVE_TABLE_BITS entries (16 bytes each).
SOLVE_TABLE_BITS = 18


cdef int _solver_init(gd_solver *s, promotion, budget) except -1:
    """A solver with a zeroed table of 2^SOLVE_TABLE_BITS entries, the promotion and the budget checked."""
    errors = _errors()
    if isinstance(promotion, (str, bytes)) or not isinstance(promotion, (tuple, list)) or len(promotion) != 3:
        raise errors.GuandanError(f"promotion is three gains 0..12 (partner 2nd, 3rd, 4th), got {_describe(promotion)}")
    cdef int i
    for i in range(3):
        s.promotion[i] = <uint8_t>_size(promotion[i], "promotion", 0, 12)
    s.budget = _size(budget, "budget", 1, _MAX_ROWS)
    s.mask = (1ull << SOLVE_TABLE_BITS) - 1
    s.table = <gd_solve_entry *>calloc(s.mask + 1, sizeof(gd_solve_entry))
    if s.table == NULL:
        raise MemoryError()
    s.nodes = 0
    s.aborted = 0
    s.generation = 1
    return 0


def solve(state, side, promotion=(3, 2, 1), budget=1_000_000):
    """The perfect-information value of a deal state for ``side`` (0: seats 0 and 2), both
    sides playing their best, in levels under ``promotion`` — ``(value, nodes)``, ``value``
    ``None`` when ``budget`` visited states were not enough (``gd_solve``: alpha-beta over the
    rank-level moves, each spent canonically, with a transposition table)."""
    cdef gd_deal d
    _deal_from(state, &d)
    cdef int sd = <int>_size(side, "side", 0, 1)
    cdef gd_solver s
    _solver_init(&s, promotion, budget)
    cdef int value = 0, ok
    try:
        with nogil:
            ok = gd_solve(&s, &d, sd, &value)
        return (value if ok else None), int(s.nodes)
    finally:
        free(s.table)


def solve_move(state, promotion=(3, 2, 1), budget=1_000_000):
    """The best rank-level move of the seat to act in a deal state with every hand known, by
    solving each of its moves: ``(word, value, nodes)`` (``value`` for the seat's side), or
    ``(None, None, nodes)`` when ``budget`` visited states were not enough."""
    cdef gd_deal d
    _deal_from(state, &d)
    if d.over:
        raise _errors().IllegalMoveError("the deal is over: there is no move to solve")
    cdef gd_solver s
    _solver_init(&s, promotion, budget)
    cdef int value = 0, ok
    cdef gd_move move = GD_PASS_MOVE
    try:
        with nogil:
            ok = gd_solve_move(&s, &d, &move, &value)
        if not ok:
            return None, None, int(s.nodes)
        return int(move), value, int(s.nodes)
    finally:
        free(s.table)


def cards_left(state):
    """The cards left in the four hands of a deal state together."""
    cdef gd_deal d
    _deal_from(state, &d)
    return int(gd_cards_left(&d))


def evaluate(states, firsts, n=1, policy="greedy", seed=0):
    """Play out each candidate first move in each state: ``int8 (S, F, n, 4)`` finish orders.

    ``states`` are deal states (as for :func:`playouts`) with the same seat to act — the
    determinizations of a search — and ``firsts`` rank-level words legal for that seat in
    every state; each is played (its cards spent canonically) and the deal played out
    ``n`` times with the policy, all in the native core. One SplitMix64 stream from ``seed``.
    """
    errors = _errors()
    cdef int pol = POLICIES[_policy_name(policy)]
    cdef Py_ssize_t count = _size(n, "n", 1, _MAX_ROWS)
    cdef uint64_t seed_state = _seed(seed)
    if not isinstance(states, (list, tuple)):
        raise errors.InvalidMoveError(f"states must be a list of deal states, got {_describe(states)}")
    states = list(states)
    words = _words_arg(firsts, "firsts")
    if words.ndim != 1:
        raise errors.InvalidMoveError(f"firsts must be a 1-D sequence of rank-level words, got shape {words.shape}")
    cdef Py_ssize_t S = len(states), F = len(words), si, fi, j
    if S * F and count > _MAX_ROWS // (S * F):
        raise errors.GuandanError(f"{S} states x {F} moves x {count} playouts is too many")
    cdef gd_deal *deals = <gd_deal *>malloc(max(S, 1) * sizeof(gd_deal))
    if deals == NULL:
        raise MemoryError()
    cdef gd_move legal[GD_MAX_RANK_MOVES]
    cdef gd_view view
    cdef size_t nl
    cdef const uint64_t[::1] fw = words
    try:
        for si in range(S):
            _deal_from(states[si], &deals[si])
            gd_view_init(&view, &deals[si].hands[deals[si].turn], deals[si].level)
            nl = gd_rank_moves(&view, deals[si].beat, legal)
            for fi in range(F):
                for j in range(<Py_ssize_t>nl):
                    if legal[j] == fw[fi]:
                        break
                else:
                    raise _errors().IllegalMoveError(
                        f"firsts[{fi}] = 0x{fw[fi]:016x} is not a legal move of seat {deals[si].turn} in states[{si}]")
        out = np.full((S, F, count, 4), -1, dtype=np.int8)
        _evaluate(deals, S, fw, count, pol, seed_state, out)
        return out
    finally:
        free(deals)


cdef void _evaluate(gd_deal *deals, Py_ssize_t S, const uint64_t[::1] fw, Py_ssize_t n, int policy, uint64_t seed,
                    int8_t[:, :, :, ::1] o) noexcept nogil:
    cdef gd_rng rng
    rng.state = seed
    cdef gd_deal after, d
    cdef gd_cards spent
    cdef Py_ssize_t si, fi, k, c
    cdef int placed, seat
    for si in range(S):
        for fi in range(fw.shape[0]):
            after = deals[si]
            gd_spend(&after.hands[after.turn], after.level, fw[fi], &spent)
            gd_deal_apply(&after, fw[fi], &spent)
            for k in range(n):
                d = after
                gd_playout(&d, policy, &rng)
                for c in range(d.n_finished):
                    o[si, fi, k, c] = d.finished[c]
                if d.n_finished == 3:
                    placed = 0
                    for c in range(3):
                        placed |= 1 << d.finished[c]
                    for seat in range(4):
                        if not (placed >> seat) & 1:
                            o[si, fi, k, 3] = seat


def spend_cards(counts, level, word):
    """The physical cards (a packed int, 2 bits a face) a rank-level move spends from a hand,
    chosen canonically (the suits holding the most copies first; see ``gd_spend``)."""
    cdef gd_view view
    cdef int lvl = _level_index(level)
    _view_of(counts, lvl, &view)
    cdef gd_move m = _checked_move(word, "the move")
    if m == GD_PASS_MOVE:
        return 0
    cdef gd_move legal[GD_MAX_RANK_MOVES]
    cdef size_t n = gd_rank_moves(&view, GD_PASS_MOVE, legal), i
    for i in range(n):
        if legal[i] == m:
            break
    else:
        raise _errors().IllegalMoveError(f"0x{m:016x} cannot be played from this hand")
    cdef gd_cards spent
    gd_spend(&view.cards, lvl, m, &spent)
    return int(spent.w[0]) | int(spent.w[1]) << 64


def rng_draws(seed, bounds):
    """Draws of the native SplitMix64 seeded ``seed``: ``below(b)`` for each bound (0: a raw
    64-bit output) — the same numbers as :class:`guandan.core.rng.SplitMix64` (a check)."""
    cdef gd_rng rng
    rng.state = _seed(seed)
    if not isinstance(bounds, (list, tuple)):
        raise _errors().GuandanError(f"bounds must be a list of ints 0..2**64-1, got {_describe(bounds)}")
    cdef uint64_t b
    out = []
    for bound in bounds:
        b = _u64(bound, "a bound", _OTHER)
        out.append(gd_rng_next(&rng) if b == 0 else gd_rng_below(&rng, b))
    return out


# -- the greedy agent's choice among card-level moves -------------------------------------------
#
# The choice of guandan.bots.agents.GreedyAgent made in C (csrc/gd_agents.c), on the card-level
# move array a deal holds. Every argument is checked here; the C scan reads each move row
# once and checks it (a malformed word raises InvalidMoveError naming its row).


cdef bint _u64_format(const char *fmt) noexcept:
    """Whether a buffer format is a native unsigned 64-bit integer ('L' or 'Q', optionally '@', '=' or '<')."""
    if fmt == NULL:
        return False
    if fmt[0] == b'@' or fmt[0] == b'=' or fmt[0] == b'<':
        fmt += 1
    return (fmt[0] == b'L' or fmt[0] == b'Q') and fmt[1] == 0


cdef int _flag(value, str what) except -1:
    """A yes or no: a bool or a numpy bool (never an int, a string or None)."""
    if value is True or value is False or isinstance(value, np.bool_):
        return 1 if value else 0
    return 1 if _errors().check_bool(what, value) else 0


def greedy_choose(moves, level, hand, mine, responding, partner_play, opponent_low):
    """The index of the move :class:`guandan.bots.agents.GreedyAgent` chooses among card-level ``moves``.

    ``moves``: a C-contiguous ``uint64`` array of shape ``(n, 2)``, n >= 1 (a position's legal
    moves, the pass last when responding); ``level``: the rank number 2..14; ``hand``: the
    seat's cards packed in one int (2 bits a face, 0 <= hand < 2**108); ``mine``: how many
    cards it holds (0..108); ``responding``: whether there is a play to beat;
    ``partner_play``: whether that play is its partner's; ``opponent_low``: whether an
    opponent holding cards holds ``bomb_threshold`` or fewer.

    >>> from guandan import Deal
    >>> deal = Deal(["S3 S4 C4 S8 C8 D8 H8", "S9", "D5", "D6"], level=2, leader=0)
    >>> moves = deal.legal_moves()
    >>> print(moves[greedy_choose(moves.array, 2, deal.observation(0).packed_hand, 7, False, False, True)])
    single 3: S3
    """
    cdef gd_greedy_seat seat
    seat.level = _level_index(level)
    _packed_hand_arg(hand, &seat.hand, "the hand (packed)")
    seat.mine = <int>_size(mine, "mine (the cards held)", 0, 108)
    seat.responding = _flag(responding, "responding")
    seat.partner_play = _flag(partner_play, "partner_play")
    seat.opponent_low = _flag(opponent_low, "opponent_low")
    cdef Py_buffer buf
    try:
        PyObject_GetBuffer(moves, &buf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
    except (TypeError, ValueError, BufferError):
        raise _errors().InvalidMoveError(
            f"moves must be a C-contiguous uint64 array of shape (n, 2), got {_describe(moves)}") from None
    cdef ptrdiff_t got
    cdef Py_ssize_t n
    try:
        if buf.ndim != 2 or buf.shape[1] != 2 or buf.itemsize != 8 or not _u64_format(buf.format):
            raise _errors().InvalidMoveError(
                f"moves must be a C-contiguous uint64 array of shape (n, 2), got {_describe(moves)}")
        n = buf.shape[0]
        if n < 1:
            raise _errors().IllegalMoveError("no legal move to choose from")
        got = gd_greedy_choose(<const uint64_t *>buf.buf, <size_t>n, &seat)
    finally:
        PyBuffer_Release(&buf)
    if got < 0:
        raise _errors().InvalidMoveError(f"moves: row {-1 - got} is not a card-level move")
    return got


# -- a deal's legal moves from its packed hand --------------------------------------------------


cdef enum:  # rows written to the stack first; a position with more moves is generated again into its array
    _STACK_ROWS = 1024


def packed_card_moves(lo, hi, level, beat=GD_PASS_MOVE):
    """The legal card-level moves of a hand given packed (two words, as :func:`pack_cards`
    returns; the hand a :class:`~guandan.Deal` keeps): the ``uint64`` array of shape ``(n, 2)``
    of :func:`card_moves` on the same cards, generated once (not counted first).

    >>> from guandan import Cards
    >>> hand = Cards.parse("S3 C4 D4 C5 D5 H2").counts
    >>> bool((packed_card_moves(*pack_cards(hand), 2) == card_moves(hand, 2)).all())
    True
    """
    cdef gd_cards packed
    packed.w[0] = _u64(lo, "lo", _CARDS)
    packed.w[1] = _u64(hi, "hi", _CARDS)
    _check_packed(&packed)
    cdef int lvl = _level_index(level)
    cdef gd_move b = _checked_move(beat)
    cdef gd_view view
    gd_view_init(&view, &packed, lvl)
    cdef uint64_t buf[2 * _STACK_ROWS]
    cdef size_t n
    with nogil:
        n = gd_card_moves(&view, b, buf, _STACK_ROWS)
    out = np.empty((n, 2), dtype=np.uint64)
    cdef uint64_t[:, ::1] o = out
    if n > _STACK_ROWS:
        with nogil:
            gd_card_moves(&view, b, &o[0, 0], n)
    elif n:
        memcpy(&o[0, 0], buf, n * 2 * sizeof(uint64_t))
    return out
