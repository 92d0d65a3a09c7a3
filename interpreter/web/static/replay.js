// The replay viewer: step through every decision of a saved game, seen by any seat or everyone.
"use strict";

const token = location.pathname.split("/").filter(Boolean)[1];
let step = 0;
let steps = 0;
let seatsFilled = false;

async function show() {
  const viewer = document.getElementById("viewer").value;
  const response = await fetch("/api/replay/" + token + "?step=" + step + "&seat=" + viewer, {cache: "no-store"});
  const data = await response.json();
  if (!response.ok) { document.getElementById("status").textContent = data.error; return; }
  steps = data.steps;
  if (!seatsFilled) {
    const select = document.getElementById("viewer");
    data.seats.forEach(s => {
      const o = document.createElement("option");
      o.value = String(s.seat); o.textContent = s.name; select.appendChild(o);
    });
    seatsFilled = true;
  }
  document.body.dataset.step = String(step);
  document.getElementById("step").textContent = "decision " + step + " / " + steps;
  Rulebook.drawTable(data);
  Rulebook.drawLog(data);
  Rulebook.drawResult(data);
  document.getElementById("status").textContent = data.next_mover === null ? "End of the log." :
    "Next: " + Rulebook.seatName(data.next_mover) + " decides.";
  document.getElementById("back").disabled = step === 0;
  document.getElementById("first").disabled = step === 0;
  document.getElementById("forward").disabled = step === steps;
  document.getElementById("last").disabled = step === steps;
}

function go(to) { step = Math.max(0, Math.min(steps, to)); show(); }

document.getElementById("first").addEventListener("click", () => go(0));
document.getElementById("back").addEventListener("click", () => go(step - 1));
document.getElementById("forward").addEventListener("click", () => go(step + 1));
document.getElementById("last").addEventListener("click", () => go(steps));
document.getElementById("viewer").addEventListener("change", show);
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") go(step - 1);
  else if (e.key === "ArrowRight") go(step + 1);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(steps);
});
show();
