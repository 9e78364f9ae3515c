// The table: a person plays one seat in the browser. The page is a client of the platform
// protocol like any bot: it reads the server's JSON messages and answers each request
// {"type": "act"} with {"actIndex": i}, an index into the request's actionList. The choices
// offered are exactly the entries of that list whose cards are the cards selected.
// With ?watch=T the page is a spectator of table T instead (/watch/T): read only, the public
// messages of the table (and the four hands when the server shows them).
// The server gives a page's seat a secret ({"stage": "seat", "reclaim": …}), kept in this
// tab's sessionStorage: reloaded during the games, the page takes its seat back with it.

import { actionLabel, cardElement, cardRow, cardText, levelLabel, rankLabel, sortCards } from "./cards.js";
import { Assist, param, serverStatus } from "./net.js";

const $ = (id) => document.getElementById(id);
const PLACES = ["you", "right", "partner", "left"];
const PLACE_NAME = { you: "You", right: "Right", partner: "Partner", left: "Left" };
const PLACE_ELEMENT = { you: "seat-bottom", right: "seat-right", partner: "seat-top", left: "seat-left" };
const CLOSE_REASONS = {
  1000: "The games are over: the server closed the table.",
  1001: "The server shut down.",
  1011: "The server had an internal error and ended the table.",
  4001: "The table ended: a seat disconnected.",
  4002: "The table ended: a seat was too slow to answer.",
  4003: "Another page of yours took this seat over: play on there.",
};
const WATCH = param("watch");
const SECRET_KEY = `guandan-seat-${location.host}`;

const state = {
  seat: null,
  hand: [],
  level: null,
  levels: [null, null],
  lastWinner: null,
  counts: [27, 27, 27, 27],
  trick: [null, null, null, null],
  lead: null,
  lastPlayer: null,
  passes: 0,
  trickOver: false,
  out: [],
  act: null,
  entries: new Map(),
  selected: new Set(),
  cursor: 0,
  messages: [],
  deal: 0,
  transfers: [],
  antiTribute: [],
  status: null,
  labels: null,
  promotion: [3, 2, 1],
  connected: false,
  finished: false,
  gamesWon: null,
  episode: null,
  hints: null,
  labelsOf: new Map(),
  asked: 0,
  game: 1,
  spectator: WATCH !== null,
  hands: null,
  turn: null,
  hintNote: null,
};

const assist = new Assist();
let socket = null;
let leaving = false; // the page is being unloaded (a reload): its seat's secret stays for the next one

function placeOf(seat) {
  return state.seat === null ? PLACES[seat] : PLACES[(seat - state.seat + 4) % 4];
}

function seatName(seat) {
  if (state.spectator) return `Seat ${seat}${state.labels && state.labels[seat] ? ` \u00b7 ${state.labels[seat]}` : ""}`;
  const place = placeOf(seat);
  const label = state.labels && state.labels[seat] && place !== "you" ? ` \u00b7 ${state.labels[seat]}` : "";
  return `${PLACE_NAME[place]} (seat ${seat}${label})`;
}

function who(seat) {
  return seat === state.seat ? "you" : seatName(seat);
}

function side(seat) {
  return seat % 2;
}

// A side's name: "Your side" or "The opponents", for a spectator "Seats 0, 2".
function sideName(s) {
  if (state.spectator || state.seat === null) return `Seats ${s}, ${s + 2}`;
  return s === side(state.seat) ? "Your side" : "The opponents";
}

// -- the log and the banner ---------------------------------------------------------------------

function log(text, kind = "") {
  const line = document.createElement("div");
  line.className = "line " + kind;
  line.textContent = text;
  const box = $("log");
  box.append(line);
  while (box.childElementCount > 400) box.firstElementChild.remove();
  box.scrollTop = box.scrollHeight;
}

function banner(text, kind = "error") {
  const el = $("banner");
  el.textContent = text;
  el.className = "banner " + kind;
  el.hidden = !text;
  if (text) log(text, kind);
}

// -- the connection -----------------------------------------------------------------------------

function secret() {
  try {
    return sessionStorage.getItem(SECRET_KEY);
  } catch {
    return null;
  }
}

function keepSecret(value) {
  try {
    if (value) sessionStorage.setItem(SECRET_KEY, value);
    else sessionStorage.removeItem(SECRET_KEY);
  } catch {
    // no storage: a reload cannot take the seat back
  }
}

function tableUrl(reclaim = null) {
  if (state.spectator) return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/watch/${encodeURIComponent(WATCH)}`;
  // The page's own server only: the Content-Security-Policy (connect-src 'self') and the
  // server's same-origin rule refuse any other.
  const name = param("name") || "you";
  const base = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/game/`;
  return `${base}${encodeURIComponent(name)}?page=1` + (reclaim ? `&reclaim=${encodeURIComponent(reclaim)}` : "");
}

