// The replay viewer: a record (a deal or a whole match, as guandan writes them) replayed and
// checked by the server, then stepped through here, action by action, deal by deal.

import { cardElement, cardRow, cardText, declaredFaces, levelLabel, sortCards } from "./cards.js";
import { Assist, param } from "./net.js";

const $ = (id) => document.getElementById(id);
const assist = new Assist();
const view = { line: null, deal: 0, step: 0, seat: "all", hands: [], name: "" };

// The seat viewed sits at the bottom (seat 0 when all hands are shown), the next seat at its right.
const PLACE_OF_VIEW = ["seat-bottom", "seat-right", "seat-top", "seat-left"];
const TYPE_WORDS = (type) => String(type).replace(/_/g, " ");

function banner(text, kind = "error") {
  const el = $("banner");
  el.textContent = text;
  el.className = "banner " + kind;
  el.hidden = !text;
}

async function open(request, name) {
  banner(`Replaying ${name}…`, "info");
  let reply;
  try {
    reply = await assist.ask("replay", request);
  } catch (error) {
    banner(`Cannot replay ${name}: ${error.message}`);
    return;
  }
  if (!reply.ok) {
    banner(`${name} does not replay: ${reply.error}`);
    return;
  }
  banner("");
  view.line = reply.timeline;
  view.name = reply.name || name;
  view.deal = 0;
  view.step = 0;
  const deals = $("deal");
  deals.textContent = "";
  view.line.deals.forEach((deal, i) => {
    const option = document.createElement("option");
    option.value = i;
    const result = deal.result ? ` \u00b7 side ${deal.result.winning_side} wins 1-${deal.result.partner_place}` : "";
    option.textContent = `${deal.index + 1} \u00b7 level ${levelLabel(deal.level)}${result}`;
    deals.append(option);
  });
  $("drop").hidden = true;
  setDeal(0);
}

function readFile(file) {
  if (!file) return;
  const reader = new FileReader();
  reader.onload = () => open({ text: String(reader.result), name: file.name }, file.name);
  reader.onerror = () => banner(`Cannot read ${file.name}.`);
  reader.readAsText(file);
}

// The four hands before each step of a deal: the dealt hands, then every card given, returned and played.
function handsOf(deal) {
  const hands = deal.dealt.map((h) => [...h]);
  const out = [hands.map((h) => [...h])];
  const take = (seat, card) => {
    const i = hands[seat].indexOf(card);
    if (i >= 0) hands[seat].splice(i, 1);
  };
  for (const step of deal.steps) {
    if (step.kind === "tribute" || step.kind === "return") {
      take(step.seat, step.card);
      if (step.to !== null && step.to !== undefined) hands[step.to].push(step.card);
    } else if (step.kind === "play") {
      for (const card of step.cards) take(step.seat, card);
    }
    out.push(hands.map((h) => [...h]));
  }
  return out;
}

function setDeal(i) {
  const deals = view.line.deals;
  view.deal = Math.max(0, Math.min(deals.length - 1, i));
  view.hands = handsOf(deals[view.deal]);
  $("deal").value = String(view.deal);
  const slider = $("slider");
  slider.max = String(deals[view.deal].steps.length);
  setStep(0);
}

function setStep(n) {
  const deal = view.line.deals[view.deal];
  view.step = Math.max(0, Math.min(deal.steps.length, n));
  $("slider").value = String(view.step);
  render();
}

function seatLabel(seat) {
  return `Seat ${seat} (side ${seat % 2})`;
}

function stepText(step) {
  if (step.kind === "tribute") return `seat ${step.seat} pays ${cardText(step.card)} as tribute to seat ${step.to}`;
  if (step.kind === "return") return `seat ${step.seat} returns ${cardText(step.card)} to seat ${step.to}`;
  if (step.kind === "pass") return `seat ${step.seat}: pass`;
  return `seat ${step.seat}: ${TYPE_WORDS(step.text)}`;
}

