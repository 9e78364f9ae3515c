# Part of _core.pyx (included there, in this order; one extension module): vectorized tables.

# -- vectorized tables: many seeded deals stepped in one call -------------------------------------


if len(ACTION_SPACE) != GD_SPACE_SIZE:  # pragma: no cover  (the C tables size their masks by it)
    raise ImportError(f"the action space has {len(ACTION_SPACE)} words, the C tables expect {GD_SPACE_SIZE}")

cdef const uint64_t[::1] _space_words = ACTION_SPACE
gd_space_init(&_space_words[0])

#: The policies a table's seat may have: the caller acts, or a built-in policy plays it.
TABLE_POLICIES = {"external": GD_EXTERNAL, "random": GD_POLICY_RANDOM, "greedy": GD_POLICY_GREEDY}


cdef int _table_array(arr, dtype, tuple shape, str what) except -1:
    """An array handed to the tables: exactly this dtype and shape, C-contiguous, writable."""
    if (not isinstance(arr, np.ndarray) or arr.dtype != dtype or arr.shape != shape
            or not arr.flags.c_contiguous or not arr.flags.writeable):
        raise _errors().GuandanError(
            f"{what} must be a writable C-contiguous {np.dtype(dtype).name} array of shape {shape}, "
            f"got {_describe(arr)}")
    return 0