async function explainFailure() {
  const status = await serverStatus();
  if (status === null) {
    banner("The server does not answer: it has stopped. Start it again (guandan web) and reload this page.");
    return;
  }
  if (state.spectator) {
    const watched = status.tables[Number(WATCH)];
    const limit = status.spectators ? status.spectators.limit : 0;
    if (!watched) banner(`There is no table ${WATCH} to watch: see the tables at /watch.`);
    else if (limit === 0) banner("This server admits no spectators.");
    else if (watched.state === "finished" || watched.state === "aborted") banner(`Table ${WATCH}'s games are over: replay them in the viewer.`);
    else if (watched.spectators >= limit) banner(`Table ${WATCH} has ${limit} spectators, as many as the server takes: try again later.`);
    else banner(`Could not watch table ${WATCH}.`);
    return;
  }
  const table = status.tables[0];
  if (table && table.person !== undefined && table.taken[table.person]) {
    banner(`Your seat (seat ${table.person}) is taken: another page is playing it. Close this one, or start another guandan web.`);
  } else if (table && table.state !== "seating") {
    banner(`The table has ${table.state === "playing" ? "begun" : table.state} without this page: start a new one (guandan web).`);
  } else {
    banner("Every seat of every table is taken.");
  }
}

function connect(reclaim = state.spectator ? null : secret()) {
  const url = tableUrl(reclaim);
  let opened = false;
  socket = new WebSocket(url);
  socket.onopen = () => {
    opened = true;
    state.connected = true;
    if (state.spectator) banner(`Watching table ${WATCH} (read only)…`, "info");
    else if (!reclaim) banner("Connected: waiting for the deal…", "info");
  };
  socket.onmessage = (event) => {
    try {
      onMessage(event.data);
    } catch (error) {
      banner(`Could not show a message of the server (${error.message}): it is ignored.`);
    }
  };
  socket.onclose = (event) => {
    state.connected = false;
    state.act = null;
    render();
    if (!opened) {
      if (reclaim) {
        keepSecret(null); // that seat is gone: take a seat as a new page
        connect(null);
        return;
      }
      explainFailure();
      return;
    }
    if (leaving) return;
    if (!state.spectator && [1000, 1001, 1011, 4001, 4002].includes(event.code)) keepSecret(null); // the table has ended
    if (state.finished && (event.code === 1000 || event.code === 1005)) {
      banner("The games are over. Open the replay viewer to step through them.", "info");
      return;
    }
    const reason = event.reason ? ` (${event.reason})` : "";
    const text = CLOSE_REASONS[event.code];
    banner(text ? text + reason : `The connection to the server was lost (code ${event.code})${reason}: the server has stopped?`);
  };
}

function send(index) {
  if (!socket || socket.readyState !== WebSocket.OPEN || !state.act) return;
  const entry = state.act.actionList[index];
  socket.send(JSON.stringify({ actIndex: index }));
  state.act = null;
  state.selected.clear();
  state.hints = null;
  state.hintNote = null;
  if (entry) log(entry[0] === "PASS" ? "You: pass" : `You: ${describeEntry(entry, index)}`, "me");
  render();
}

// -- the messages -------------------------------------------------------------------------------

function onMessage(text) {
  let m;
  try {
    m = JSON.parse(text);
  } catch {
    banner("The server sent a message that is not JSON: ignored.");
    return;
  }
  if (m === null || typeof m !== "object") return;
  if (m.type === "act" || Array.isArray(m.actionList)) {
    onAct(m);
    return;
  }
  const handler = NOTIFY[m.stage];
  if (!handler) return;
  if (m.stage !== "ignored" && m.stage !== "seat") state.messages.push(m);
  handler(m);
  render();
}