function render() {
  const line = view.line;
  if (!line) return;
  const deal = line.deals[view.deal];
  const steps = deal.steps;
  const current = view.step > 0 ? steps[view.step - 1] : null;
  const hands = view.hands[view.step];
  const level = deal.level;
  const who = line.format === "guandan.match" ? `match seed ${line.seed}` : `deal seed ${line.seed}`;
  $("title").textContent = `${view.name} \u00b7 ${who} \u00b7 ${line.title}`;
  $("position").textContent = `action ${view.step} of ${steps.length}`;
  const levels = deal.levels_before ? `levels: side 0 ${levelLabel(deal.levels_before[0])}, side 1 ${levelLabel(deal.levels_before[1])}` : "";
  const whose = deal.level_side === null || deal.level_side === undefined ? "" : ` (side ${deal.level_side}'s)`;
  let summary = `Deal ${deal.index + 1} at level ${levelLabel(level)}${whose}. ${levels}`;
  if (view.step === steps.length && deal.result) {
    const order = deal.result.finish_order.map((s, i) => `${i + 1}. seat ${s}`).join(", ");
    summary += ` \u2014 finish order ${order}: side ${deal.result.winning_side} wins, partner ${deal.result.partner_place}${["", "st", "nd", "rd", "th"][deal.result.partner_place]}, +${deal.gained} level${deal.gained === 1 ? "" : "s"}`;
    if (deal.levels_after) summary += `; levels after: ${levelLabel(deal.levels_after[0])} and ${levelLabel(deal.levels_after[1])}`;
    if (deal.passed_a) summary += "; passes A: the match is won";
    summary += ".";
  }
  if (view.deal === line.deals.length - 1 && view.step === steps.length && line.format === "guandan.match") {
    summary += line.over ? ` Match over: ${line.winner === null ? "a draw" : `side ${line.winner} wins`} (${line.end_reason}).` : " The match is unfinished.";
  }
  $("summary").textContent = summary;
  const trick = new Set(current ? current.trick : []);
  const last = new Map();
  for (const i of trick) last.set(steps[i].seat, steps[i]);
  const counts = current ? current.counts : deal.dealt.map((h) => h.length);
  const out = current ? current.out : deal.finished_before || [];
  const bottom = view.seat === "all" ? 0 : Number(view.seat);
  for (let seat = 0; seat < 4; seat++) {
    const place = PLACE_OF_VIEW[(seat - bottom + 4) % 4];
    const el = $(place);
    el.textContent = "";
    el.dataset.seat = seat;
    el.classList.toggle("turn", !!current && current.turn === seat);
    el.classList.toggle("acted", !!current && current.seat === seat);
    const head = document.createElement("div");
    head.className = "seat-name";
    const n = counts[seat];
    head.textContent = `${seatLabel(seat)} `;
    const count = document.createElement("span");
    count.className = "count" + (n <= 10 ? " low" : "");
    count.textContent = `${n} card${n === 1 ? "" : "s"}`;
    head.append(count);
    const place2 = out.indexOf(seat);
    if (place2 >= 0) {
      const badge = document.createElement("span");
      badge.className = "badge out";
      badge.textContent = ["1st", "2nd", "3rd", "4th"][place2];
      head.append(" ", badge);
    }
    if (current && current.lead === seat) {
      const badge = document.createElement("span");
      badge.className = "badge lead";
      badge.textContent = "led";
      head.append(" ", badge);
    }
    el.append(head);
    const area = document.createElement("div");
    area.className = "play-area";
    const action = last.get(seat);
    if (action && action.kind === "pass") {
      area.textContent = "pass";
      area.classList.add("passed");
    } else if (action) {
      const label = document.createElement("div");
      label.className = "play-label";
      label.textContent = TYPE_WORDS(action.type) + (action.key ? " " + levelLabel(action.key) : "") + (action.suit ? " " + action.suit : "");
      area.append(label, cardRow(action.cards, level, declaredFaces(action.cards, action.as, level)));
    }
    el.append(area);
    const hand = document.createElement("div");
    hand.className = "hand-row";
    if (view.seat === "all" || Number(view.seat) === seat) {
      for (const code of sortCards(hands[seat], level)) hand.append(cardElement(code, level));
    } else {
      hand.classList.add("hidden-hand");
      hand.textContent = "(hidden)";
    }
    el.append(hand);
  }
  const center = $("center");
  center.textContent = "";
  const what = document.createElement("div");
  what.className = "step-text";
  what.textContent = current ? stepText(current) : deal.steps.length && deal.steps[0].kind === "tribute" ? "The tribute comes first." : `Seat ${deal.leader} leads.`;
  center.append(what);
  if (current && current.kind === "play" && current.as && current.as.some((c, i) => c !== current.cards[i])) {
    const decl = document.createElement("div");
    decl.textContent = "declared as ";
    decl.append(cardRow(current.as, level));
    center.append(decl);
  }
  if (current && current.turn !== null && current.turn !== undefined) {
    const next = document.createElement("div");
    next.textContent = `seat ${current.turn} to act`;
    center.append(next);
  }
  renderSteps(deal);
}

