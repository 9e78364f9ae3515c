// Cards as the platform protocol writes them: suit then rank ("S3", "HT", "DA"), the small
// joker "SB", the big joker "HR". Drawn by the page itself, no image or font from anywhere.

export const SUIT_SYMBOL = { S: "\u2660", H: "\u2665", C: "\u2663", D: "\u2666" };
export const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
export const RANKS = "23456789TJQKA";

export const TYPE_LABEL = {
  Single: "single", Pair: "pair", Trips: "triple", ThreeWithTwo: "full house", ThreePair: "pair run",
  TwoTrips: "triple run", Straight: "straight", StraightFlush: "straight flush", Bomb: "bomb",
  PASS: "pass", tribute: "tribute", back: "return",
};

export function isJoker(code) {
  return code === "SB" || code === "HR";
}

export function rankLabel(rank) {
  return { T: "10", B: "small joker", R: "big joker" }[rank] || rank;
}

// A level as a person reads it ("T" is 10).
export function levelLabel(level) {
  return level ? rankLabel(level) : "?";
}

// The place of a card in the elevated order at a level: 2..A, the level rank above A, then the jokers.
export function order(code, level) {
  if (code === "SB") return 13;
  if (code === "HR") return 14;
  const rank = code[1];
  if (rank === level) return 12;
  const i = RANKS.indexOf(rank);
  const l = RANKS.indexOf(level);
  return l >= 0 && i > l ? i - 1 : i;
}

export function isWild(code, level) {
  return code === "H" + level;
}

export function isLevelCard(code, level) {
  return !isJoker(code) && code[1] === level;
}

export function compare(a, b, level) {
  return order(a, level) - order(b, level) || (SUIT_ORDER[a[0]] ?? 4) - (SUIT_ORDER[b[0]] ?? 4);
}

export function sortCards(codes, level) {
  return [...codes].sort((a, b) => compare(a, b, level));
}

// The text of a card: "\u26605", "\u266510", "small joker".
export function cardText(code) {
  if (code === "SB") return "small joker";
  if (code === "HR") return "big joker";
  return SUIT_SYMBOL[code[0]] + rankLabel(code[1]);
}

// A card face: a <span class="card"> with its rank and suit; the level cards and the wild marked.
export function cardElement(code, level, options = {}) {
  const el = document.createElement(options.button ? "button" : "span");
  el.className = "card";
  el.dataset.code = code;
  if (options.button) el.type = "button";
  const red = code[0] === "H" || code[0] === "D";
  if (isJoker(code)) {
    el.classList.add("joker", code === "HR" ? "big" : "small");
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = "JK";
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = code === "HR" ? "\u2605" : "\u2606";
    el.append(rank, suit);
    el.title = cardText(code);
  } else {
    el.classList.add(red ? "red" : "black");
    const rank = document.createElement("span");
    rank.className = "rank";
    rank.textContent = rankLabel(code[1]);
    const suit = document.createElement("span");
    suit.className = "suit";
    suit.textContent = SUIT_SYMBOL[code[0]];
    el.append(rank, suit);
    el.title = cardText(code);
  }
  if (level && isWild(code, level)) {
    el.classList.add("wild");
    el.title += " (wild)";
    const star = document.createElement("span");
    star.className = "mark";
    star.textContent = "\u2605";
    el.append(star);
  } else if (level && isLevelCard(code, level)) {
    el.classList.add("level");
    el.title += " (level card)";
  }
  if (options.as && options.as !== code) {
    const as = document.createElement("span");
    as.className = "as";
    as.textContent = "as " + cardText(options.as);
    el.append(as);
    el.title += ` as ${cardText(options.as)}`;
  }
  return el;
}

// A row of small cards (a play on the table).
export function cardRow(codes, level, declared) {
  const row = document.createElement("span");
  row.className = "cards small";
  codes.forEach((code, i) => row.append(cardElement(code, level, { as: declared ? declared[i] : undefined })));
  return row;
}

// A protocol action [type, rank, cards] in words: "full house 3", "straight flush 7", "pass".
export function actionLabel(action) {
  if (!action) return "";
  const [type, rank, cards] = action;
  if (type === "PASS") return "pass";
  if (type === "Bomb" && rank === "JOKER") return "joker bomb";
  const label = TYPE_LABEL[type] || String(type);
  if (type === "tribute" || type === "back") return `${label} ${cards.map(cardText).join(" ")}`;
  if (type === "Bomb") return `bomb of ${cards.length} ${rankLabel(rank)}`;
  return `${label} ${rankLabel(rank)}`;
}

// The declared faces of a record's action matched to its cards, for drawing: each card with what it stands for.
export function declaredFaces(cards, declared, level) {
  // A record lists the physical cards in face order and the declared faces in face order: the
  // wilds' declared faces are those of "as" left over once every natural card is matched.
  if (!declared || declared.length !== cards.length) return undefined;
  const rest = [...declared];
  const out = new Array(cards.length);
  cards.forEach((code, i) => {
    if (isWild(code, level)) return;
    const j = rest.indexOf(code);
    if (j >= 0) {
      rest.splice(j, 1);
      out[i] = code;
    }
  });
  cards.forEach((code, i) => {
    if (out[i] === undefined) out[i] = rest.length ? rest.shift() : code;
  });
  return out;
}