const NOTIFY = {
  seat(m) {
    // this page's seat, and its secret to take the seat back after a reload (this tab only)
    keepSecret(m.reclaim);
    if (Number.isInteger(m.deal)) {
      // coming back: the deal so far follows, from its beginning
      $("log").textContent = "";
      state.game = m.game;
      state.deal = m.deal - 1;
      state.episode = null;
      if (m.curRank) state.level = m.curRank;
      if (m.selfRank) state.levels[side(m.seat)] = m.selfRank;
      if (m.oppoRank) state.levels[1 - side(m.seat)] = m.oppoRank;
      log(`Back at your seat (seat ${m.seat}): the deal so far is shown again.`, "event");
    }
  },
  watching(m) {
    if (Array.isArray(m.labels)) state.labels = m.labels;
    log(`Watching table ${m.table}${m.seeHands ? " (the server shows every hand)" : ""}: ${m.state}.`, "event");
  },
  turn(m) {
    state.turn = m.seat;
    state.turnStage = m.act;
    state.greater = m.greaterPos >= 0 && m.greaterAction ? [m.greaterPos, m.greaterAction] : null;
    if (m.curRank) state.level = m.curRank;
    if (Array.isArray(m.levels)) state.levels = [...m.levels];
    if (Array.isArray(m.publicInfo) && m.publicInfo.length === 4) {
      m.publicInfo.forEach((info, s) => {
        if (info && Number.isInteger(info.rest)) state.counts[s] = info.rest;
        if (m.act === "play") state.trick[s] = info ? info.playArea || null : null;
      });
    }
    if (m.act === "play" && !state.greater) {
      state.trick = [null, null, null, null];
      state.lead = null;
      state.trickOver = false;
    }
  },
  beginning(m) {
    if (m.spectator) {
      beginWatching(m);
      return;
    }
    state.seat = m.myPos;
    state.hand = [...(m.handCards || m.handCard || [])];
    state.counts = [0, 1, 2, 3].map(() => state.hand.length || 27);
    state.messages = [m];
    resetDeal();
    state.act = null;
    state.selected.clear();
    if (state.episode && state.episode.gameOver) {
      state.deal = 0; // deals are numbered within a game
      state.game += 1;
    }
    state.deal += 1;
    state.hints = null;
    if (!state.episode || state.episode.gameOver) state.lastWinner = null;
    banner("");
    log(`${state.deal === 1 ? `Game ${state.game}, deal 1` : `Deal ${state.deal}`}: you are seat ${state.seat}.`, "deal");
  },
  "anti-tribute"(m) {
    state.antiTribute = m.antiPos || [];
    const seats = state.antiTribute.map(who).join(" and ");
    log(`The tribute is resisted: ${seats} ${state.antiTribute.length > 1 ? "hold" : "holds"} both big jokers.`, "event");
  },
  tribute(m) {
    transfer(m.result || [], "tribute");
  },
  back(m) {
    transfer(m.result || [], "return");
  },
  play(m) {
    const seat = m.curPos;
    const action = m.curAction;
    if (!Array.isArray(action)) return;
    if (action[0] === "PASS") {
      state.trick[seat] = action;
      state.passes += 1;
      if (seat !== state.seat) log(`${seatName(seat)}: pass`); // your own pass is logged when you make it
    } else {
      if (state.trickOver || state.lastPlayer === null) {
        state.trick = [null, null, null, null];
        state.lead = seat;
      }
      state.trick[seat] = action;
      state.lastPlayer = seat;
      state.passes = 0;
      state.trickOver = false;
      const cards = action[2] || [];
      state.counts[seat] = Math.max(0, state.counts[seat] - cards.length);
      if (seat === state.seat) removeCards(cards);
      if (state.hands) removeCards(cards, state.hands[seat]);
      if (seat !== state.seat) log(`${seatName(seat)}: ${actionLabel(action)} \u2014 ${cards.map(cardText).join(" ")}`);
      if (state.counts[seat] === 0 && !state.out.includes(seat)) {
        state.out.push(seat);
        log(`${seatName(seat)} is out: ${ordinal(state.out.length)}.`, "event");
      }
    }
    const holders = [0, 1, 2, 3].filter((s) => s !== state.lastPlayer && state.counts[s] > 0);
    if (state.lastPlayer !== null && state.passes >= holders.length) state.trickOver = true;
  },
  episodeOver(m) {
    const order = m.order || [];
    const first = order[0];
    const partnerPlace = order.indexOf(first ^ 2) + 1;
    const gained = partnerPlace >= 2 ? state.promotion[partnerPlace - 2] : 0;
    state.lastWinner = side(first);
    state.episode = { order, level: m.curRank, rest: m.restCards || [], gained, partnerPlace, deal: state.deal,
      levelsBefore: [...state.levels], levelsAfter: null, gameOver: false, lines: [] };
    state.act = null;
    state.turn = null;
    const holding = new Set((m.restCards || []).map(([s]) => s));
    const out = order.filter((s) => !holding.has(s));
    const places = out.map((s, i) => `${ordinal(i + 1)} ${who(s)}`).join(", ");
    log(`Deal ${state.deal} over: ${places}${out.length === 2 ? " (double-down)" : ""}.`, "deal");
    log(`${sideName(side(first))} won the deal (partner ${ordinal(partnerPlace)}): +${gained} level${gained === 1 ? "" : "s"}.`, "deal");
    showDealEnd();
  },
  gameOver(m) {
    if (state.episode) state.episode.gameOver = true;
    const winner = state.episode ? side(state.episode.order[0]) : null;
    state.lastWinner = null;
    let won = "the match is decided";
    if (winner !== null && state.seat === null) won = `seats ${winner}, ${winner + 2} win the match`;
    else if (winner !== null) won = winner === side(state.seat) ? "your side wins the match" : "the opponents win the match";
    const line = `Game ${m.curTimes} of ${m.settingTimes} over: ${won}.`;
    log(line, "deal");
    if (state.episode) state.episode.lines.push(line);
    showDealEnd();
  },
  gameResult(m) {
    state.finished = true;
    const wins = m.victoryNum || [];
    const draws = m.draws || [];
    const at = state.seat === null ? 0 : state.seat;
    const mine = wins[at] ?? "?";
    const theirs = wins[(at + 1) % 4] ?? "?";
    const drawn = draws[at] || 0;
    state.gamesWon = [mine, theirs, drawn];
    state.turn = null;
    const line = state.seat === null
      ? `Result: seats 0, 2 won ${mine}, seats 1, 3 won ${theirs}${drawn ? `, ${drawn} drawn` : ""}.`
      : `Result: your side won ${mine}, the opponents ${theirs}${drawn ? `, ${drawn} drawn` : ""}.`;
    state.resultLine = line;
    log(line, "deal");
    if (state.episode) state.episode.lines.push(line);
    showDealEnd(state.episode ? "" : line, true);
  },
  ignored(m) {
    const waiting = typeof m.error === "string" && !m.error.includes("was not asked");
    banner(`The table ignored the page's last message: ${m.error}.${waiting ? " It still waits for your answer." : ""}`);
    if (waiting && state.lastAct && !state.act) {
      state.act = state.lastAct; // the table still waits for this page's answer to its request
      render();
    }
  },
};