function renderSteps(deal) {
  const box = $("steps");
  box.textContent = "";
  const start = document.createElement("button");
  start.type = "button";
  start.textContent = `start (${deal.steps.length ? "dealt" : "no action"})`;
  start.className = view.step === 0 ? "current" : "";
  start.addEventListener("click", () => setStep(0));
  box.append(start);
  deal.steps.forEach((step, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.step = i + 1;
    button.textContent = `${i + 1}. ${stepText(step)}`;
    if (view.step === i + 1) button.className = "current";
    button.addEventListener("click", () => setStep(i + 1));
    box.append(button);
  });
  const current = box.querySelector(".current");
  if (current) box.scrollTop = Math.max(0, current.offsetTop - box.offsetTop - box.clientHeight / 2);
}

async function listRecords() {
  try {
    const reply = await assist.ask("records");
    if (!reply.ok || !reply.files.length) return;
    const select = $("records");
    select.hidden = false;
    const first = document.createElement("option");
    first.value = "";
    first.textContent = `the server's records (${reply.files.length})`;
    select.append(first);
    for (const file of reply.files) {
      const option = document.createElement("option");
      option.value = file.name;
      option.textContent = `${file.name} (${Math.max(1, Math.round(file.bytes / 1024))} kB)`;
      select.append(option);
    }
    select.addEventListener("change", () => {
      if (select.value) {
        history.replaceState(null, "", `?record=${encodeURIComponent(select.value)}`);
        open({ file: select.value }, select.value);
      }
    });
  } catch {
    // no list: the file picker and drag and drop still work
  }
}

function main() {
  $("file").addEventListener("change", (e) => readFile(e.target.files[0]));
  const drop = document.body;
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    $("drop").classList.add("over");
  });
  drop.addEventListener("dragleave", () => $("drop").classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    $("drop").classList.remove("over");
    readFile(e.dataTransfer.files[0]);
  });
  $("deal").addEventListener("change", (e) => view.line && setDeal(Number(e.target.value)));
  $("slider").addEventListener("input", (e) => view.line && setStep(Number(e.target.value)));
  $("first").addEventListener("click", () => view.line && setStep(0));
  $("prev").addEventListener("click", () => view.line && setStep(view.step - 1));
  $("next").addEventListener("click", () => view.line && setStep(view.step + 1));
  $("last").addEventListener("click", () => view.line && setStep(Infinity));
  $("view").addEventListener("change", (e) => {
    view.seat = e.target.value;
    render();
  });
  document.addEventListener("keydown", (e) => {
    if (!view.line || e.target instanceof HTMLSelectElement || (e.target instanceof HTMLInputElement && e.target.type !== "range")) return;
    const keys = {
      ArrowRight: () => setStep(view.step + 1),
      ArrowLeft: () => setStep(view.step - 1),
      Home: () => setStep(0),
      End: () => setStep(Infinity),
      PageDown: () => setDeal(view.deal + 1),
      PageUp: () => setDeal(view.deal - 1),
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  });
  listRecords();
  const name = param("record");
  if (name) open({ file: name }, name);
}

window.guandan = { view, setStep, setDeal };
main();