@cython.auto_pickle(False)
cdef class NativeTables:
    """``n`` tables playing seeded deals one after another in the C core (see
    ``guandan.rl.vector`` for the documented API over it). ``deal_states`` and
    ``policy_states``: each table's two generator states (``uint64 (n,)``); ``level`` a rank
    2..14 or ``None`` (drawn per deal); ``policies`` four names of :data:`TABLE_POLICIES`;
    ``promotion`` the levels of a win with the partner 2nd, 3rd, 4th; ``wins`` whether a deal
    is worth +1 / -1 instead of its levels."""

    cdef gd_table *tables
    cdef gd_tables_config config
    cdef readonly Py_ssize_t n
    cdef object _space
    cdef uint64_t *store       # the card-level moves of the last gather, two words each
    cdef size_t store_cap, store_used
    cdef int64_t *offsets      # n + 1 offsets into the store
    cdef bint masked, gathered  # the observation the next step reads is up to date

    def __cinit__(self, n, deal_states, policy_states, level, policies, promotion, wins):
        self.n = _size(n, "the number of tables", 1, 1 << 24)
        self.tables = <gd_table *>malloc(self.n * sizeof(gd_table))
        self.offsets = <int64_t *>malloc((self.n + 1) * sizeof(int64_t))
        self.store_cap = 1024 * <size_t>self.n
        self.store = <uint64_t *>malloc(self.store_cap * 2 * sizeof(uint64_t))
        if not self.tables or not self.offsets or not self.store:
            raise MemoryError()
        self.store_used = 0
        self._space = ACTION_SPACE
        cdef const uint64_t[::1] space = ACTION_SPACE
        self.config.space = &space[0]
        errors = _errors()
        self.config.level = -1 if level is None else _level_index(level)
        if not isinstance(policies, (tuple, list)) or len(policies) != 4 or not all(
                isinstance(p, str) and p in TABLE_POLICIES for p in policies):
            raise errors.GuandanError(f"policies are four of {sorted(TABLE_POLICIES)}, got {_describe(policies)}")
        if "external" not in policies:
            raise errors.GuandanError("at least one seat is the caller's (policy 'external')")
        for s in range(4):
            self.config.policy[s] = TABLE_POLICIES[policies[s]]
        if not isinstance(promotion, (tuple, list)) or len(promotion) != 3 or not all(
                _is_int(g) and 0 <= g <= 12 for g in promotion):
            raise errors.GuandanError(f"promotion is three gains 0..12, got {_describe(promotion)}")
        for k in range(3):
            self.config.promotion[k] = <int>promotion[k]
        if not isinstance(wins, bool):
            raise errors.GuandanError(f"wins is True or False, got {_describe(wins)}")
        self.config.wins = wins
        self.restart(deal_states, policy_states)

    def __dealloc__(self):
        free(self.tables)
        free(self.offsets)
        free(self.store)

    def restart(self, deal_states, policy_states):
        """Start every table again from its two generator states (``uint64 (n,)`` each)."""
        for arr, what in ((deal_states, "deal_states"), (policy_states, "policy_states")):
            if (not isinstance(arr, np.ndarray) or arr.dtype != np.uint64 or arr.shape != (self.n,)):
                raise _errors().GuandanError(
                    f"{what} must be a uint64 array of shape ({self.n},), got {_describe(arr)}")
        cdef const uint64_t[::1] d = np.ascontiguousarray(deal_states)
        cdef const uint64_t[::1] p = np.ascontiguousarray(policy_states)
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.n):
                gd_table_start(&self.tables[i], &self.config, d[i], p[i])
        self.masked = self.gathered = False

    def dump(self):
        """Every table's whole state (its deal, record, generators, counters) as bytes, for a
        checkpoint: :meth:`load` of them on tables of the same count and configuration, in the
        same build, goes on exactly where these are."""
        return bytes((<char *>self.tables)[:self.n * sizeof(gd_table)])

    def load(self, data):
        """Set every table's state from :meth:`dump`'s bytes (then observe before stepping)."""
        if not isinstance(data, bytes) or len(data) != self.n * sizeof(gd_table):
            raise _errors().GuandanError(
                f"table states are the {self.n * sizeof(gd_table)} bytes dump() gives for {self.n} tables, "
                f"got {_describe(data)}")
        cdef const char *src = data
        memcpy(self.tables, src, self.n * sizeof(gd_table))
        self.masked = self.gathered = False

    def observe_mask(self, mask, seats):
        """Each table's decision: its legal-move mask over the action space into ``mask``
        (``bool (n, 2213)``) and the seat to act into ``seats`` (``int8 (n,)``)."""
        _table_array(mask, np.bool_, (self.n, GD_SPACE_SIZE), "mask")
        _table_array(seats, np.int8, (self.n,), "seats")
        cdef uint8_t[:, ::1] o = mask.view(np.uint8)
        cdef int8_t[::1] st = seats
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.n):
                gd_table_mask(&self.tables[i], &self.config, &o[i, 0])
                st[i] = self.tables[i].deal.turn
        self.masked = True

    def observe_states(self, states, seats):
        """The 513 state values of the seat to act at each table into ``states`` (``float32
        (n, 513)``), the seats into ``seats`` (``int8 (n,)``)."""
        _table_array(states, np.float32, (self.n, GD_STATE_SIZE), "states")
        _table_array(seats, np.int8, (self.n,), "seats")
        cdef float[:, ::1] o = states
        cdef int8_t[::1] st = seats
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.n):
                gd_table_state(&self.tables[i], &o[i, 0])
                st[i] = self.tables[i].deal.turn
        self.masked = False  # a step reads what was observed last: the card-level moves, once gathered

    def final_states(self, tables, seat, states):
        """The 513 state values of ``seat`` at the end of the last deal that ended at each of
        ``tables`` (``int64 (k,)`` table indices) into ``states`` (``float32 (k, 513)``): the
        terminal observations of the deals a step ended (zeros at a table where none has)."""
        if not isinstance(tables, np.ndarray) or tables.ndim != 1:
            raise _errors().GuandanError(f"tables must be an int64 array of shape (k,), got {_describe(tables)}")
        _table_array(tables, np.int64, (len(tables),), "tables")
        cdef Py_ssize_t k = len(tables)
        _table_array(states, np.float32, (k, GD_STATE_SIZE), "states")
        cdef int s = _size(seat, "a seat", 0, 3)
        cdef const int64_t[::1] idx = tables
        cdef float[:, ::1] o = states
        cdef Py_ssize_t j
        for j in range(k):
            if idx[j] < 0 or idx[j] >= self.n:
                raise _errors().GuandanError(f"a table index is 0..{self.n - 1}, got {idx[j]}")
        with nogil:
            for j in range(k):
                gd_table_final_state(&self.tables[idx[j]], s, &o[j, 0])

    def gather(self, offsets):
        """Gather each table's card-level legal moves (kept by the tables); their offsets into
        ``offsets`` (``int64 (n + 1,)``: table i's moves are ``offsets[i]:offsets[i + 1]``).
        Returns how many there are in all."""
        _table_array(offsets, np.int64, (self.n + 1,), "offsets")
        cdef int64_t[::1] off = offsets
        cdef Py_ssize_t i
        cdef size_t used = 0, k
        cdef uint64_t *grown
        cdef bint failed = False
        with nogil:
            for i in range(self.n):
                self.offsets[i] = <int64_t>used
                k = gd_table_card_moves(&self.tables[i], &self.store[2 * used], self.store_cap - used)
                if used + k > self.store_cap:
                    grown = <uint64_t *>realloc(self.store, 2 * (used + k + 1024 * <size_t>self.n) * sizeof(uint64_t))
                    if not grown:
                        failed = True
                        break
                    self.store = grown
                    self.store_cap = used + k + 1024 * <size_t>self.n
                    k = gd_table_card_moves(&self.tables[i], &self.store[2 * used], self.store_cap - used)
                used += k
            self.offsets[self.n] = <int64_t>used
            if not failed:
                memcpy(&off[0], self.offsets, (self.n + 1) * sizeof(int64_t))
        if failed:
            raise MemoryError()
        self.store_used = used
        self.gathered = True
        return used

    def card_vectors(self, out):
        """The card vectors of the gathered moves into ``out[:total]`` (``float32 (cap, 54)``,
        cap at least the total :meth:`gather` returned)."""
        if (not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.ndim != 2 or out.shape[1] != 54
                or out.shape[0] < <Py_ssize_t>self.store_used or not out.flags.c_contiguous or not out.flags.writeable):
            raise _errors().GuandanError(
                f"out must be a writable C-contiguous float32 array of shape (at least {self.store_used}, 54), "
                f"got {_describe(out)}")
        if not self.gathered:
            raise _errors().GuandanError("no moves gathered since the last step: call gather first")
        cdef float[:, ::1] o = out
        if self.store_used:
            with nogil:
                gd_encode_actions(self.store, self.store_used, &o[0, 0])

    def moves(self, i):
        """The gathered card-level moves of table ``i`` (a copy, ``uint64 (k, 2)``)."""
        cdef Py_ssize_t t = _size(i, "a table", 0, self.n - 1)
        if not self.gathered:
            raise _errors().GuandanError("no moves gathered since the last step: call gather first")
        cdef Py_ssize_t a = self.offsets[t], b = self.offsets[t + 1]
        out = np.empty((b - a, 2), dtype=np.uint64)
        cdef uint64_t[:, ::1] o = out
        if b > a:
            memcpy(&o[0, 0], &self.store[2 * a], (b - a) * 2 * sizeof(uint64_t))
        return out

    def places(self, out, limit):
        """The place of each gathered move among its table's search candidates into ``out[:total]``
        (``int8 (cap,)``, cap at least the total :meth:`gather` returned): 0 for the smart
        policy's own choice and so on in its order, at most ``limit`` (1..127) candidates
        (``gd_candidates``), -1 for a move whose rank-level move is not among them."""
        if (not isinstance(out, np.ndarray) or out.dtype != np.int8 or out.ndim != 1
                or out.shape[0] < <Py_ssize_t>self.store_used or not out.flags.c_contiguous or not out.flags.writeable):
            raise _errors().GuandanError(
                f"out must be a writable C-contiguous int8 array of shape (at least {self.store_used},), "
                f"got {_describe(out)}")
        cdef size_t lim = <size_t>_size(limit, "limit", 1, 127)
        if not self.gathered:
            raise _errors().GuandanError("no moves gathered since the last step: call gather first")
        if not self.store_used:
            return
        cdef int8_t[::1] o = out
        cdef Py_ssize_t i
        cdef int64_t a, b
        with nogil:
            for i in range(self.n):
                a, b = self.offsets[i], self.offsets[i + 1]
                if b > a:
                    gd_candidate_places(&self.tables[i].deal, lim, &self.store[2 * a], <size_t>(b - a), &o[a])

    cdef int _outputs(self, actions, rewards, ended, finish) except -1:
        if (not isinstance(actions, np.ndarray) or actions.dtype.kind not in "iu" or actions.shape != (self.n,)):
            raise _errors().GuandanError(
                f"actions must be an integer array of shape ({self.n},), got {_describe(actions)}")
        _table_array(rewards, np.float32, (self.n, 4), "rewards")
        _table_array(ended, np.int32, (self.n,), "ended")
        _table_array(finish, np.int8, (self.n, 4), "finish")
        return 0

    def step_rank(self, actions, rewards, ended, finish):
        """Play each table's action, an index of the action space legal in the mask last
        observed; then the built-in seats, dealing anew where a deal ended. Writes each
        seat's reward (``float32 (n, 4)``), the number of deals that ended (``int32 (n,)``)
        and the finish order of the last that ended (``int8 (n, 4)``, -1 where none or
        undecided). Every action is checked before any is played: a bad one raises
        :class:`~guandan.IllegalMoveError` naming its table and nothing changes."""
        self._outputs(actions, rewards, ended, finish)
        if not self.masked:
            raise _errors().GuandanError("the tables' masks were not observed since the last step: observe_mask first")
        cdef const int64_t[::1] a = np.ascontiguousarray(actions, dtype=np.int64)  # a copy: read once
        cdef Py_ssize_t i, bad = -1
        with nogil:
            for i in range(self.n):
                if not gd_table_rank_legal(&self.tables[i], a[i]):
                    bad = i
                    break
        if bad >= 0:
            raise _errors().IllegalMoveError(
                f"table {bad}: action {a[bad]} is not a legal move of seat {self.tables[bad].deal.turn} "
                f"(an index of ACTION_SPACE whose mask bit is set)", reason="bad_index",
                seat=self.tables[bad].deal.turn, got=int(a[bad]))
        cdef float[:, ::1] r = rewards
        cdef int32_t[::1] e = ended
        cdef int8_t[:, ::1] f = finish
        with nogil:
            for i in range(self.n):
                e[i] = gd_table_play_rank(&self.tables[i], &self.config, self.config.space[a[i]], &r[i, 0], &f[i, 0])
        self.masked = self.gathered = False

    def step_card(self, actions, rewards, ended, finish):
        """As :meth:`step_rank`, each action an index into the table's gathered card-level moves."""
        self._outputs(actions, rewards, ended, finish)
        if not self.gathered:
            raise _errors().GuandanError("the tables' moves were not gathered since the last step: gather first")
        cdef const int64_t[::1] a = np.ascontiguousarray(actions, dtype=np.int64)
        cdef Py_ssize_t i, bad = -1
        with nogil:
            for i in range(self.n):
                if a[i] < 0 or a[i] >= self.offsets[i + 1] - self.offsets[i]:
                    bad = i
                    break
        if bad >= 0:
            count = self.offsets[bad + 1] - self.offsets[bad]
            raise _errors().IllegalMoveError(
                f"table {bad}: action {a[bad]} out of range: seat {self.tables[bad].deal.turn} has {count} legal moves",
                reason="bad_index", seat=self.tables[bad].deal.turn, expected=int(count), got=int(a[bad]))
        cdef float[:, ::1] r = rewards
        cdef int32_t[::1] e = ended
        cdef int8_t[:, ::1] f = finish
        cdef int64_t k
        with nogil:
            for i in range(self.n):
                k = self.offsets[i] + a[i]
                e[i] = gd_table_play_card(&self.tables[i], &self.config, self.store[2 * k], self.store[2 * k + 1],
                                          &r[i, 0], &f[i, 0])
        self.masked = self.gathered = False

    def random_actions(self, seed, out):
        """A uniformly drawn legal action of each table's mask last observed into ``out``
        (``int64 (n,)``), table i drawing from its own stream of ``seed`` (the same seed, the same draws)."""
        _table_array(out, np.int64, (self.n,), "out")
        if not self.masked:
            raise _errors().GuandanError("the tables' masks were not observed since the last step: observe_mask first")
        cdef uint64_t base = _seed(seed)
        cdef int64_t[::1] o = out
        cdef Py_ssize_t i
        cdef gd_rng rng
        with nogil:
            for i in range(self.n):
                rng.state = gd_stream(base, i, 0)
                o[i] = gd_table_random_action(&self.tables[i], &rng)

    def table(self, i):
        """Table ``i`` now: ``(seed, level, dealt, plies, state)`` — the current deal's seed and
        level (2..14), the deals dealt so far, the plies of this deal, its native state."""
        cdef Py_ssize_t t = _size(i, "a table", 0, self.n - 1)
        cdef gd_table *x = &self.tables[t]
        return int(x.seed), x.deal.level + 2, int(x.dealt), int(x.plies), _state_of(&x.deal)