function ordinal(n) {
  return ["", "1st", "2nd", "3rd", "4th"][n] || `${n}th`;
}

function removeCards(cards, hand = state.hand) {
  for (const code of cards) {
    const i = hand.indexOf(code);
    if (i >= 0) hand.splice(i, 1);
  }
}

// A new deal's table: no trick, no one out, no tribute.
function resetDeal() {
  state.trick = [null, null, null, null];
  state.lead = null;
  state.lastPlayer = null;
  state.passes = 0;
  state.trickOver = false;
  state.out = [];
  state.transfers = [];
  state.antiTribute = [];
}

// A spectator's deal begins: the levels, the counts, and the hands when the server shows them.
function beginWatching(m) {
  state.hands = Array.isArray(m.hands) ? m.hands.map((h) => [...h]) : null;
  state.counts = Array.isArray(m.counts) ? [...m.counts] : [27, 27, 27, 27];
  state.level = m.curRank || state.level;
  if (Array.isArray(m.levels)) state.levels = [...m.levels];
  state.messages = [];
  resetDeal();
  state.turn = null;
  if (m.game !== state.game) state.lastWinner = null;
  state.game = m.game || state.game;
  state.deal = m.deal || state.deal + 1;
  banner("");
  log(`Game ${state.game}, deal ${state.deal} at level ${levelLabel(state.level)}.`, "deal");
}

function transfer(result, kind) {
  for (const [from, to, card] of result) {
    state.transfers.push({ kind, from, to, card });
    state.counts[from] -= 1;
    state.counts[to] += 1;
    if (from === state.seat) removeCards([card]);
    if (to === state.seat) state.hand.push(card);
    if (state.hands) {
      removeCards([card], state.hands[from]);
      state.hands[to].push(card);
    }
    const verb = kind === "tribute" ? (from === state.seat ? "pay" : "pays") : from === state.seat ? "return" : "returns";
    const text = `${who(from)} ${verb} ${cardText(card)} to ${who(to)}`;
    log(text.charAt(0).toUpperCase() + text.slice(1) + (kind === "tribute" ? " as tribute." : "."), "event");
  }
}

function onAct(m) {
  state.asked += 1;
  state.act = m;
  state.lastAct = m;
  state.hand = [...(m.handCards || m.handCard || state.hand)];
  if (m.curRank) state.level = m.curRank;
  const mine = state.seat === null ? 0 : side(state.seat);
  if (m.selfRank) state.levels[mine] = m.selfRank;
  if (m.oppoRank) state.levels[1 - mine] = m.oppoRank;
  if (state.episode && !state.episode.levelsAfter && state.episode.deal === state.deal - 1) {
    state.episode.levelsAfter = [...state.levels];
    const overlay = $("overlay");
    if (!overlay.hidden) showDealEnd();
  }
  if (Array.isArray(m.publicInfo) && m.publicInfo.length === 4) {
    m.publicInfo.forEach((info, s) => {
      if (info && Number.isInteger(info.rest)) state.counts[s] = info.rest;
      if (m.stage === "play") state.trick[s] = info ? info.playArea || null : null;
    });
  }
  if (m.stage === "play" && (m.greaterPos === -1 || m.greaterAction === null)) {
    state.trick = [null, null, null, null];
    state.lead = null; // set when the lead is played
    state.trickOver = false;
  }
  state.entries = new Map();
  (m.actionList || []).forEach((entry, i) => {
    if (!Array.isArray(entry) || entry[0] === "PASS") return;
    const key = sortCards(entry[2] || [], state.level).join(" ");
    if (!state.entries.has(key)) state.entries.set(key, []);
    state.entries.get(key).push(i);
  });
  state.selected.clear();
  state.hints = null;
  const { actionList, ...rest } = m;
  state.messages.push(rest);
  render();
  if (m.stage === "tribute" || m.stage === "back") {
    const cards = new Set((m.actionList || []).map((e) => e[2][0]));
    if (cards.size === 1) selectCodes([...cards]);
  }
}

