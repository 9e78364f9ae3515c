// The tables of the server (/status.json), each with a link to watch it live (/?watch=T),
// read only; a table whose games are over points to the replay viewer. Refreshed every 3 s.

import { serverStatus } from "./net.js";

const $ = (id) => document.getElementById(id);

function describe(table, t, limit) {
  const taken = table.taken.filter(Boolean).length;
  const game = table.state === "playing" ? `, game ${Math.min(table.played + 1, table.games)} of ${table.games}` : "";
  const away = (table.away || []).some(Boolean) ? ", a seat waits for its page to come back" : "";
  const watchers = limit ? `, ${table.spectators} of ${limit} spectators` : "";
  return `Table ${t}: ${table.state}${game} (${taken} of 4 seats taken${away}${watchers})`;
}

function show(status) {
  const list = $("tables");
  list.textContent = "";
  const banner = $("banner");
  if (status === null) {
    banner.textContent = "The server does not answer: it has stopped.";
    banner.className = "banner error";
    banner.hidden = false;
    return;
  }
  banner.hidden = true;
  const limit = status.spectators ? status.spectators.limit : 0;
  const hands = status.spectators && status.spectators.hands;
  $("summary").textContent = `${status.title || status.ruleset}${limit ? (hands ? " · spectators see every hand" : " · spectators see no hand") : " · no spectators admitted"}`;
  status.tables.forEach((table, t) => {
    const item = document.createElement("li");
    item.dataset.table = t;
    item.append(describe(table, t, limit), " ");
    const link = document.createElement("a");
    if (table.state === "finished" || table.state === "aborted") {
      link.href = "/viewer";
      link.textContent = "replay in the viewer";
    } else if (limit && table.spectators < limit) {
      link.href = `/?watch=${t}`;
      link.className = "watch";
      link.textContent = "Watch";
    }
    if (link.href) item.append(link);
    list.append(item);
  });
}

async function refresh() {
  show(await serverStatus());
}

refresh();
setInterval(refresh, 3000);