def canonical_words(hand, level, beat, word):
    """The card-level move ``(lo, hi)`` that plays the rank-level ``word`` from a packed ``hand``
    facing the rank-level ``beat`` (the pass word to lead), its cards spent canonically (as the
    built-in policies spend them, ``gd_spend``); :class:`~guandan.IllegalMoveError` unless the
    word is a legal rank-level move of that position."""
    cdef gd_cards h
    _packed_hand_arg(hand, &h, "hand")
    cdef int lvl = _level_index(level)
    cdef gd_move b = _checked_move(beat)
    cdef gd_move m = _checked_move(word, "the move")
    cdef gd_view view
    gd_view_init(&view, &h, lvl)
    cdef gd_move legal[GD_MAX_RANK_MOVES]
    cdef size_t n, i
    cdef bint found = False
    with nogil:
        n = gd_rank_moves(&view, b, legal)
        for i in range(n):
            if legal[i] == m:
                found = True
                break
    if not found:
        raise _errors().IllegalMoveError(f"0x{m:016x} is not a legal rank-level move here", reason="not_legal")
    if m == GD_PASS_MOVE:
        return 0, m
    cdef gd_cards spent
    gd_spend(&h, lvl, m, &spent)
    return int(spent.w[0]), int(spent.w[1] | (m & (<uint64_t>0xFFF << 52)))