// -- choosing -----------------------------------------------------------------------------------

function sortedHand() {
  return sortCards(state.hand, state.level || "2");
}

function selectedCodes() {
  const hand = sortedHand();
  return [...state.selected].map((i) => hand[i]).filter(Boolean);
}

// The actionList entries whose cards are exactly the cards selected (as a multiset).
function candidates() {
  if (!state.act) return [];
  const codes = selectedCodes();
  if (!codes.length) return [];
  return state.entries.get(sortCards(codes, state.level).join(" ")) || [];
}

function describeEntry(entry, index) {
  const label = state.labelsOf.get(labelKey(entry));
  if (label) return label.text.replace(/^(\w+)/, (t) => t.replace(/_/g, " "));
  if (entry[0] === "tribute") return `pay ${cardText(entry[2][0])} as tribute`;
  if (entry[0] === "back") return `return ${cardText(entry[2][0])}`;
  return `${actionLabel(entry)}: ${entry[2].map(cardText).join(" ")}`;
}

function labelKey(entry) {
  return `${state.level}|${JSON.stringify(entry)}`;
}

// The declarations of the buttons, in words with each wild's declared face (asked of the server once).
async function describeCandidates(indices) {
  const wanted = indices.map((i) => state.act.actionList[i]).filter((e) => e[0] !== "tribute" && e[0] !== "back");
  const missing = wanted.filter((e) => !state.labelsOf.has(labelKey(e)));
  if (!missing.length) return;
  try {
    const reply = await assist.ask("declare", { level: state.level, actions: missing });
    if (!reply.ok) return;
    missing.forEach((entry, i) => {
      if (reply.labels[i]) state.labelsOf.set(labelKey(entry), reply.labels[i]);
    });
    renderControls();
  } catch {
    // the buttons keep their short labels
  }
}

function selectCodes(codes) {
  const hand = sortedHand();
  state.selected.clear();
  for (const code of codes) {
    const i = hand.findIndex((c, j) => c === code && !state.selected.has(j));
    if (i >= 0) state.selected.add(i);
  }
  render();
}

function toggle(i) {
  if (state.selected.has(i)) state.selected.delete(i);
  else state.selected.add(i);
  state.cursor = i;
  render();
}

async function hint() {
  if (!state.act) return;
  const act = state.act;
  state.hintNote = { act, text: "Thinking…" };
  renderHints();
  try {
    const reply = await assist.ask("hint", { messages: state.messages, act });
    if (state.act !== act) return;
    if (!reply.ok) {
      state.hintNote = { act, text: `No hint: ${reply.error}` };
    } else {
      state.hintNote = null;
      state.hints = reply;
    }
  } catch (error) {
    if (state.act === act) state.hintNote = { act, text: `No hint: ${error.message}` };
  }
  render();
}

// -- drawing ------------------------------------------------------------------------------------

function render() {
  renderHeader();
  renderSeats();
  renderCenter();
  renderHand();
  renderControls();
  renderHints();
}

function whoseLevel() {
  const [a, b] = state.levels;
  if (a && b && a !== b) return state.level === a ? 0 : state.level === b ? 1 : null;
  return state.lastWinner;
}

function renderHeader() {
  const el = $("levels");
  el.textContent = "";
  const owner = whoseLevel();
  const part = (text, cls) => {
    const span = document.createElement("span");
    span.className = cls;
    span.textContent = text;
    el.append(span);
  };
  if (state.spectator && state.level) {
    part(`Seats 0, 2: ${levelLabel(state.levels[0])}`, "level-us" + (owner === 0 ? " owner" : ""));
    part(`Seats 1, 3: ${levelLabel(state.levels[1])}`, "level-them" + (owner === 1 ? " owner" : ""));
    part(`Game ${state.game}, deal ${state.deal} at level ${levelLabel(state.level)}`, "level-deal");
    return;
  }
  if (state.seat === null) {
    el.textContent = state.spectator ? `Watching table ${WATCH}: waiting for the deal…` : "Waiting for the deal…";
    return;
  }
  const mine = side(state.seat);
  part(`Your side (seats ${mine}, ${mine + 2}): ${levelLabel(state.levels[mine])}`, "level-us" + (owner === mine ? " owner" : ""));
  part(`Opponents (seats ${1 - mine}, ${3 - mine}): ${levelLabel(state.levels[1 - mine])}`, "level-them" + (owner === 1 - mine ? " owner" : ""));
  const whose = owner === null ? "both sides' level" : owner === mine ? "your side's level" : "the opponents' level";
  part(`Deal ${state.deal} at level ${levelLabel(state.level)} (${whose})`, "level-deal");
}

