// Shared by the play and replay pages: draws one payload (a player's view) into the page.
// The server builds the boards, zones and counters as escaped HTML/SVG from that player's view.
"use strict";

const Rulebook = {
  seatName(p) { return "P" + (p + 1); },

  text(el, value) { el.textContent = value; },

  drawTable(data) {
    for (const part of ["boards", "zones", "counters", "variables"]) {
      document.getElementById(part).innerHTML = data.html[part] || "";
    }
    document.getElementById("title").textContent = data.game;
    const where = [];
    if (data.round !== null && data.round !== undefined) where.push("round " + data.round);
    if (data.phase) where.push(String(data.phase).replace(/_/g, " "));
    document.getElementById("where").textContent = where.join(" · ");
  },

  drawLog(data) {
    const log = document.getElementById("log");
    log.textContent = "";
    const first = data.log_total - data.log.length;
    log.start = first + 1;
    for (const line of data.log) {
      const li = document.createElement("li");
      li.textContent = line;
      log.appendChild(li);
    }
    log.scrollTop = log.scrollHeight;
  },

  drawResult(data) {
    const box = document.getElementById("result");
    box.textContent = "";
    if (!data.over || !data.result) return;
    const h = document.createElement("h2");
    const winners = data.result.winners.map(Rulebook.seatName);
    h.textContent = "Game over: " + (winners.length ? winners.join(", ") + " won" : "no winner");
    box.appendChild(h);
    const p = document.createElement("p");
    p.textContent = "Scores: " + data.result.scores.map((s, i) => Rulebook.seatName(i) + " " + s).join(", ") +
      (data.result.reason ? " (" + data.result.reason + ")" : "");
    box.appendChild(p);
  },
};
