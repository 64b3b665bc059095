/* Broadcast overlay (OBS browser source): names, scores, phase, last move, violation banner.
   Fed by the table's own stream (/overlay) or by the hall (/hall/overlay/<table>). */
(function () {
  "use strict";
  const $ = id => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const lang = params.get("lang") === "de" ? "de" : "en";
  const WORDS = { en: { turn: "Turn", wins: "wins", draw: "Draw", over: "Game over", violation: "Rule check" },
                  de: { turn: "Zug", wins: "gewinnt", draw: "Unentschieden", over: "Spiel vorbei", violation: "Regelprüfung" } };
  const w = k => WORDS[lang][k];
  const pick = (o, base) => (o && (o[base + "_" + lang] || o[base + "_en"])) || "";
  const source = document.body.dataset.source;
  const table = document.body.dataset.table;

  function fromTable(s) {
    const st = (s.status && (s.status[lang] || s.status.en)) || {};
    const scores = {};
    (st.scores || []).forEach(sc => { scores[sc.player] = sc.value; });
    const log = s.log || [];
    const last = log.length ? log[log.length - 1].move || {} : null;
    const open = (s.violations || []).filter(v => !v.decision && !v.lifted_by);
    return { players: s.players || [], scores, turn: st.turn, active: st.active,
             phase: st.phase_name || st.phase || "", move: last ? pick(last, "text") : "",
             violation: open.length ? pick(open[open.length - 1], "message") : "", outcome: s.outcome };
  }

  function fromHall(r) {
    const scores = {};
    (r.scores || []).forEach(sc => { scores[sc.seat] = sc.value; });
    const vs = r.violations || [];
    return { players: r.players || [], scores, turn: r.turn, active: r.active,
             phase: r.phase_name || r.phase || "", move: r.last_move ? pick(r.last_move, "text") : "",
             violation: vs.length ? pick(vs[vs.length - 1], "message") : "", outcome: r.outcome };
  }

  function render(m) {
    $("ov-bar").hidden = !(m.players && m.players.length);
    ["p1", "p2"].forEach((seat, i) => {
      $("ov-name-" + seat).textContent = m.players[i] || "";
      $("ov-score-" + seat).textContent = m.scores[seat] ?? "";
      $("ov-name-" + seat).parentElement.classList.toggle("active", m.active === seat);
    });
    $("ov-phase").textContent = [m.turn ? `${w("turn")} ${m.turn}` : "", m.phase].filter(Boolean).join(" · ");
    $("ov-move").textContent = m.move || "";
    $("ov-banner").hidden = !m.violation;
    $("ov-banner").textContent = m.violation ? `${w("violation")}: ${m.violation}` : "";
    const out = m.outcome;
    $("ov-outcome").hidden = !out;
    if (out) {
      const name = out.winner === "p1" ? m.players[0] : out.winner === "p2" ? m.players[1] : null;
      $("ov-outcome").textContent = `${w("over")}: ${name ? name + " " + w("wins") : w("draw")}`;
    }
  }

  const initial = JSON.parse($("ov-initial").textContent || "{}");
  render(source === "hall" ? fromHall(initial) : fromTable(initial));

  const url = source === "hall" ? "/hall/api/stream" : "/api/stream";
  const es = new EventSource(url);
  es.addEventListener("state", e => {
    const data = JSON.parse(e.data);
    if (source === "hall") {
      const row = (data.tables || []).find(r => r.table === table);
      if (row) render(fromHall(row));
    } else {
      render(fromTable(data));
    }
  });
  if (source === "hall") {
    es.addEventListener("table", e => { const row = JSON.parse(e.data); if (row.table === table) render(fromHall(row)); });
  }
})();