function renderSeats() {
  for (let seat = 0; seat < 4; seat++) {
    const el = $(PLACE_ELEMENT[placeOf(seat)]);
    el.textContent = "";
    el.dataset.seat = seat;
    el.classList.toggle("turn", (!!state.act && seat === state.seat) || (state.spectator && state.turn === seat));
    el.classList.toggle("leader", state.lead === seat);
    const head = document.createElement("div");
    head.className = "seat-name";
    head.textContent = seatName(seat);
    const count = document.createElement("span");
    count.className = "count";
    const n = state.counts[seat];
    count.textContent = `${n} card${n === 1 ? "" : "s"}`;
    if (n <= 10) {
      count.classList.add("low");
      count.title = "10 cards or fewer: the count is announced";
    }
    head.append(" ", count);
    const place = state.out.indexOf(seat);
    if (place >= 0) {
      const badge = document.createElement("span");
      badge.className = "badge out";
      badge.textContent = ordinal(place + 1);
      head.append(" ", badge);
    }
    if (state.lead === seat) {
      const badge = document.createElement("span");
      badge.className = "badge lead";
      badge.textContent = "led";
      head.append(" ", badge);
    }
    el.append(head);
    const action = state.trick[seat];
    const area = document.createElement("div");
    area.className = "play-area";
    if (action) {
      if (action[0] === "PASS") {
        area.textContent = "pass";
        area.classList.add("passed");
      } else {
        const label = document.createElement("div");
        label.className = "play-label";
        label.textContent = actionLabel(action);
        area.append(label, cardRow(action[2] || [], state.level));
      }
    }
    el.append(area);
    if (state.hands && state.hands[seat]) {
      const hand = document.createElement("div");
      hand.className = "seat-hand";
      hand.append(cardRow(sortCards(state.hands[seat], state.level || "2"), state.level));
      el.append(hand);
    }
  }
}

function renderCenter() {
  const info = $("trick-info");
  info.textContent = "";
  const act = state.act;
  if (act && act.stage === "tribute") info.textContent = "Your turn: pay tribute with your highest card (the wild excepted).";
  else if (act && act.stage === "back") {
    const to = state.transfers.find((t) => t.kind === "tribute" && t.to === state.seat);
    info.textContent = `Your turn: return a card${to ? ` to ${who(to.from)}` : ""}.`;
  } else if (act && (act.greaterPos === -1 || act.greaterAction === null)) info.textContent = "Your turn: lead anything.";
  else if (act) info.textContent = `Your turn: beat ${who(act.greaterPos)}'s ${actionLabel(act.greaterAction)}, or pass.`;
  else if (state.finished) info.textContent = `The games are over. ${state.resultLine || ""}`.trim();
  else if (state.episode && state.episode.deal === state.deal) info.textContent = `Deal ${state.deal} over: ${sideName(side(state.episode.order[0])).toLowerCase()} won it.`;
  else if (state.spectator && state.turn !== null && state.turnStage === "tribute") info.textContent = `${seatName(state.turn)} pays tribute.`;
  else if (state.spectator && state.turn !== null && state.turnStage === "back") info.textContent = `${seatName(state.turn)} returns a card.`;
  else if (state.spectator && state.turn !== null && !state.greater) info.textContent = `${seatName(state.turn)} leads.`;
  else if (state.spectator && state.turn !== null) info.textContent = `${seatName(state.turn)} to beat ${seatName(state.greater[0])}'s ${actionLabel(state.greater[1])}, or pass.`;
  else if (state.trickOver && state.lastPlayer !== null) info.textContent = `Trick won by ${who(state.lastPlayer)}.`;
  else if (state.lastPlayer !== null) info.textContent = `To beat: ${who(state.lastPlayer)}'s ${actionLabel(state.trick[state.lastPlayer])}.`;
  else if (state.seat !== null) info.textContent = "Waiting…";
  const box = $("transfers");
  box.textContent = "";
  for (const t of state.transfers) {
    const line = document.createElement("div");
    line.className = "transfer " + t.kind;
    line.textContent = `${t.kind === "tribute" ? "Tribute" : "Return"}: ${who(t.from)} \u2192 ${who(t.to)} `;
    line.append(cardElement(t.card, state.level));
    box.append(line);
  }
  if (state.antiTribute.length) {
    const line = document.createElement("div");
    line.className = "transfer anti";
    line.textContent = `Tribute resisted by ${state.antiTribute.map(who).join(" and ")} (both big jokers).`;
    box.append(line);
  }
}