def rank_mask(hand, level, beat, out):
    """Mark the legal rank-level moves of a position (a packed ``hand``, the ``level``, the
    rank-level ``beat``) in ``out``, an int8 or uint8 array of ``len(ACTION_SPACE)`` (zeroed
    first); returns how many there are."""
    cdef gd_cards h
    _packed_hand_arg(hand, &h, "hand")
    cdef int lvl = _level_index(level)
    cdef gd_move b = _checked_move(beat)
    if (not isinstance(out, np.ndarray) or out.dtype.char not in "bB" or out.shape != (GD_SPACE_SIZE,)
            or not out.flags.c_contiguous or not out.flags.writeable):
        raise _errors().GuandanError(
            f"out must be a writable C-contiguous int8 array of shape ({GD_SPACE_SIZE},), got {_describe(out)}")
    cdef uint8_t[::1] o = out.view(np.uint8)
    cdef gd_view view
    gd_view_init(&view, &h, lvl)
    cdef gd_move legal[GD_MAX_RANK_MOVES]
    cdef size_t n, i
    cdef ptrdiff_t a
    with nogil:
        n = gd_rank_moves(&view, b, legal)
        memset(&o[0], 0, GD_SPACE_SIZE)
        for i in range(n):
            a = gd_space_index(NULL, legal[i])
            if a >= 0:
                o[a] = 1
    return n


def deal_seeded(seed, level):
    """The native deal of a seed (as ``Deal.new(seed, level)`` deals it): its state."""
    cdef gd_deal d
    gd_deal_seeded(&d, _seed(seed), _level_index(level))
    return _state_of(&d)
