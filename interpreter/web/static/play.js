// A seat's page (or the hot-seat table's): fetch the view, draw it, send decisions, and
// listen on a WebSocket for "the game changed" notices (then fetch again). Reload-safe: every
// thing shown comes from the server.
"use strict";

const token = location.pathname.split("/").filter(Boolean)[1];
const api = "/api/play/" + token;
let version = -1;
let table = null;        // hot-seat: the table summary; null for a seat's own page
let shownSeat = null;    // hot-seat: whose view is on screen (after they confirmed)
let sending = false;

async function fetchJson(url, options) {
  const response = await fetch(url, Object.assign({cache: "no-store"}, options || {}));
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  return {ok: response.ok, status: response.status, data};
}

function clearTable() {
  for (const id of ["boards", "zones", "counters", "variables", "decision", "result", "log"]) {
    document.getElementById(id).textContent = "";
  }
}

function describeWaiting(data) {
  const names = data.waiting_for.map(p => {
    const kind = data.seats[p].agent;
    return Rulebook.seatName(p) + (kind !== "human" ? " (" + kind + ")" : "");
  });
  if (data.over) return "The game is over.";
  if (data.decision) return "Your turn.";
  if (!names.length) return "Waiting…";
  if (data.waiting_for.length > 1) return "Waiting for the others' secret choices: " + names.join(", ") + "…";
  const p = data.waiting_for[0];
  if (data.seats[p].agent !== "human") return names[0] + " is thinking…";
  return "Waiting for " + names[0] + "…";
}

function drawDecision(data) {
  const box = document.getElementById("decision");
  box.textContent = "";
  if (!data.decision) return;
  const prompt = document.createElement("h2");
  prompt.textContent = data.decision.prompt || "Choose";
  box.appendChild(prompt);
  const list = document.createElement("div");
  list.className = "options";
  data.decision.options.forEach((label, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "option";
    b.dataset.option = String(i);
    b.textContent = label;
    b.addEventListener("click", () => decide(i));
    list.appendChild(b);
  });
  box.appendChild(list);
}

function draw(data) {
  version = data.version;
  const me = data.seat;
  document.getElementById("who").textContent = "You are " + Rulebook.seatName(me) +
    (table ? " (hot seat)" : "");
  document.body.dataset.seat = String(me);
  document.body.dataset.version = String(data.version);
  document.body.classList.toggle("my-turn", !!data.decision);
  Rulebook.drawTable(data);
  Rulebook.drawLog(data);
  Rulebook.drawResult(data);
  drawDecision(data);
  document.getElementById("status").textContent = describeWaiting(data);
}

function nextHumanSeat(summary) {
  for (const p of summary.waiting_for) if (summary.human_seats.includes(p)) return p;
  return null;
}

function showCover(text, button, onClick) {
  clearTable();
  document.getElementById("cover-text").textContent = text;
  const b = document.getElementById("cover-button");
  b.textContent = button;
  b.onclick = () => { document.getElementById("cover").hidden = true; onClick(); };
  document.getElementById("cover").hidden = false;
}

async function load() {
  const r = await fetchJson(api);
  if (!r.ok) return failed(r);
  if (r.data.table) return loadTable(r.data);
  draw(r.data);
}

async function loadTable(summary) {
  table = summary;
  version = summary.version;
  const next = nextHumanSeat(summary);
  if (next !== null && next !== shownSeat) {
    showCover("Pass the device to " + Rulebook.seatName(next) + ". Everyone else, look away.",
              "I am " + Rulebook.seatName(next) + ": show my hand", async () => {
                shownSeat = next;
                await drawSeat(next);
              });
    return;
  }
  if (shownSeat !== null) return drawSeat(shownSeat);
  showCover("Waiting for the AI seats…", "OK", () => {});
}

async function drawSeat(seat) {
  const r = await fetchJson(api + "?seat=" + seat);
  if (!r.ok) return failed(r);
  draw(r.data);
}

function failed(r) {
  const status = document.getElementById("status");
  if (r.status === 403) {
    clearTable();
    status.textContent = "This link is not valid (or the game has expired).";
  } else {
    status.textContent = (r.data && r.data.error) || ("The server answered " + r.status + ".");
  }
}

async function decide(option) {
  if (sending) return;
  sending = true;
  document.querySelectorAll("button.option").forEach(b => { b.disabled = true; });
  const body = {option, version};
  if (table !== null) body.seat = shownSeat;
  const r = await fetchJson(api, {method: "POST", headers: {"Content-Type": "application/json"},
                                  body: JSON.stringify(body)});
  sending = false;
  if (!r.ok) { failed(r); return refresh(); }
  if (table !== null) return refresh();
  draw(r.data);
}

const refresh = load;

let retry = 500;
function listen() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const ws = new WebSocket(scheme + location.host + "/ws/" + token);
  const live = document.getElementById("live");
  ws.onopen = () => { retry = 500; live.textContent = "live"; live.className = "live on"; };
  ws.onmessage = (event) => {
    const notice = JSON.parse(event.data);
    if (notice.version !== version && !sending) refresh();
  };
  ws.onclose = () => {
    live.textContent = "reconnecting…"; live.className = "live off";
    setTimeout(() => { refresh(); listen(); }, retry);
    retry = Math.min(retry * 2, 5000);
  };
}

load().then(listen);
setInterval(() => { if (!sending) refresh(); }, 15000);  // a safety net if notices are missed