function renderHand() {
  const el = $("hand");
  el.textContent = "";
  const hand = sortedHand();
  const allowed = new Set();
  if (state.act && (state.act.stage === "tribute" || state.act.stage === "back")) {
    for (const entry of state.act.actionList) allowed.add(entry[2][0]);
  }
  if (state.cursor >= hand.length) state.cursor = Math.max(0, hand.length - 1);
  hand.forEach((code, i) => {
    const card = cardElement(code, state.level, { button: true });
    card.dataset.i = i;
    card.tabIndex = -1;
    if (state.selected.has(i)) card.classList.add("selected");
    if (i === state.cursor) card.classList.add("cursor");
    if (allowed.size && allowed.has(code)) card.classList.add("allowed");
    card.addEventListener("click", () => toggle(i));
    el.append(card);
  });
  $("hand-count").textContent = `Your hand: ${hand.length} card${hand.length === 1 ? "" : "s"}`;
}

function renderControls() {
  const box = $("declarations");
  box.textContent = "";
  const act = state.act;
  const found = candidates();
  found.forEach((index, n) => {
    const entry = act.actionList[index];
    const button = document.createElement("button");
    button.type = "button";
    button.className = "declare";
    button.dataset.index = index;
    const kind = entry[0] === "tribute" ? "Pay tribute" : entry[0] === "back" ? "Return" : "Play";
    const label = state.labelsOf.get(labelKey(entry));
    const text = entry[0] === "tribute" || entry[0] === "back" ? cardText(entry[2][0]) : label ? label.text.replace(/_/g, " ") : actionLabel(entry);
    button.textContent = `${n < 9 ? n + 1 + ". " : ""}${kind}: ${text}`;
    if (state.hints && state.hints.choices.some((c) => c.index === index)) button.classList.add("hinted");
    button.addEventListener("click", () => send(index));
    box.append(button);
  });
  if (act && found.length) describeCandidates(found);
  const codes = selectedCodes();
  const note = $("selection-note");
  if (!act) note.textContent = state.connected ? "" : "";
  else if (!codes.length) note.textContent = act.stage === "play" ? "Select cards to see how they can be played." : "Select the card to give.";
  else if (!found.length) note.textContent = `${codes.map(cardText).join(" ")}: not a legal play now.`;
  else note.textContent = found.length > 1 ? `${found.length} ways to declare these cards: choose one.` : "";
  const passable = !!act && act.actionList && act.actionList.length > 0 && act.actionList[0][0] === "PASS";
  $("pass").disabled = !passable;
  $("hint").disabled = !act;
  $("clear").disabled = !state.selected.size;
  $("controls").classList.toggle("active", !!act);
}

function renderHints() {
  const box = $("hints");
  box.textContent = "";
  const reply = state.hints;
  if (!reply || !state.act) {
    // a hint belongs to its request: gone once the request is answered (or the deal is over)
    if (state.hintNote && state.hintNote.act === state.act && state.act) box.textContent = state.hintNote.text;
    return;
  }
  const head = document.createElement("div");
  head.textContent = `Hint (${reply.rollouts.toLocaleString()} rollouts): the mean result in levels for your side.`;
  box.append(head);
  reply.choices.forEach((choice, n) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "hint-choice";
    button.dataset.index = choice.index ?? "";
    const value = (choice.value >= 0 ? "+" : "") + choice.value.toFixed(2);
    button.textContent = `${n + 1}. ${choice.text.replace(/_/g, " ")}  ${value}`;
    button.addEventListener("click", () => {
      if (choice.index === null || !state.act) return;
      const entry = state.act.actionList[choice.index];
      if (entry[0] === "PASS") send(choice.index);
      else selectCodes(entry[2]);
    });
    box.append(button);
  });
}

