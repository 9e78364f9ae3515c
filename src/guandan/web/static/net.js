// The page's two connections: the table (the platform protocol, like any bot) and /assist
// on the server that served the page (records, hints, how cards are declared).

// The most characters a WebSocket message of a request carries: a longer request goes in parts.
export const PART = 16000;

// Sends a request's text, in parts ({"part": text, "last": bool}) when it is long.
export function sendText(ws, text) {
  if (text.length <= PART) {
    ws.send(text);
    return;
  }
  for (let i = 0; i < text.length; i += PART) {
    ws.send(JSON.stringify({ part: text.slice(i, i + PART), last: i + PART >= text.length }));
  }
}

export function assistUrl() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/assist`;
}

// Requests to /assist, each answered by one reply with the same id.
export class Assist {
  constructor(url = assistUrl()) {
    this.url = url;
    this.next = 1;
    this.waiting = new Map();
    this.opening = null;
  }

  open() {
    if (this.opening) return this.opening;
    this.opening = new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      ws.onopen = () => resolve(ws);
      ws.onerror = () => reject(new Error("the server does not answer (is it still running?)"));
      ws.onclose = () => {
        this.opening = null;
        for (const wait of this.waiting.values()) wait.reject(new Error("the connection to the server was closed"));
        this.waiting.clear();
      };
      ws.onmessage = (event) => {
        let reply;
        try {
          reply = JSON.parse(event.data);
        } catch {
          return;
        }
        const wait = this.waiting.get(reply.id);
        if (wait) {
          this.waiting.delete(reply.id);
          wait.resolve(reply);
        } else if (reply.id === null && !reply.ok) {
          for (const w of this.waiting.values()) w.resolve(reply);
          this.waiting.clear();
        }
      };
    });
    return this.opening;
  }

  // A request {op, ...fields}: its reply ({ok: true, ...} or {ok: false, error}).
  async ask(op, fields = {}) {
    const ws = await this.open();
    const id = this.next++;
    const text = JSON.stringify({ id, op, ...fields });
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      try {
        sendText(ws, text);
      } catch (error) {
        this.waiting.delete(id);
        reject(error);
      }
    });
  }
}

// What the server says about itself (/status.json), or null when it does not answer.
export async function serverStatus() {
  try {
    const response = await fetch("/status.json", { cache: "no-store" });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

export function param(name) {
  return new URLSearchParams(location.search).get(name);
}