function showDealEnd(extra = "", final = state.finished) {
  const ep = state.episode;
  const panel = $("overlay-panel");
  panel.textContent = "";
  const overlay = $("overlay");
  if (ep) {
    const title = document.createElement("h2");
    title.textContent = `Deal ${ep.deal} over (level ${levelLabel(ep.level)})`;
    panel.append(title);
    const list = document.createElement("ol");
    list.className = "finish-order";
    const holding = new Set(ep.rest.map(([s]) => s));
    ep.order.filter((s) => !holding.has(s)).forEach((s) => {
      const item = document.createElement("li");
      item.textContent = seatName(s);
      list.append(item);
    });
    panel.append(list);
    const gain = document.createElement("p");
    gain.className = "gained";
    gain.textContent = `${sideName(side(ep.order[0]))} won: partner ${ordinal(ep.partnerPlace)}, +${ep.gained} level${ep.gained === 1 ? "" : "s"}.`;
    panel.append(gain);
    if (ep.levelsAfter && state.seat !== null) {
      const mine = side(state.seat);
      const levels = document.createElement("p");
      levels.className = "levels-after";
      levels.textContent = `Levels now: your side ${levelLabel(ep.levelsBefore[mine])} \u2192 ${levelLabel(ep.levelsAfter[mine])}, the opponents ${levelLabel(ep.levelsBefore[1 - mine])} \u2192 ${levelLabel(ep.levelsAfter[1 - mine])}.`;
      panel.append(levels);
    }
    for (const [s, cards] of ep.rest) {
      const line = document.createElement("div");
      line.className = "rest";
      line.textContent = `${seatName(s)} held `;
      line.append(cardRow(cards, ep.level));
      panel.append(line);
    }
  }
  for (const text of [...(ep ? ep.lines : []), ...(extra ? [extra] : [])]) {
    const p = document.createElement("p");
    p.className = final ? "match-result final" : "match-result";
    p.textContent = text;
    panel.append(p);
  }
  const actions = document.createElement("div");
  actions.className = "overlay-actions";
  const ok = document.createElement("button");
  ok.type = "button";
  ok.id = "overlay-close";
  ok.textContent = final ? "Close (Enter)" : "Continue (Enter)";
  ok.addEventListener("click", () => (overlay.hidden = true));
  actions.append(ok);
  if (final || state.finished) {
    const link = document.createElement("a");
    link.href = "/viewer";
    link.textContent = "Open the replay viewer";
    actions.append(link);
  }
  panel.append(actions);
  overlay.hidden = false;
}

// -- keys ---------------------------------------------------------------------------------------

function onKey(event) {
  if (event.target instanceof HTMLInputElement) return;
  const overlay = $("overlay");
  const help = $("help");
  if (!help.hidden && (event.key === "Escape" || event.key === "?" || event.key === "Enter")) {
    help.hidden = true;
    event.preventDefault();
    return;
  }
  if (!overlay.hidden) {
    if (event.key === "Enter" || event.key === "Escape" || event.key === " ") {
      overlay.hidden = true;
      event.preventDefault();
    }
    return;
  }
  const hand = sortedHand();
  const buttons = [...document.querySelectorAll("#declarations button")];
  switch (event.key) {
    case "ArrowLeft":
      state.cursor = Math.max(0, state.cursor - 1);
      break;
    case "ArrowRight":
      state.cursor = Math.min(hand.length - 1, state.cursor + 1);
      break;
    case "Home":
      state.cursor = 0;
      break;
    case "End":
      state.cursor = hand.length - 1;
      break;
    case " ":
    case "ArrowUp":
    case "ArrowDown":
      if (hand.length) toggle(state.cursor);
      break;
    case "Enter":
      if (buttons.length === 1) buttons[0].click();
      break;
    case "Escape":
    case "c":
      state.selected.clear();
      break;
    case "p":
    case "P":
      if (!$("pass").disabled) $("pass").click();
      break;
    case "h":
    case "H":
      if (!$("hint").disabled) hint();
      break;
    case "?":
      help.hidden = false;
      break;
    default:
      if (/^[1-9]$/.test(event.key) && buttons[Number(event.key) - 1]) buttons[Number(event.key) - 1].click();
      else return;
  }
  event.preventDefault();
  render();
}

// -- start --------------------------------------------------------------------------------------

async function main() {
  $("pass").addEventListener("click", () => {
    if (state.act && state.act.actionList[0][0] === "PASS") send(0);
  });
  $("hint").addEventListener("click", hint);
  $("clear").addEventListener("click", () => {
    state.selected.clear();
    render();
  });
  $("help-button").addEventListener("click", () => ($("help").hidden = false));
  $("help-close").addEventListener("click", () => ($("help").hidden = true));
  document.addEventListener("keydown", onKey);
  window.addEventListener("pagehide", () => (leaving = true));
  window.addEventListener("pageshow", () => (leaving = false));
  if (state.spectator) {
    document.body.classList.add("watching");
    document.title = `Guandan · watching table ${WATCH}`;
  }
  const status = await serverStatus();
  state.status = status;
  if (status) {
    if (Array.isArray(status.promotion)) state.promotion = status.promotion;
    const table = status.tables && status.tables[state.spectator ? Number(WATCH) || 0 : 0];
    if (table && table.labels) state.labels = table.labels;
    $("ruleset").textContent = status.title || status.ruleset || "";
  }
  render();
  connect();
}

window.guandan = {
  state,
  candidates,
  sendRaw: (text) => socket && socket.send(text),
};

main();
